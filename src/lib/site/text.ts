import { Lexer, Marked, Parser, TextRenderer, type Token, type Tokens } from 'marked';
import { MARKDOWN_MAX_LENGTH, MARKDOWN_MAX_MARKS, markdownMarks } from '../record/integrity.ts';
import { ASTRAL_NONCHARACTER, BIDI_FORMATTING, closeBidi, FORBIDDEN_IN_HTML, withoutForbiddenCharacters } from '../unicode.ts';
import { remembered } from './remembered.ts';
import { safeHref } from './web-address.ts';

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Escapes text for HTML content and attribute values. Characters HTML forbids in a document
 * (controls other than whitespace, noncharacters) become U+FFFD, as a parser would show them, and
 * bidirectional formatting the text leaves open is closed (closeBidi).
 */
export function escapeHtml(text: string): string {
  // Most text has nothing to escape; testing first spares a replace (and its callback) per string.
  return HTML_SPECIAL.test(text) ? closeBidi(text.replace(HTML_SPECIALS, (ch) => escapes[ch] ?? '\uFFFD')) : text;
}

const HTML_SPECIAL = new RegExp(`[&<>"'${FORBIDDEN_IN_HTML}${BIDI_FORMATTING}]|${ASTRAL_NONCHARACTER}`);
const HTML_SPECIALS = new RegExp(`[&<>"'${FORBIDDEN_IN_HTML}]|${ASTRAL_NONCHARACTER}`, 'g');

/**
 * Record text as an Astro page shows it (Astro escapes markup, not these): the characters HTML
 * forbids shown as U+FFFD, and its open bidirectional formatting closed.
 * @example displayText('a\u0001\u202Eb') → 'a\uFFFD\u202Eb\u202C'
 */
export function displayText(text: string): string {
  return closeBidi(withoutForbiddenCharacters(text));
}

/**
 * The first of some optional names that says anything: a name may be null, or an empty or blank string.
 * @example firstPresent('', null, 'Tee') → 'Tee'
 */
export function firstPresent(...names: (string | null | undefined)[]): string | undefined {
  return names.find((name): name is string => Boolean(name?.trim()));
}

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

/** Whether a text block's light Markdown is read: it holds some, and little enough to read quickly (see MARKDOWN_MAX_LENGTH, MARKDOWN_MAX_MARKS). */
export function readsMarkdown(text: string): boolean {
  return text.length <= MARKDOWN_MAX_LENGTH && !isPlainText(text) && markdownMarks(text) <= MARKDOWN_MAX_MARKS;
}

const inline = new Marked({ gfm: true, async: false });
inline.use({
  renderer: {
    // Raw HTML in a record is shown as text, never interpreted.
    html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
    image: ({ text }: Tokens.Image) => escapeHtml(text),
    link({ href, tokens }: Tokens.Link) {
      const label = this.parser.parseInline(tokens);
      const safe = safeHref(href);
      if (!safe) return label;
      const rel = /^https?:/.test(safe) ? ' rel="noopener noreferrer nofollow"' : '';
      return `<a href="${escapeHtml(safe)}"${rel}>${label}</a>`;
    },
  },
});

/** Texts whose tokens are kept: more than a record has text blocks. */
const INLINE_TOKENS_KEPT = 256;

/**
 * The inline tokens of light Markdown (GFM), as the page, the Markdown twin and the search record
 * each read them: remembered for the few texts of the record at hand, so each is lexed once. Never changed once made.
 */
export const inlineTokens: (text: string) => readonly Token[] = remembered(
  (text) => Lexer.lexInline(text, { gfm: true }),
  INLINE_TOKENS_KEPT,
);

/**
 * Renders a text block's light Markdown to safe inline HTML: emphasis, code and links only.
 * Raw HTML is escaped, images become their alt text, unsafe links become plain text.
 * @example renderInline('**Heavy** <b>tee</b>') → '<strong>Heavy</strong> &lt;b&gt;tee&lt;/b&gt;'
 */
export function renderInline(text: string): string {
  // As inline.parseInline does, from tokens already read. The lexer decodes character references
  // (`&#x1F;`), so what HTML forbids is replaced in its output too, not only in the text read.
  return readsMarkdown(text)
    ? closeBidi(
        withoutForbiddenCharacters(Parser.parseInline(inlineTokens(withoutForbiddenCharacters(text)) as Token[], { ...inline.defaults })),
      )
    : escapeHtml(text);
}

/**
 * The text a reader sees, without Markdown syntax, for titles, meta tags and search.
 * @example plainText('**Heavy** [tee](https://x.org)') → 'Heavy tee'
 */
export function plainText(text: string): string {
  if (!readsMarkdown(text)) return text;
  return Parser.parseInline(inlineTokens(text) as Token[], { renderer: new TextRenderer() as never }).replace(
    /&(amp|lt|gt|quot|#39);/g,
    (entity) => {
      return { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" }[entity]!;
    },
  );
}
