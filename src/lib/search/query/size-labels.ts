// Size labels in one spelling, for the index's words, the size filter's values and a query's words
// alike: records write the same size as `XXL`, `2XL` or `2xl`, and a searcher types any of them.
// Imports nothing, so the search script can use it.

/** A letter size: an optional count, X's, then S, M or L, with any spacing or hyphen between. */
const LETTER_SIZE = /^(\d*)[\s-]*(x*)[\s-]*([sml])$/i;

/**
 * A size label as the site spells it: a letter size in capitals with its X's counted past one,
 * any other label with its whitespace collapsed.
 * @example sizeLabel('xxl') → '2XL'; sizeLabel('3 XL') → '3XL'; sizeLabel('1XL') → 'XL'; sizeLabel(' One  size ') → 'One size'
 */
export function sizeLabel(label: string): string {
  const text = label.replace(/\s+/g, ' ').trim();
  const letter = LETTER_SIZE.exec(text);
  if (!letter) return text;
  const [, digits = '', xs = '', end = ''] = letter;
  const size = end.toUpperCase();
  // M takes no X; a count needs an X to count (`2L` is not a letter size).
  if ((size === 'M' && (digits !== '' || xs !== '')) || (digits !== '' && xs.length !== 1)) return text;
  const count = digits === '' ? xs.length : Number(digits);
  return count > 1 ? `${count}X${size}` : `${'X'.repeat(count)}${size}`;
}

/**
 * A word of a query as the index holds the size it names (lower case, as Pagefind reads words);
 * any other word as it is.
 * @example sizeWord('xxxl') → '3xl'; sizeWord('fleece') → 'fleece'
 */
export function sizeWord(word: string): string {
  return LETTER_SIZE.test(word) ? sizeLabel(word).toLocaleLowerCase('en') : word;
}
