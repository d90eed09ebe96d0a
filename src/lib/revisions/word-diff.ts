import { alignSequences } from './sequence-diff.ts';

/** A run of a text's words: kept in both, only in the earlier text, or only in the later. */
export interface WordRun {
  change: 'same' | 'removed' | 'added';
  text: string;
}

/** Past this many word pairs to compare, two texts are said as replaced whole: a diff's cost grows with their product. */
const MAX_COMPARED = 1_000_000;

/**
 * How one text became another, word by word (spaces kept with the word before them), as runs in
 * reading order: the longest common sequence of words kept, the rest removed or added.
 * @example wordDiff('ships in 3 days', 'ships in 5 days') → [same 'ships in ', removed '3 ', added '5 ', same 'days']
 */
export function wordDiff(before: string, after: string): WordRun[] {
  const a = words(before);
  const b = words(after);
  if (a.length * b.length > MAX_COMPARED)
    return runs([...a.map((text) => ({ change: 'removed' as const, text })), ...b.map((text) => ({ change: 'added' as const, text }))]);
  return runs(alignSequences(a, b).map(({ change, item }) => ({ change, text: item })));
}

/** A text's words, each with the spaces after it. */
function words(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** Neighbouring parts of one kind joined. */
function runs(parts: WordRun[]): WordRun[] {
  const joined: WordRun[] = [];
  for (const part of parts) {
    const last = joined.at(-1);
    if (last?.change === part.change) last.text += part.text;
    else joined.push({ ...part });
  }
  return joined;
}
