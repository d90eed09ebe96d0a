import { readingOrder, type GarmentRecord, type ReadingBlock } from '../record/index.ts';
import { claimValueText } from '../site/claim-value.ts';
import { itemIdsOf, type ItemIds } from '../site/item-ids.ts';
import { enumLabel, researchStatusLabel } from '../site/format.ts';
import { itemNamer, subjectNamer, type SubjectNamer } from '../site/item-names.ts';
import { KEY_FACTS_PAGE_FIELDS, KEY_FACTS_PARTS, keyFacts, type KeyFacts } from '../site/key-facts.ts';
import { keyFactsView } from '../site/key-facts-view.ts';
import { t, tCount, type CountKey, type StringKey } from '../site/strings.ts';
import { plainText } from '../site/text.ts';
import { alignSequences } from './sequence-diff.ts';
import { sameJson } from './same-json.ts';
import { wordDiff, type WordRun } from './word-diff.ts';

/** A text block of the page that came, went, or was reworded: where it is read, and its words. */
export interface TextChange {
  change: 'added' | 'removed' | 'changed';
  /** Where it is read, in words: `Overview`, `Questions and answers`. */
  place: string;
  /** The block's words: all added, all removed, or how they changed. */
  words: WordRun[];
}

/** A key fact whose lines differ: its label, and the lines only before and only after. */
export interface FactChange {
  label: string;
  before: string[];
  after: string[];
}

/** A claim or source that came, went or changed, said in words: what it is, and how it read before and after. */
export interface EntryChange {
  change: 'added' | 'removed' | 'changed';
  id: string;
  /** What it is about (a claim) or its title (a source). */
  name: string;
  before: string | null;
  after: string | null;
}

/** What changed from one revision of a record to the next, in a reader's words. */
export interface RevisionChanges {
  text: TextChange[];
  keyFacts: FactChange[];
  claims: EntryChange[];
  sources: EntryChange[];
  /** The research status before and after, when it changed. */
  status: { before: string; after: string } | null;
}

/**
 * What a revision says that a reader compares, each part read from it when first compared, once:
 * its text lists (each list of the page's text, by part and section: its first block, for its
 * place, and each block's text), key facts, claims and sources.
 */
export interface ComparableRecord {
  record: GarmentRecord;
  lists: () => Map<string, TextList>;
  facts: () => Map<string, { label: string; lines: string[] }>;
  claims: () => Map<string, SaidEntry>;
  sources: () => Map<string, SaidEntry>;
}

/** A revision as revisionChanges compares it; `facts` are its key facts, when read already. */
export function comparableRecord(record: GarmentRecord, facts?: KeyFacts): ComparableRecord {
  const read = <T>(make: () => T) => {
    let value: T | undefined;
    return () => (value ??= make());
  };
  return {
    record,
    lists: read(() => textLists(record)),
    facts: read(() => factRows(facts ?? keyFacts(record))),
    claims: read(() => claimsSaid(record)),
    sources: read(() => sourcesSaid(record)),
  };
}

/** One list of the page's text: its first block (for its place), each block's text as written, and as read (worked out once, when asked). */
interface TextList {
  first: ReadingBlock;
  written: string[];
  read: () => string[];
}

function textLists(record: GarmentRecord): Map<string, TextList> {
  const lists = new Map<string, TextList>();
  for (const block of readingOrder(record)) {
    const key = `${block.part}/${block.section ?? ''}`;
    const list = lists.get(key);
    if (list) list.written.push(block.block.text);
    else {
      const written = [block.block.text];
      let read: string[] | undefined;
      lists.set(key, { first: block, written, read: () => (read ??= written.map(plainText)) });
    }
  }
  return lists;
}

/**
 * What changed between two revisions of a record: text blocks added, removed and reworded (each
 * list of the page aligned by its unchanged blocks), key facts as read before and after, claims
 * and sources by id, and the research status. A part whose JSON is the same in both is not read
 * for a reader (most of a revision is as it was). Pure: records in, words out.
 */
export function revisionChanges(before: ComparableRecord, after: ComparableRecord): RevisionChanges {
  const [was, now] = [before.record, after.record];
  // Each part of the record compared once.
  const differing = new Set(
    [...new Set([...Object.keys(was), ...Object.keys(now)])].filter(
      (part) => !sameJson(was[part as keyof GarmentRecord], now[part as keyof GarmentRecord]),
    ),
  );
  const factsDiffer =
    KEY_FACTS_PARTS.some((part) => differing.has(part)) ||
    (differing.has('page') && KEY_FACTS_PAGE_FIELDS.some((field) => !sameJson(was.page[field], now.page[field])));
  return {
    text: differing.has('page') || differing.has('selection_summary') ? textChanges(before, after) : [],
    keyFacts: factsDiffer ? factChanges(before.facts(), after.facts()) : [],
    claims: differing.has('claims') ? entryChanges(before.claims(), after.claims()) : [],
    sources: differing.has('sources') ? entryChanges(before.sources(), after.sources()) : [],
    status:
      was.research.status === now.research.status
        ? null
        : { before: researchStatusLabel(was.research.status), after: researchStatusLabel(now.research.status) },
  };
}

/**
 * The one line that sums up a revision's changes for lists and feeds.
 * @example changeSummary(changes) → '2 text blocks changed, 1 key fact changed, 1 claim added'
 */
export function changeSummary(changes: RevisionChanges): string {
  const counted = (count: number, key: CountKey) => (count === 0 ? [] : [tCount(key, count)]);
  const kinds = ['changed', 'added', 'removed'] as const;
  const ofKind = (list: { change: string }[], kind: string) => list.filter((item) => item.change === kind).length;
  const parts = [
    ...kinds.flatMap((kind) => counted(ofKind(changes.text, kind), `revisions.summary.text.${kind}`)),
    ...counted(changes.keyFacts.length, 'revisions.summary.facts'),
    ...kinds.flatMap((kind) => counted(ofKind(changes.claims, kind), `revisions.summary.claims.${kind}`)),
    ...kinds.flatMap((kind) => counted(ofKind(changes.sources, kind), `revisions.summary.sources.${kind}`)),
    ...(changes.status ? [t('revisions.summary.status', { status: changes.status.after })] : []),
  ];
  return parts.length === 0 ? t('revisions.summary.none') : parts.join(', ');
}

/**
 * The page's text blocks, list by list (a section, the selection summary's lists, the FAQ, each lone block), aligned;
 * a list written alike in both reads alike, and is neither read nor aligned.
 */
function textChanges(before: ComparableRecord, after: ComparableRecord): TextChange[] {
  const changes: TextChange[] = [];
  const [was, is] = [before.lists(), after.lists()];
  for (const key of new Set([...is.keys(), ...was.keys()])) {
    const old = was.get(key);
    const now = is.get(key);
    if (old && now && old.written.length === now.written.length && old.written.every((text, i) => text === now.written[i])) continue;
    const place = placeOf((now ?? old)!.first, after.record.projection);
    changes.push(...alignedChanges(old?.read() ?? [], now?.read() ?? [], place));
  }
  return changes;
}

/** Where a block is read, in words. */
function placeOf(block: ReadingBlock, projection: GarmentRecord['projection']): string {
  if (block.part === 'section') return t(`section.${projection}.${block.section}` as StringKey);
  return t(`revisions.place.${block.part}`);
}

/**
 * Two lists of texts aligned by their longest common sequence of unchanged texts; between two
 * unchanged ones, the texts that went and came are paired as reworded, the rest added or removed.
 */
function alignedChanges(before: string[], after: string[], place: string): TextChange[] {
  const changes: TextChange[] = [];
  let went: string[] = [];
  let came: string[] = [];
  const settle = () => {
    const paired = Math.min(went.length, came.length);
    for (let k = 0; k < paired; k++) changes.push({ change: 'changed', place, words: wordDiff(went[k]!, came[k]!) });
    for (const text of went.slice(paired)) changes.push({ change: 'removed', place, words: [{ change: 'removed', text }] });
    for (const text of came.slice(paired)) changes.push({ change: 'added', place, words: [{ change: 'added', text }] });
    went = [];
    came = [];
  };
  for (const { change, item } of alignSequences(before, after)) {
    if (change === 'same') settle();
    else (change === 'removed' ? went : came).push(item);
  }
  settle();
  return changes;
}

/** Each key fact's label and lines as read, each line with its detail (a price's basis and date). */
function factRows(facts: KeyFacts): Map<string, { label: string; lines: string[] }> {
  return new Map(
    keyFactsView(facts, () => []).rows.map((row) => [
      row.key,
      { label: row.label, lines: row.lines.map((line) => (line.detail ? `${line.text} (${line.detail})` : line.text)) },
    ]),
  );
}

/** The key facts whose lines read differently. */
function factChanges(old: ReturnType<ComparableRecord['facts']>, now: ReturnType<ComparableRecord['facts']>): FactChange[] {
  const changes: FactChange[] = [];
  for (const [key, row] of now) {
    const was = old.get(key)?.lines ?? [];
    // Only the lines that differ: a price list of ten providers where one moved shows that one.
    const before = was.filter((line) => !row.lines.includes(line));
    const after = row.lines.filter((line) => !was.includes(line));
    if (before.length + after.length > 0) changes.push({ label: row.label, before, after });
  }
  return changes;
}

/**
 * A claim or source as a reader is told it: what it is about (`about`, compared), its name (worked
 * out only for an entry reported: naming a claim's subject is most of the cost of comparing), and
 * one line saying it.
 */
type SaidEntry = { about: string; name: () => string; said: string };

function claimsSaid(record: GarmentRecord): Map<string, SaidEntry> {
  let subjectOf: SubjectNamer | undefined;
  let ids: ItemIds | undefined;
  return new Map(
    record.claims.map((claim) => [
      claim.id,
      {
        about: claim.targets.join('\n'),
        name: () => (subjectOf ??= subjectNamer(record, itemNamer(record)))(claim.targets),
        said: t('revisions.claim', {
          value: claimValueText(record, claim, (ids ??= itemIdsOf(record))),
          verification: enumLabel('verification', claim.verification),
        }),
      },
    ]),
  );
}

function sourcesSaid(record: GarmentRecord): Map<string, SaidEntry> {
  return new Map(
    record.sources.map((source) => {
      const name = source.title ?? source.url ?? source.id;
      return [
        source.id,
        {
          about: name,
          name: () => name,
          said: [
            source.publisher,
            source.url,
            enumLabel('access_status', source.access_status),
            source.accessed_at && t('revisions.accessed', { date: source.accessed_at }),
          ]
            .filter(Boolean)
            .join(' · '),
        },
      ];
    }),
  );
}

/** Entries by id: those only after are added, only before removed, said otherwise (or about something else) changed. */
function entryChanges(before: Map<string, SaidEntry>, after: Map<string, SaidEntry>): EntryChange[] {
  const changes: EntryChange[] = [];
  for (const [id, now] of after) {
    const was = before.get(id);
    if (!was) changes.push({ change: 'added', id, name: now.name(), before: null, after: now.said });
    else if (was.said !== now.said || was.about !== now.about)
      changes.push({ change: 'changed', id, name: now.name(), before: was.said, after: now.said });
  }
  for (const [id, was] of before)
    if (!after.has(id)) changes.push({ change: 'removed', id, name: was.name(), before: was.said, after: null });
  return changes;
}
