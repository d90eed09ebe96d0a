import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvText } from '../../../src/lib/site/csv.ts';
import { indexEntries, type SiteIndex, siteEntryOf } from '../../../src/lib/site/site-index.ts';
import {
  jsonFile,
  llmsTxtPieces,
  RECORDS_PER_PIECE,
  recordsCsvPieces,
  recordsIndex,
  recordsJsonPieces,
} from '../../../src/lib/site/site-files.ts';
import { textStream } from '../../../src/lib/site/text-stream.ts';
import { copyOf, hostileRecords, projectRoot, sampleRecords } from '../../support/records.ts';

const SITE = 'https://garments.example.org';
const samples = sampleRecords();
// A garment published in one projection only, with a title that needs escaping, and the hostile records.
const lone = copyOf(samples.find((s) => s.record.projection === 'tech')!.record);
lone.slug = 'lone-garment';
lone.page.title = { text: 'Lone [tech] & <only>', claim_ids: ['x'], kind: 'fact' } as never;
const records = indexEntries(
  [...samples, { file: 'lone.json', record: lone }, ...hostileRecords()].map(({ file, record }) => siteEntryOf(record, file)),
);
const empty = indexEntries([]);
/** More records than two pieces hold: the samples again and again under new slugs. */
const many = indexEntries(
  Array.from({ length: Math.ceil((2 * RECORDS_PER_PIECE + 1) / samples.length) }, (_, copy) =>
    samples.map(({ file, record }) => siteEntryOf({ ...copyOf(record), slug: `${record.slug}-${copy}` }, file)),
  ).flat(),
);

/** The text the site published before the files came in pieces (made by the one-string code, tests/fixtures/site-files/). */
const published = (name: string) => readFileSync(path.join(projectRoot, 'tests/fixtures/site-files', name), 'utf8');

const producers = [
  { file: 'records.json', pieces: recordsJsonPieces },
  { file: 'records.csv', pieces: recordsCsvPieces },
  { file: 'llms.txt', pieces: llmsTxtPieces },
];

describe.each(producers)('$file in pieces', ({ file, pieces }) => {
  it('joins into the text the site published, with records and for an empty site', () => {
    expect([...pieces(records, SITE)].join('')).toBe(published(`records.${file}`));
    expect([...pieces(empty, SITE)].join('')).toBe(published(`empty.${file}`));
  });

  it('holds at most a batch of records in a piece, each record whole', () => {
    const made = [...pieces(many, SITE)];
    // Every record has one link to its Markdown twin in each file: in JSON `"markdown": "….md",`, in CSV the last field, in llms.txt the item's.
    const recordsIn = (piece: string) => (piece.match(/\/garments\/[^\s",)]+\.md(?:",|\r\n|\): )/g) ?? []).length;
    expect(made.map(recordsIn).reduce((a, b) => a + b)).toBe(many.entries.length);
    expect(Math.max(...made.map(recordsIn))).toBe(RECORDS_PER_PIECE);
    expect(made.length).toBeGreaterThan(2);
  });
});

describe('recordsJsonPieces', () => {
  it('joins into jsonFile(recordsIndex) over many pieces', () => {
    expect([...recordsJsonPieces(many, SITE)].join('')).toBe(jsonFile(recordsIndex(many, SITE)));
  });
});

describe('recordsCsvPieces', () => {
  it("joins into records.json's records as a table over many pieces", () => {
    const header = [
      'slug',
      'projection',
      'title',
      'category',
      'brand',
      'record_revision',
      'published_at',
      'research_status',
      'page',
      'json',
      'markdown',
    ];
    const rows = recordsIndex(many, SITE).records.map((r) =>
      [
        r.slug,
        r.projection,
        r.title,
        r.category,
        r.brand,
        r.record_revision,
        r.published_at,
        r.research_status,
        r.links.page,
        r.links.json,
        r.links.markdown,
      ].map((v) => v ?? ''),
    );
    expect([...recordsCsvPieces(many, SITE)].join('')).toBe(csvText(header, rows));
  });
});

describe('llmsTxtPieces', () => {
  it('lists the records of many pieces a line each, in order, between the same head and docs', () => {
    const lines = (index: SiteIndex) => [...llmsTxtPieces(index, SITE)].join('').split('\n');
    const few = lines(records);
    const all = lines(many);
    const firstRecord = few.findIndex((line) => line.startsWith('- [') && line.includes('/garments/'));
    expect(all.slice(0, firstRecord)).toEqual(few.slice(0, firstRecord));
    expect(all.slice(firstRecord, firstRecord + many.entries.length).map((line) => line.match(/\]\((\S+)\): /)![1])).toEqual(
      many.entries.map((entry) => `${SITE}/garments/${entry.slug}/${entry.projection}.md`),
    );
    expect(all.slice(firstRecord + many.entries.length)).toEqual(few.slice(firstRecord + records.entries.length));
  });
});

describe('textStream', () => {
  it('streams the pieces as UTF-8, a piece at a time', async () => {
    const pieces = ['{"a": "é', '𝄞"}', '', '\n'];
    const response = new Response(textStream(pieces));
    expect(Buffer.from(await response.arrayBuffer())).toEqual(Buffer.from(pieces.join('')));
  });
});
