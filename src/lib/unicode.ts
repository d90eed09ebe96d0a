/** The explicit bidirectional formatting characters, as a range for a character class: LRE to RLO (PDF among them) and LRI to PDI. */
export const BIDI_FORMATTING = String.raw`\u202A-\u202E\u2066-\u2069`;

/** The characters HTML forbids in a document, as ranges for a character class: controls other than whitespace, noncharacters. */
export const FORBIDDEN_IN_HTML = String.raw`\0-\x08\x0B\x0E-\x1F\x7F-\x9F\uFDD0-\uFDEF\uFFFE\uFFFF`;

/**
 * The first UTF-16 units of the noncharacters beyond the Basic Multilingual Plane (U+1FFFE, U+1FFFF …
 * U+10FFFE, U+10FFFF), for a character class: a text without them holds none of those noncharacters.
 */
export const ASTRAL_NONCHARACTER_LEADS = String.raw`\uD83F\uD87F\uD8BF\uD8FF\uD93F\uD97F\uD9BF\uD9FF\uDA3F\uDA7F\uDABF\uDAFF\uDB3F\uDB7F\uDBBF\uDBFF`;

/** Those noncharacters, which HTML forbids too, as UTF-16 pairs: a pattern to put beside a character class of FORBIDDEN_IN_HTML. */
export const ASTRAL_NONCHARACTER = String.raw`[${ASTRAL_NONCHARACTER_LEADS}][\uDFFE\uDFFF]`;

const FORBIDDEN_CHARACTERS = new RegExp(`[${FORBIDDEN_IN_HTML}]|${ASTRAL_NONCHARACTER}`, 'g');

/** Text with the characters HTML forbids in a document (controls other than whitespace, noncharacters) shown as U+FFFD. */
export function withoutForbiddenCharacters(text: string): string {
  return text.replace(FORBIDDEN_CHARACTERS, '\uFFFD');
}

const BIDI_FORMATTING_CHARACTER = new RegExp(`[${BIDI_FORMATTING}]`);
const POP_DIRECTIONAL_FORMATTING = '\u202C';
const POP_DIRECTIONAL_ISOLATE = '\u2069';

/**
 * Text with the bidirectional embeddings, overrides and isolates it opens and leaves open closed
 * at its end (UAX #9), so that record text cannot reorder what a page puts after it.
 * @example closeBidi('abc\u202Edef') → 'abc\u202Edef\u202C'
 */
export function closeBidi(text: string): string {
  if (!BIDI_FORMATTING_CHARACTER.test(text)) return text;
  // What each open embedding or isolate needs to close it, innermost last.
  const closers: string[] = [];
  for (const ch of text) {
    if (ch === POP_DIRECTIONAL_FORMATTING) {
      // A PDF closes an embedding or override, never an isolate it is inside.
      if (closers.at(-1) === POP_DIRECTIONAL_FORMATTING) closers.pop();
    } else if (ch === POP_DIRECTIONAL_ISOLATE) {
      // A PDI closes the innermost open isolate and everything opened inside it.
      const isolate = closers.lastIndexOf(POP_DIRECTIONAL_ISOLATE);
      if (isolate !== -1) closers.length = isolate;
    } else if (ch >= '\u202A' && ch <= '\u202E') closers.push(POP_DIRECTIONAL_FORMATTING);
    else if (ch >= '\u2066' && ch <= '\u2068') closers.push(POP_DIRECTIONAL_ISOLATE);
  }
  return text + closers.reverse().join('');
}

/**
 * A UTF-16 code unit written as a `\uXXXX` escape, as JSON and YAML read it.
 * @example unicodeEscape('\u2028') → '\\u2028'
 */
export function unicodeEscape(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}
