import { PROJECTIONS, type Projection } from '../../record/projections.ts';
import type { PagefindResultData } from './pagefind-api.ts';
import { GARMENT_META } from './search-keys.ts';
import { fillMessage, type SearchMessages } from './search-messages.ts';

/** A garment found by a search, ready to show. Every field is text except `excerptHtml`. */
export interface ResultView {
  /** The garment's page: a path on this site. */
  href: string;
  title: string;
  image: { src: string; alt: string } | null;
  /** Its record pages, commerce first: the projection's code, the page, its research status. */
  projections: { code: Projection; href: string; status: string }[];
  /** Key facts, absent when the records do not state them: lowest price and sizes (commerce), fabric and weight (technical). */
  price: string | null;
  sizes: string | null;
  fabric: string | null;
  weight: string | null;
  /** The excerpt as HTML in which `<mark>` is the only element. */
  excerptHtml: string;
}

// The index only holds http(s) images (search-fields.ts); these checks repeat that in the browser
// without importing site/text.ts, whose Markdown renderer does not belong in the search script.
const SITE_PATH = /^\/(?![/\\])/;
const WEB_ADDRESS = /^https?:\/\/[^\s]/i;

/**
 * The view of a garment found, or null when its URL is not a path on this site. Metadata comes
 * from record text, so it stays text; only http(s) images are kept, and only known projections linked.
 */
export function resultView(data: PagefindResultData): ResultView | null {
  const href = data.url.trim();
  if (!SITE_PATH.test(href)) return null;
  const { meta } = data;
  const image = meta.image?.trim();
  const listed = new Set((meta[GARMENT_META.projections] ?? '').split(' '));
  const text = (value: string | undefined) => (value?.trim() ? value.trim() : null);
  return {
    href,
    title: meta.title || href,
    image: image && WEB_ADDRESS.test(image) ? { src: image, alt: meta.image_alt ?? '' } : null,
    projections: PROJECTIONS.filter((code) => listed.has(code)).map((code) => ({
      code,
      href: `${href.replace(/\/?$/, '/')}${code}/`,
      status: meta[`status_${code}`] ?? '',
    })),
    price: text(meta.price),
    sizes: text(meta.sizes),
    fabric: text(meta.fabric),
    weight: text(meta.weight),
    excerptHtml: safeExcerpt(data.excerpt),
  };
}

/**
 * A garment's key facts as its result lists them, in order: price from and sizes (commerce), fabric and weight (technical).
 * @example resultFacts({ price: '$18.40', sizes: 'S–3XL', fabric: null, weight: '322 g/m²', … }, messages) → ['From $18.40', 'Sizes S–3XL', '322 g/m²']
 */
export function resultFacts(view: ResultView, messages: Pick<SearchMessages, 'priceFrom' | 'sizes'>): string[] {
  return [
    view.price && fillMessage(messages.priceFrom, { price: view.price }),
    view.sizes && fillMessage(messages.sizes, { sizes: view.sizes }),
    view.fabric,
    view.weight,
  ].filter((fact): fact is string => Boolean(fact));
}

const MARK = /(<\/?mark>)/;
/** A marked word, less the punctuation Pagefind marks with it. */
const MARKED_WORD = /^(\p{P}*)(.*?)(\p{P}*)$/su;

/**
 * An excerpt safe to insert as HTML: Pagefind writes the indexed text's `<` and `>` as `&lt;` and
 * `&gt;` but leaves `&` as it is, and adds `<mark>` around hits. The text is read back and escaped
 * in full here, so only `<mark>` can ever become an element, and `&amp;` in a record reads as written.
 * A mark holds the word alone: Pagefind's takes in the punctuation clinging to it (`cotton;`).
 * @example safeExcerpt('&lt;b&gt; <mark>fleece,</mark> &amp; <img src=x>') → '&lt;b&gt; <mark>fleece</mark>, &amp;amp; &lt;img src=x&gt;'
 */
export function safeExcerpt(excerpt: string): string {
  const parts = excerpt.split(MARK);
  let html = '';
  for (let at = 0; at < parts.length; at++) {
    const part = parts[at]!;
    if (part === '<mark>' && parts[at + 2] === '</mark>') {
      const [, before, word, after] = MARKED_WORD.exec(indexedText(parts[at + 1]!))!;
      if (word) {
        html += `${escapeText(before!)}<mark>${escapeText(word)}</mark>${escapeText(after!)}`;
        at += 2;
        continue;
      }
    }
    html += MARK.test(part) ? part : escapeText(indexedText(part));
  }
  return html;
}

/**
 * An excerpt as plain text, as a reader of the page sees it: the hit marks dropped, the indexed text read back.
 * @example plainExcerpt('&lt;b&gt; <mark>fleece</mark> &amp;') → '<b> fleece &amp;'
 */
export function plainExcerpt(excerpt: string): string {
  return excerpt
    .split(MARK)
    .filter((part) => !MARK.test(part))
    .map(indexedText)
    .join('');
}

/** Text as indexed, from the excerpt's encoding of it, which encodes `<` and `>` only. */
function indexedText(encoded: string): string {
  return encoded.replaceAll('&lt;', '<').replaceAll('&gt;', '>');
}

function escapeText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** Sizes from small to large; a size not listed sorts after them, by name. */
const SIZE_ORDER = ['XXS', '2XS', 'XS', 'S', 'M', 'L', 'XL', 'XXL', '2XL', 'XXXL', '3XL', '4XL', '5XL', '6XL'];

/**
 * Orders a filter's values for display: sizes from small to large, anything else by name.
 * @example ['XL', 'S', '2XL', 'M'].sort(filterValueOrder('size')) → ['S', 'M', 'XL', '2XL']
 */
export function filterValueOrder(filter: string): (a: string, b: string) => number {
  const byName = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' });
  if (filter !== 'size') return byName;
  const rank = (size: string) => {
    const index = SIZE_ORDER.indexOf(size.toUpperCase());
    return index === -1 ? SIZE_ORDER.length : index;
  };
  return (a, b) => rank(a) - rank(b) || byName(a, b);
}
