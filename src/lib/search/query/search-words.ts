// The site's words: what a garment's page says, as a searcher types it, gathered at build time so
// the browser can tell a misspelling from a word the site holds and suggest words that find garments.
// Imports nothing, so the search script can use it.

/** Garments per word, over some garments (a shard's, or the site's). */
export type WordCounts = Record<string, number>;

/** The words of one first character, over the whole site: per word, the garments saying it and the shards holding them. */
export type WordList = Record<string, [garments: number, shards: number[]]>;

/** Longest word kept: longer runs are identifiers nobody types. */
const MAX_WORD = 40;

/**
 * The distinct words of a text as Pagefind reads them for a search: lower case, accents dropped,
 * split at anything that is not a letter or a digit.
 * @example textWords('Brushed Fleece, 80% Café-cotton') → ['brushed', 'fleece', '80', 'cafe', 'cotton']
 */
export function textWords(text: string): string[] {
  const folded = text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase('en');
  const words = new Set<string>();
  // Split by hand: a Unicode expression splitting the text cost twice the rest (the build counts every garment's words).
  let start = -1;
  for (let at = 0; at <= folded.length; at++) {
    const width = at < folded.length ? wordCharacterWidth(folded, at) : 0;
    if (width > 0) {
      if (start === -1) start = at;
      at += width - 1;
    } else if (start !== -1) {
      if (at - start > 1 && at - start <= MAX_WORD) words.add(folded.slice(start, at));
      start = -1;
    }
  }
  return [...words];
}

/** The UTF-16 length of the letter or digit at `at` (2 for one outside the BMP), or 0 when it is neither. */
function wordCharacterWidth(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code < 0x80) return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) ? 1 : 0;
  const width = code >= 0xd800 && code <= 0xdbff ? 2 : 1;
  return LETTER_OR_DIGIT.test(text.slice(at, at + width)) ? width : 0;
}

/** One letter or digit (a lone surrogate is neither). */
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/**
 * The file a word's list is in: its first character, when that is a plain letter or digit.
 * @example wordKey('fleece') → 'f'; wordKey('été') → '_'
 */
export function wordKey(word: string): string {
  const first = word.charAt(0);
  return /^[a-z0-9]$/.test(first) ? first : '_';
}

/**
 * The edit distance of two words (letters dropped, added, changed, neighbours swapped), or
 * `limit + 1` once it is past `limit`.
 * @example editDistance('jackt', 'jacket', 2) → 1
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return Math.min(previous[b.length]!, limit + 1);
}

/**
 * The site's words nearest a word no garment says, nearest first and, as near, said by more
 * garments first: at most `count`, at most `limit` edits away.
 * @example nearestWords('jakcet', { jacket: [3, [0]], jackets: [1, [0]] }, 2, 3) → ['jacket', 'jackets']
 */
export function nearestWords(word: string, list: WordList, limit: number, count: number): string[] {
  const near: [string, number, number][] = [];
  for (const [candidate, [garments]] of Object.entries(list)) {
    const distance = editDistance(word, candidate, limit);
    if (distance <= limit && candidate !== word) near.push([candidate, distance, garments]);
  }
  return near
    .sort((a, b) => a[1] - b[1] || b[2] - a[2] || (a[0] < b[0] ? -1 : 1))
    .slice(0, count)
    .map(([candidate]) => candidate);
}

/**
 * Words of the site related to a word no garment says, to offer instead: they begin as it does (the
 * first letter, and the second too for a word of four letters or more) and are a few edits from it
 * (one for a word of up to five letters, two up to eight, three past that), nearest first and, as
 * near, said by more garments first. A short word a few letters from a long one is no relative of it.
 * @example relatedWords('sweater', { water: [9, [0]], sweatshirts: [2, [0]], sweat: [1, [0]] }, 3) → ['sweat']
 */
export function relatedWords(word: string, list: WordList, count: number): string[] {
  const limit = word.length <= 5 ? 1 : word.length <= 8 ? 2 : 3;
  const start = word.slice(0, word.length >= 4 ? 2 : 1);
  const related: [string, number, number][] = [];
  for (const [candidate, [garments]] of Object.entries(list)) {
    if (candidate === word || !candidate.startsWith(start)) continue;
    const distance = editDistance(word, candidate, limit);
    if (distance <= limit) related.push([candidate, distance, garments]);
  }
  return related
    .sort((a, b) => a[1] - b[1] || b[2] - a[2] || (a[0] < b[0] ? -1 : 1))
    .slice(0, count)
    .map(([candidate]) => candidate);
}
