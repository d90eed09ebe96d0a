import { describe, expect, it } from 'vitest';
import { readingOrder, SECTION_ORDER, type GarmentRecord, type TextBlock } from '../../../src/lib/record/index.ts';
import { copyOf, sampleRecords, valueAt } from '../../support/records.ts';

const samples = sampleRecords();
const commerce = () => copyOf(samples.find((s) => s.record.projection === 'svc')!.record);

/** A record whose every text block says where it is: its text is its own JSON pointer. */
function labelled(record: GarmentRecord): GarmentRecord {
  const sections = record.page.sections as unknown as Record<string, TextBlock[]>;
  const block = (pointer: string) => ({ text: pointer, claim_ids: [], kind: 'interpretation' as const });
  for (const key of ['title', 'headline', 'summary', 'description'] as const) record.page[key] = block(`/page/${key}`);
  for (const key of Object.keys(sections)) sections[key] = [];
  sections.overview = [block('/page/sections/overview/0'), block('/page/sections/overview/1')];
  sections.technical_handoff = [block('/page/sections/technical_handoff/0')];
  record.selection_summary.suitable_for = [block('/selection_summary/suitable_for/0')];
  record.selection_summary.tradeoffs = [block('/selection_summary/tradeoffs/0')];
  record.page.faq = [{ question: 'Q?', answer: block('/page/faq/0/answer') }];
  return record;
}

describe('readingOrder', () => {
  it.each(samples.map((s) => [s.file, s.record] as const))(
    'gives every text block of %s once, each at its own pointer',
    (_file, record) => {
      const read = readingOrder(record);
      for (const { pointer, block } of read) expect(valueAt(record, pointer), pointer).toBe(block);
      const sections = Object.values(record.page.sections as unknown as Record<string, TextBlock[]>).flat();
      const page = [record.page.title, record.page.headline, record.page.summary, record.page.description].filter(Boolean);
      const total =
        page.length +
        sections.length +
        record.selection_summary.suitable_for.length +
        record.selection_summary.tradeoffs.length +
        record.page.faq.length;
      expect(new Set(read.map((b) => b.block)).size).toBe(total);
    },
  );

  it('reads the page top to bottom: title, headline, summary, description, the sections in the specification’s order, the selection summary, the FAQ', () => {
    const record = labelled(commerce());
    // The file's key order is not the reading order: the specification's is.
    const sections = record.page.sections as unknown as Record<string, TextBlock[]>;
    record.page.sections = Object.fromEntries(Object.entries(sections).reverse()) as unknown as typeof record.page.sections;
    expect(readingOrder(record).map((b) => b.pointer)).toEqual([
      '/page/title',
      '/page/headline',
      '/page/summary',
      '/page/description',
      '/page/sections/overview/0',
      '/page/sections/overview/1',
      '/page/sections/technical_handoff/0',
      '/selection_summary/suitable_for/0',
      '/selection_summary/tradeoffs/0',
      '/page/faq/0/answer',
    ]);
    expect(readingOrder(record).map((b) => b.block.text)).toEqual(readingOrder(record).map((b) => b.pointer));
  });

  it('places each block: its part, its section, its position and how many its list holds', () => {
    const read = readingOrder(labelled(commerce()));
    expect(read.map(({ part, section, position, count }) => [part, section, position, count])).toEqual([
      ['title', null, 0, 1],
      ['headline', null, 0, 1],
      ['summary', null, 0, 1],
      ['description', null, 0, 1],
      ['section', 'overview', 0, 2],
      ['section', 'overview', 1, 2],
      ['section', 'technical_handoff', 0, 1],
      ['suitable_for', null, 0, 1],
      ['tradeoffs', null, 0, 1],
      ['faq', null, 0, 1],
    ]);
  });

  it('leaves out the page blocks a record sets to null', () => {
    const record = labelled(commerce());
    record.page.title = null;
    record.page.description = null;
    expect(
      readingOrder(record)
        .slice(0, 3)
        .map((b) => b.pointer),
    ).toEqual(['/page/headline', '/page/summary', '/page/sections/overview/0']);
  });

  it('orders a technical page’s sections as the specification lists them', () => {
    const record = copyOf(samples.find((s) => s.record.projection === 'tech')!.record);
    const sections = record.page.sections as unknown as Record<string, TextBlock[]>;
    for (const key of SECTION_ORDER.tech) sections[key] = [{ text: key, claim_ids: [], kind: 'fact' }];
    expect(
      readingOrder(record)
        .filter((b) => b.part === 'section')
        .map((b) => b.section),
    ).toEqual([...SECTION_ORDER.tech]);
  });
});
