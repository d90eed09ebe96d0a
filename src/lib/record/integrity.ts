import { describeValue, pointerToken, type Problem } from './problem.ts';
import type { GarmentRecord } from './types.ts';
import { readingOrder } from './reading-order.ts';
import { referencedCollection } from './references.ts';
import { SLUG_MAX_LENGTH } from './slug.ts';
import { isoDate } from './timestamp.ts';

/** A record that passed the schema, with the file it came from. */
export interface RecordFile {
  file: string;
  record: GarmentRecord;
}

/** The file of a record and the (slug, projection) it publishes. */
export interface RecordKey {
  file: string;
  slug: string;
  projection: GarmentRecord['projection'];
}

/**
 * The longest text block whose light Markdown is read; longer ones are shown as plain text. The
 * inline rules take time that grows with the square of a text's length, so one long hostile block
 * could otherwise hold a build for hours; real text blocks are a few sentences.
 */
export const MARKDOWN_MAX_LENGTH = 4000;

/**
 * The most emphasis, code and link marks (`*`, `_`, `~`, backticks, brackets) a text block may
 * hold for its Markdown to be read: the inline rules slow down with the square of the marks left
 * unmatched, so within 4,000 characters a hostile block could still take a third of a second.
 */
export const MARKDOWN_MAX_MARKS = 256;

/** How many emphasis, code and link marks a text holds. */
export function markdownMarks(text: string): number {
  return text.match(MARKDOWN_MARK)?.length ?? 0;
}

const MARKDOWN_MARK = /[*_~`[\]]/g;

/**
 * Checks the references inside one record that the schema cannot: claim ids and source ids
 * must exist (errors); ids must be unique (errors for claims and sources, warnings for conflicts,
 * decisions and gaps, which nothing names); the slug must fit in a file name; `data` cross-references
 * should resolve (warnings, since the spec also allows identifiers at a provider); `published_at` should
 * be a date the site can place in time (a warning: the spec allows any text).
 */
export function checkRecordIntegrity({ file, record }: RecordFile): Problem[] {
  const problems: Problem[] = [];
  const report = (severity: Problem['severity'], pointer: string, message: string) => problems.push({ severity, file, pointer, message });

  if (record.slug.length > SLUG_MAX_LENGTH) {
    report(
      'error',
      '/slug',
      `is ${record.slug.length} characters long; at most ${SLUG_MAX_LENGTH} fit in a file name (\`<slug>.tech.json\`)`,
    );
  }
  if (isoDate(record.published_at) === null) {
    report(
      'warning',
      '/published_at',
      `${describeValue(record.published_at)} is not an ISO 8601 date (such as 2026-11-20 or 2026-11-20T09:30:00Z), so the page shows it as written and the feeds leave this revision out`,
    );
  }
  const claimIds = uniqueIds(record.claims, '/claims', 'claim', report);
  const sourceIds = uniqueIds(record.sources, '/sources', 'source', report);
  // Nothing in a record names these, so a repeat only leaves a link to it reaching the first one.
  uniqueIds(record.conflicts, '/conflicts', 'conflict', report, 'warning');
  uniqueIds(record.decisions, '/decisions', 'decision', report, 'warning');
  uniqueIds(record.gaps, '/gaps', 'gap', report, 'warning');
  const needClaim = (pointer: string, id: string) => {
    if (!claimIds.has(id)) report('error', pointer, `names claim "${id}", which is not in claims${suggest(id, claimIds)}`);
  };

  for (const { pointer, block } of readingOrder(record)) {
    block.claim_ids.forEach((id, i) => needClaim(`${pointer}/claim_ids/${i}`, id));
    if (block.text.length > MARKDOWN_MAX_LENGTH) {
      report(
        'warning',
        `${pointer}/text`,
        `is ${block.text.length} characters long, so it is shown as plain text: Markdown is read in text blocks of at most ${MARKDOWN_MAX_LENGTH}`,
      );
    } else if (markdownMarks(block.text) > MARKDOWN_MAX_MARKS) {
      report(
        'warning',
        `${pointer}/text`,
        `holds ${markdownMarks(block.text)} emphasis, code and link marks (*_~\`[]), so it is shown as plain text: Markdown is read in text blocks of at most ${MARKDOWN_MAX_MARKS}`,
      );
    }
  }
  record.conflicts.forEach((conflict, i) => {
    conflict.claim_ids.forEach((id, j) => needClaim(`/conflicts/${i}/claim_ids/${j}`, id));
    if (conflict.selected_claim_id !== null) needClaim(`/conflicts/${i}/selected_claim_id`, conflict.selected_claim_id);
  });
  record.decisions.forEach((decision, i) => decision.claim_ids.forEach((id, j) => needClaim(`/decisions/${i}/claim_ids/${j}`, id)));
  record.claims.forEach((claim, i) => {
    claim.derived_from.forEach((id, j) => needClaim(`/claims/${i}/derived_from/${j}`, id));
    claim.references.forEach((reference, j) => {
      if (!sourceIds.has(reference.source_id)) {
        report(
          'error',
          `/claims/${i}/references/${j}/source_id`,
          `names source "${reference.source_id}", which is not in sources${suggest(reference.source_id, sourceIds)}`,
        );
      }
    });
  });

  checkDataReferences(record, sourceIds, report);
  return problems;
}

/**
 * Checks the whole set: two files may not publish the same (slug, projection).
 * Every file involved is named.
 */
export function checkSiteIntegrity(files: RecordKey[]): Problem[] {
  const byUrl = new Map<string, string[]>();
  for (const { file, slug, projection } of files) {
    const key = `${slug}/${projection}`;
    byUrl.set(key, [...(byUrl.get(key) ?? []), file]);
  }
  const problems: Problem[] = [];
  for (const [key, owners] of byUrl) {
    if (owners.length < 2) continue;
    for (const file of owners) {
      const others = owners.filter((other) => other !== file);
      problems.push({
        severity: 'error',
        file,
        pointer: '/slug',
        message: `slug and projection "${key}" are also published by ${others.join(', ')}; each (slug, projection) needs one file: rename a slug or remove a duplicate`,
      });
    }
  }
  return problems;
}

type Report = (severity: Problem['severity'], pointer: string, message: string) => void;

function uniqueIds(
  items: { id: string }[],
  base: string,
  noun: string,
  report: Report,
  severity: Problem['severity'] = 'error',
): Set<string> {
  const why = severity === 'error' ? '; ids must be unique' : `, so a link to it opens the first; give each ${noun} its own id`;
  const ids = new Set<string>();
  items.forEach(({ id }, i) => {
    if (ids.has(id)) report(severity, `${base}/${i}/id`, `${noun} id "${id}" is used more than once${why}`);
    ids.add(id);
  });
  return ids;
}

function checkDataReferences(record: GarmentRecord, sourceIds: Set<string>, report: Report): void {
  const data = record.data as unknown as Record<string, unknown>;
  const idsOf = new Map<string, Set<string>>();
  for (const [name, items] of Object.entries(data)) {
    if (!Array.isArray(items)) continue;
    const ids = new Set<string>();
    items.forEach((item: { id: string }, i) => {
      if (ids.has(item.id)) report('warning', `/data/${name}/${i}/id`, `${name} id "${item.id}" is used more than once`);
      ids.add(item.id);
    });
    idsOf.set(name, ids);
  }
  idsOf.set('sources', sourceIds);
  for (const [name, items] of Object.entries(data)) {
    if (!Array.isArray(items)) continue;
    items.forEach((item: Record<string, unknown>, i) => {
      for (const [field, value] of Object.entries(item)) {
        const target = field === 'source_id' ? 'sources' : referencedCollection(name, field);
        if (!target || value === null) continue;
        const known = idsOf.get(target);
        if (!known) continue;
        const values = Array.isArray(value) ? value : [value];
        values.forEach((id, j) => {
          if (typeof id === 'string' && !known.has(id)) {
            const pointer = `/data/${name}/${i}/${pointerToken(field)}${Array.isArray(value) ? `/${j}` : ''}`;
            report(
              'warning',
              pointer,
              `names "${id}", which is not an id in ${target === 'sources' ? 'sources' : `data/${target}`}${suggest(id, known)}`,
            );
          }
        });
      }
    });
  }
}

/** A "did you mean" hint when a near-identical id exists: the same but for case, or for `_` written as `-`. */
function suggest(id: string, known: Set<string>): string {
  const forms = nearFormsOf(known);
  const candidate = forms.lower.get(id.toLowerCase()) ?? forms.hyphens.get(id.replaceAll('_', '-'));
  return candidate === undefined ? '' : `; did you mean "${candidate}"?`;
}

/** Each set's ids by their near-identical forms, made once: comparing every id with each dangling one took minutes. */
const nearForms = new WeakMap<Set<string>, { lower: Map<string, string>; hyphens: Map<string, string> }>();

function nearFormsOf(known: Set<string>): { lower: Map<string, string>; hyphens: Map<string, string> } {
  let forms = nearForms.get(known);
  if (!forms) {
    forms = { lower: new Map(), hyphens: new Map() };
    for (const candidate of known) {
      if (!forms.lower.has(candidate.toLowerCase())) forms.lower.set(candidate.toLowerCase(), candidate);
      if (!forms.hyphens.has(candidate.replaceAll('_', '-'))) forms.hyphens.set(candidate.replaceAll('_', '-'), candidate);
    }
    nearForms.set(known, forms);
  }
  return forms;
}
