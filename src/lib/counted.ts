/**
 * A count and its noun, in English, for messages to people.
 * @example counted(1, 'thread') → '1 thread'; counted(3, 'valid record') → '3 valid records'
 */
export function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
