import { Marked, Parser, TextRenderer, type Token, type Tokens } from 'marked';

const SAFE_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/**
 * Whether an href may become a link on a page: http(s), mailto, site-relative or a fragment.
 * @example isSafeHref('javascript:alert(1)') → false; isSafeHref('/garments/tee/') → true
 */
export function isSafeHref(href: string): boolean {
  const trimmed = href.trim();
  if (trimmed.startsWith('#')) return true;
  if (trimmed.startsWith('/')) return !trimmed.startsWith('//') && !trimmed.startsWith('/\\');
  try {
    return SAFE_SCHEMES.has(new URL(trimmed).protocol);
  } catch {
    return false;
  }
}

/** Whether a URL may be linked from a page as an external address: http or https only. */
export function isWebUrl(url: string | null | undefined): url is string {
  if (!url) return false;
  try {
    const { protocol } = new URL(url.trim());
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  // Most text has nothing to escape; testing first spares a replace (and its callback) per string.
  return HTML_SPECIAL.test(text) ? text.replace(HTML_SPECIALS, (ch) => escapes[ch]!) : text;
}

const HTML_SPECIAL = /[&<>"']/;
const HTML_SPECIALS = /[&<>"']/g;

/**
 * Whether text holds nothing inline Markdown can act on: no escape, emphasis, code, strikethrough,
 * link, image, HTML, entity, autolink (`://`, `www.`, `@`) or line break. Most text blocks are
 * such plain text, and for them the Markdown lexer, run over every block of every page and twin,
 * would only give the text back.
 * @example isPlainText('Fits true to size.') → true; isPlainText('See [care](/care/)') → false
 */
export function isPlainText(text: string): boolean {
  return !INLINE_SYNTAX.test(text);
}

const INLINE_SYNTAX = /[\\`*_~[\]!<>&@\r\n]|:\/\/|www\./i;

const inline = new Marked({ gfm: true, async: false });
inline.use({
  renderer: {
    // Raw HTML in a record is shown as text, never interpreted.
    html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
    image: ({ text }: Tokens.Image) => escapeHtml(text),
    link({ href, tokens }: Tokens.Link) {
      const label = this.parser.parseInline(tokens);
      if (!isSafeHref(href)) return label;
      const external = /^https?:/i.test(href.trim());
      const rel = external ? ' rel="noopener noreferrer nofollow"' : '';
      return `<a href="${escapeHtml(href.trim())}"${rel}>${label}</a>`;
    },
  },
});

/**
 * Renders a text block's light Markdown to safe inline HTML: emphasis, code and links only.
 * Raw HTML is escaped, images become their alt text, unsafe links become plain text.
 * @example renderInline('**Heavy** <b>tee</b>') → '<strong>Heavy</strong> &lt;b&gt;tee&lt;/b&gt;'
 */
export function renderInline(text: string): string {
  return isPlainText(text) ? escapeHtml(text) : (inline.parseInline(text) as string);
}

/**
 * The text a reader sees, without Markdown syntax, for titles, meta tags and search.
 * @example plainText('**Heavy** [tee](https://x.org)') → 'Heavy tee'
 */
export function plainText(text: string): string {
  if (isPlainText(text)) return text;
  const tokens: Token[] = inline.Lexer.lexInline(text);
  return Parser.parseInline(tokens, { renderer: new TextRenderer() as never }).replace(/&(amp|lt|gt|quot|#39);/g, (entity) => {
    return { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" }[entity]!;
  });
}
