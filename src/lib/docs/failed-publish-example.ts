// The failure example of /docs/webhooks/: a sample record with two mistakes, judged at build time by
// the check every publish goes through, so the page shows exactly what the service answers.
import { checkSubmittedRecord, endedProjection, refusedRecordEnding } from '../publish/index.ts';
import type { GenerationProjection } from '../publish/index.ts';

/** One mistake made in the example record: the value written at a JSON pointer. */
export interface RecordMistake {
  pointer: string;
  value: string;
}

/** A source id and a claim id mistyped, as a hand-edited record often has them. */
export const EXAMPLE_MISTAKES: readonly RecordMistake[] = [
  { pointer: '/claims/7/references/0/source_id', value: 'src-catalog-2' },
  { pointer: '/conflicts/0/claim_ids/1', value: 'clm-shrink-lb' },
];

/**
 * The generation a publish of `recordText` with `mistakes` made ends with, as get_generation and the
 * webhook's `data` carry it. Throws when a pointer names nothing in the record or the record still validates.
 */
export function failedPublishExample(recordText: string, handle: string, mistakes = EXAMPLE_MISTAKES): GenerationProjection {
  const checked = checkSubmittedRecord(withMistakes(recordText, mistakes));
  if (!('problems' in checked)) throw new Error(`the example record validates with ${mistakes.map((m) => m.pointer).join(', ')} changed`);
  return endedProjection(handle, 'failed', refusedRecordEnding(checked.problems));
}

/** The record's JSON text with `mistakes` made in it. Throws when a pointer names nothing in the record. */
export function withMistakes(recordText: string, mistakes: readonly RecordMistake[]): string {
  const record: unknown = JSON.parse(recordText);
  for (const { pointer, value } of mistakes) replaceAt(record, pointer, value);
  return JSON.stringify(record, null, 2);
}

/** Replaces the value an existing JSON pointer (RFC 6901) names. */
function replaceAt(document: unknown, pointer: string, value: unknown): void {
  const tokens = pointer
    .split('/')
    .slice(1)
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
  const last = tokens.pop();
  let parent = document;
  for (const token of tokens) parent = isContainer(parent) && token in parent ? (parent as Record<string, unknown>)[token] : undefined;
  if (last === undefined || !isContainer(parent) || !(last in parent)) throw new Error(`the example record has nothing at ${pointer}`);
  (parent as Record<string, unknown>)[last] = value;
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}
