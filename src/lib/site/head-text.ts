import { closeBidi } from '../unicode.ts';

/** How many characters a page's `<title>` and its description keep: past what search results and link previews show, so that only a runaway text is cut. */
export const HEAD_TITLE_LENGTH = 120;
export const HEAD_DESCRIPTION_LENGTH = 300;

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * Text for a page's head, at most `limit` characters: longer record text is cut at a word (or,
 * with none near, at a whole character) and ends in "…", its bidirectional formatting closed.
 * @example headText('Heavyweight tee in garment-dyed cotton', 20) → 'Heavyweight tee in…'
 */
export function headText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let kept = '';
  for (const { segment } of graphemes.segment(text)) {
    if (kept.length + segment.length > limit - 1) break;
    kept += segment;
  }
  const wordEnd = kept.search(/\s+\S*$/);
  const cutInWord = /^\S/.test(text.slice(kept.length));
  if (cutInWord && wordEnd > limit / 2) kept = kept.slice(0, wordEnd);
  return closeBidi(`${kept.replace(/[\s,;:.–—-]+$/u, '')}…`);
}
