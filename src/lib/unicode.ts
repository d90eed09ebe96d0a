/** The explicit bidirectional formatting characters, as a range for a character class: LRE to RLO (PDF among them) and LRI to PDI. */
export const BIDI_FORMATTING = String.raw`\u202A-\u202E\u2066-\u2069`;

/**
 * A UTF-16 code unit written as a `\uXXXX` escape, as JSON and YAML read it.
 * @example unicodeEscape('\u2028') → '\\u2028'
 */
export function unicodeEscape(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}
