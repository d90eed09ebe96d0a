/** One item of two aligned sequences: in both, only in the first, or only in the second. */
export interface AlignedItem<T> {
  change: 'same' | 'removed' | 'added';
  item: T;
}

/**
 * Two sequences aligned by their longest common subsequence (items compared with ===), in order;
 * where items went and came at one place, those that went come first.
 * @example alignSequences(['a', 'b', 'c'], ['a', 'x', 'c']) → same a, removed b, added x, same c
 */
export function alignSequences<T>(before: readonly T[], after: readonly T[]): AlignedItem<T>[] {
  // longest[i][j]: the longest common subsequence of before[i..] and after[j..].
  const longest = Array.from({ length: before.length + 1 }, () => new Uint32Array(after.length + 1));
  for (let i = before.length - 1; i >= 0; i--) {
    for (let j = after.length - 1; j >= 0; j--) {
      longest[i]![j] = before[i] === after[j] ? longest[i + 1]![j + 1]! + 1 : Math.max(longest[i + 1]![j]!, longest[i]![j + 1]!);
    }
  }
  const aligned: AlignedItem<T>[] = [];
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    if (i < before.length && j < after.length && before[i] === after[j]) {
      aligned.push({ change: 'same', item: before[i]! });
      i++;
      j++;
    } else if (i < before.length && (j === after.length || longest[i + 1]![j]! >= longest[i]![j + 1]!)) {
      aligned.push({ change: 'removed', item: before[i++]! });
    } else {
      aligned.push({ change: 'added', item: after[j++]! });
    }
  }
  return aligned;
}
