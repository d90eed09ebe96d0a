import type { PagefindResultData } from './pagefind-api.ts';

/** A search hit ready to show. Every field is text except `excerptHtml`. */
export interface ResultView {
  /** A path on this site. */
  href: string;
  title: string;
  /** The projection's name (Commerce, Technical) and code (`svc`, `tech`). */
  projection: string;
  projectionCode: string;
  status: string;
  image: { src: string; alt: string } | null;
  /** The excerpt as HTML in which `<mark>` is the only element. */
  excerptHtml: string;
}

// The index only holds http(s) images (search-fields.ts); these checks repeat that in the browser
// without importing site/text.ts, whose Markdown renderer does not belong in the search script.
const SITE_PATH = /^\/(?![/\\])/;
const WEB_ADDRESS = /^https?:\/\/[^\s]/i;

/**
 * The view of a hit, or null when its URL is not a path on this site. Metadata comes from record
 * text, so it stays text; only http(s) images are kept.
 */
export function resultView(data: PagefindResultData): ResultView | null {
  const href = data.url.trim();
  if (!SITE_PATH.test(href)) return null;
  const image = data.meta.image?.trim();
  return {
    href,
    title: data.meta.title || href,
    projection: data.meta.projection ?? '',
    projectionCode: data.meta.projection_code ?? '',
    status: data.meta.status ?? '',
    image: image && WEB_ADDRESS.test(image) ? { src: image, alt: data.meta.image_alt ?? '' } : null,
    excerptHtml: safeExcerpt(data.excerpt),
  };
}

const MARK = /(<\/?mark>)/;

/**
 * An excerpt safe to insert as HTML: Pagefind writes the indexed text's `<` and `>` as `&lt;` and
 * `&gt;` but leaves `&` as it is, and adds `<mark>` around hits. The text is read back and escaped
 * in full here, so only `<mark>` can ever become an element, and `&amp;` in a record reads as written.
 * @example safeExcerpt('&lt;b&gt; <mark>fleece</mark> &amp; <img src=x>') → '&lt;b&gt; <mark>fleece</mark> &amp;amp; &lt;img src=x&gt;'
 */
export function safeExcerpt(excerpt: string): string {
  return excerpt
    .split(MARK)
    .map((part) => (MARK.test(part) ? part : escapeText(indexedText(part))))
    .join('');
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
