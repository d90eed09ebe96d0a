import type { Token, Tokens } from 'marked';
import { ASTRAL_NONCHARACTER, BIDI_FORMATTING, closeBidi, FORBIDDEN_IN_HTML, withoutForbiddenCharacters } from '../unicode.ts';
import type { FieldView, Part, TargetView } from './page-view.ts';
import { inlineTokens, readsMarkdown } from './text.ts';
import { safeHref } from './web-address.ts';

/**
 * The Markdown twin's writing helpers: record data and text made into inline Markdown that cannot
 * start a block, and the twin's lists and tables. Record text is untrusted, so everything goes through these.
 */

/**
 * Plain data (not Markdown) as inline Markdown that renders exactly as given, on one line:
 * syntax characters are backslash-escaped, `&` before an entity name is escaped, line breaks
 * become spaces, and characters HTML forbids become U+FFFD as on the page. Safe in a table
 * cell, a list item or a heading.
 * @example escapeData('a|b *c* <i>') → 'a\\|b \\*c\\* \\<i>'
 */
export function escapeData(value: string): string {
  // Most values (names, numbers, labels) hold nothing to escape: one cheap test spares the full expression.
  if (!MAY_NEED_ESCAPES.test(value)) return value.trim();
  return closeBidi(
    value.replace(DATA_ESCAPES, (match) => (/[\r\n]/.test(match) ? ' ' : FORBIDDEN_CHARACTER.test(match) ? '\uFFFD' : `\\${match}`)).trim(),
  );
}

// One pass each, since every string of a record goes through them. Escaped: inline syntax
// characters (`>` only matters at the start of a line, which these strings never take); `&` before
// an entity name (data only: in text blocks entities render as on the page); and the `:` of
// `http://` and the `.` of `www.`, which stops micromark's GFM from autolinking a bare address (a
// parser that links addresses found in the parsed text, as remark's GFM does, still links it, to an
// http(s) or mailto address only). In data, line breaks and the space around them become one space.
const URL_START = String.raw`(?<=\b(?:https?|ftp)):(?=//)|(?<=\bwww)\.`;
// Data and literal text are plain text on the page, so their `@` is escaped too: no mailto autolink.
const DATA_ESCAPES = new RegExp(
  String.raw`[\\\`*_[\]<|~#@${FORBIDDEN_IN_HTML}]|${ASTRAL_NONCHARACTER}|&(?=#?[A-Za-z0-9]+;)|${URL_START}|\s*(?:\r\n|\r|\n)\s*`,
  'gi',
);
// Matches wherever DATA_ESCAPES could: at each of its characters, any `&`, `://` and `www.`.
const MAY_NEED_ESCAPES = new RegExp(
  String.raw`[\\\`*_[\]<|~#@&\r\n${FORBIDDEN_IN_HTML}${BIDI_FORMATTING}]|${ASTRAL_NONCHARACTER}|:\/\/|www\.`,
  'i',
);
const FORBIDDEN_CHARACTER = new RegExp(`[${FORBIDDEN_IN_HTML}]|${ASTRAL_NONCHARACTER}`);
// A `#` after `&` is left as it is: it opens a numeric character reference (`&#233;`), which the page decodes too, and never a heading.
const TEXT_ESCAPES = new RegExp(String.raw`[\\\`*_[\]<|~!]|(?<!&)#|${URL_START}`, 'gi');
// Text shown as plain text escapes an entity's `&` too: on the page, `&amp;` reads as written.
const LITERAL_TEXT_ESCAPES = new RegExp(`${TEXT_ESCAPES.source}|&(?=#?[A-Za-z0-9]+;)|@`, 'gi');

/**
 * A text block's light Markdown with only inline syntax left: emphasis, code, strikethrough and
 * safe links are kept (site-relative links made absolute from `base`); raw HTML and everything the
 * page's renderer treats as plain text is escaped; images become their alt text and unsafe links
 * their label, as on the page. Line breaks are kept: see {@link textBlockLines}.
 */
export function inlineMarkdown(raw: string, base?: string): string {
  const text = withoutForbiddenCharacters(raw);
  return readsMarkdown(text) ? serializeInline(inlineTokens(text), base) : text.replace(LITERAL_TEXT_ESCAPES, '\\$&');
}

/**
 * A text block as paragraph lines that cannot start any block construct: blank lines dropped,
 * surrounding whitespace trimmed, and a line that would begin a heading, quote, list, table row,
 * thematic break or setext underline gets its first character escaped.
 * @example textBlockLines('# Big\n\n- item') → ['\\# Big', '\\- item']
 */
export function textBlockLines(text: string, base?: string): string[] {
  return (
    inlineMarkdown(text, base)
      .split(/\r\n|\r|\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '')
      // Closed line by line: formatting left open would reorder the claim references after it.
      .map((line) => withoutBlockStart(closeBidi(line)))
  );
}

/**
 * A line that cannot start a block construct: a first character that would begin a heading,
 * quote, list, table row, thematic break or setext underline is escaped.
 * @example withoutBlockStart('1. item') → '1\\. item'
 */
export function withoutBlockStart(line: string): string {
  return /^[#>|\-+=:]/.test(line) ? `\\${line}` : line.replace(/^(\d{1,9})([.)])/, '$1\\$2');
}

function serializeInline(tokens: readonly Token[], base: string | undefined): string {
  return tokens.map((token) => serializeToken(token, base)).join('');
}

function serializeToken(token: Token, base: string | undefined): string {
  switch (token.type) {
    case 'escape':
      return token.raw;
    case 'codespan':
      // Literal already; on one line it can never open a fenced code block (CommonMark turns
      // line breaks inside code spans into spaces anyway).
      return token.raw.replace(/\s*(?:\r\n|\r|\n)\s*/g, ' ');
    case 'strong':
    case 'em':
    case 'del': {
      // Emphasis takes one mark, strong two, strikethrough what it was written with (`***a***` is em around strong).
      const delimiter =
        token.type === 'em' ? token.raw[0]! : token.type === 'strong' ? token.raw.slice(0, 2) : (/^~~?/.exec(token.raw)?.[0] ?? '~');
      return `${delimiter}${serializeInline((token as Tokens.Strong).tokens, base)}${delimiter}`;
    }
    case 'link': {
      const link = token as Tokens.Link;
      const label = serializeInline(link.tokens, base);
      const href = safeHref(link.href);
      if (!href) return label;
      return `[${label}](${linkDestination(base && /^[/#]/.test(href) ? new URL(href, base).href : href)})`;
    }
    case 'image':
      return (token as Tokens.Image).text.replace(TEXT_ESCAPES, '\\$&');
    case 'br':
      return '\\\n';
    default:
      // Plain text, raw HTML and anything else: shown as the characters it is.
      return withoutForbiddenReferences(token.raw).replace(TEXT_ESCAPES, '\\$&');
  }
}

/** A numeric character reference as CommonMark reads one (at most 7 decimal or 6 hex digits). */
const NUMERIC_REFERENCE = /&#(?:[xX]([0-9A-Fa-f]{1,6})|([0-9]{1,7}));/g;

/**
 * Text whose numeric references to characters HTML forbids are U+FFFD, as the page shows them: a
 * Markdown renderer decodes them (`&#x1F;`), and the twin writes no such character.
 * @example withoutForbiddenReferences('a&#x1F;&#233;') → 'a\uFFFD&#233;'
 */
function withoutForbiddenReferences(text: string): string {
  if (!text.includes('&#')) return text;
  return text.replace(NUMERIC_REFERENCE, (reference, hex: string | undefined, decimal: string | undefined) => {
    const code = hex === undefined ? Number(decimal) : Number.parseInt(hex, 16);
    // Beyond Unicode, a surrogate or 0: CommonMark reads U+FFFD already.
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return reference;
    return FORBIDDEN_CHARACTER.test(String.fromCodePoint(code)) ? '\uFFFD' : reference;
  });
}

/** A link destination in angle brackets; characters that could end it or split a table cell are percent-encoded. */
export function linkDestination(href: string): string {
  return `<${href.trim().replace(/[\s<>\\|]/g, (ch) => encodeURIComponent(ch))}>`;
}

export function urlMarkdown(url: string): string {
  return `[${escapeData(url)}](${linkDestination(url)})`;
}

/**
 * Inline Markdown on one line (a heading): each line break a space, and a hard break's backslash
 * (the odd one of a run right before the break; an even run is escaped backslashes) dropped with it.
 * @example oneLine('Heavy\\\nTee') → 'Heavy Tee'
 */
export function oneLine(text: string): string {
  return text.replace(/[ \t]*(\\*)(?:\r\n|\r|\n)\s*/g, (_, slashes: string) => `${slashes.slice(slashes.length % 2)} `).trim();
}

/** Claim references after the last line of a paragraph (or on their own line). */
export function withRefs(lines: string[], refs: string): string[] {
  if (!refs) return lines;
  if (lines.length === 0) return [refs];
  return [...lines.slice(0, -1), `${lines.at(-1)} ${refs}`];
}

/** A paragraph's lines led by its kind: `*Fact:* …`. */
export function withKind(kind: string, lines: string[]): string[] {
  const label = `*${escapeData(kind)}:*`;
  return lines.length === 0 ? [label] : [`${label} ${lines[0]}`, ...lines.slice(1)];
}

/** A list item whose continuation lines stay inside the item. */
export function indented(marker: string, lines: string[]): string {
  return lines.map((line, i) => `${i === 0 ? marker : ' '.repeat(marker.length)}${line}`).join('\n');
}

/** A bullet list of `**label**: value` lines, values already Markdown; empty values are left out. */
export function facts(rows: [string, string | null | undefined][]): string {
  let list = '';
  for (const [label, value] of rows) if (value) list += fact(label, value, list);
  return list;
}

/** The fields of an item or a source as {@link facts}, without building the rows first (a twin lists thousands). */
export function fieldList(fields: FieldView[]): string {
  let list = '';
  for (const field of fields) {
    const value = partsMarkdown(field.parts, false);
    if (value) list += fact(field.label, value, list);
  }
  return list;
}

/** One `- **label**: value` line, after a line break unless it starts the list. */
function fact(label: string, value: string, listSoFar: string): string {
  return `${listSoFar ? '\n' : ''}- **${escapeData(label)}**: ${value}`;
}

/** A GFM table, in pieces of ROWS_PER_PIECE lines: a table of hundreds of rows is never one long string. Cells are Markdown already. */
export function table(header: string[], rows: string[][]): string[] {
  const line = (cells: string[]) => `| ${cells.map((cell) => cell || ' ').join(' | ')} |`;
  const lines = [line(header.map(escapeData)), line(header.map(() => '---')), ...rows.map(line)];
  const pieces: string[] = [];
  for (let start = 0; start < lines.length; start += ROWS_PER_PIECE) {
    const end = start + ROWS_PER_PIECE;
    pieces.push(`${lines.slice(start, end).join('\n')}${end < lines.length ? '\n' : ''}`);
  }
  return pieces;
}

const ROWS_PER_PIECE = 20;

/** A displayed value as Markdown: text escaped, external links kept, links within the page as text, code as code. */
export function partsMarkdown(parts: Part[], inTable: boolean): string {
  let markdown = '';
  for (let i = 0; i < parts.length; i++) markdown += `${i > 0 ? ', ' : ''}${partMarkdown(parts[i]!, inTable)}`;
  return markdown;
}

function partMarkdown(part: Part, inTable: boolean): string {
  if (part.kind === 'link' && part.external) return `[${escapeData(part.text)}](${linkDestination(part.href)})`;
  // In a table GFM unescapes `\|` even inside code, so the cell cannot split.
  if (part.kind === 'code') {
    const code = part.text.replace(/\r\n|\r|\n/g, ' ');
    return codeSpan(inTable ? code.replace(/\|/g, '\\|') : code);
  }
  return escapeData(part.text);
}

export function targetMarkdown(target: TargetView): string {
  return escapeData(target.text);
}

/**
 * Literal text in a code span, fenced with more backticks than any run inside, on one line: a line
 * break becomes a space (as CommonMark reads one in a code span), so no line of it can start a block.
 * @example codeSpan('a\n# b') → '`a # b`'
 */
export function codeSpan(raw: string): string {
  const text = /[\r\n]/.test(raw) ? raw.replace(/\r\n|\r|\n/g, ' ') : raw;
  // Ids rarely hold a backtick: look for runs only when there is one.
  const longest = text.includes('`') ? Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length)) : 0;
  const fence = '`'.repeat(longest + 1);
  // CommonMark strips one space from each end when both ends have one, or to separate a backtick.
  const pad = /^[`]|[`]$/.test(text) || /^ .*[^ ].* $/s.test(text) ? ' ' : '';
  return `${fence}${pad}${withoutForbiddenCharacters(text)}${pad}${fence}`;
}

/** A block of the twin (blocks are separated by a blank line): its text, or its text in pieces. */
export type Block = string | readonly string[];
