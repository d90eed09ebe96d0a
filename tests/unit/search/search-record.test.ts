import { describe, expect, it } from 'vitest';
import type { CommerceRecord, GarmentRecord, TextBlock } from '../../../src/lib/record/index.ts';
import { searchFields } from '../../../src/lib/search/search-fields.ts';
import { reindexedRecord, searchRecord } from '../../../src/lib/search/search-record.ts';
import { siteEntryOf } from '../../../src/lib/site/site-index.ts';
import { plainText } from '../../../src/lib/site/text.ts';
import { copyOf, sampleRecords } from '../../support/records.ts';

function recordOf(record: GarmentRecord) {
  return searchRecord(siteEntryOf(record, 'record.json'), record);
}

const block = (text: string): TextBlock => ({ text, claim_ids: [], kind: 'fact' });
const samples = sampleRecords();
const commerce = samples.map(({ record }) => record).find((record): record is CommerceRecord => record.projection === 'svc')!;
const technical = samples.find(({ record }) => record.projection === 'tech')!.record;

describe('searchRecord', () => {
  it('points at the record page, in English', () => {
    expect(recordOf(commerce)).toMatchObject({ url: `/garments/${commerce.slug}/svc/`, language: 'en' });
    expect(recordOf(technical).url).toBe(`/garments/${technical.slug}/tech/`);
  });

  it('holds the reading text of the page: title, headline, summary, every section, selection summary and FAQ', () => {
    for (const { record } of samples) {
      const { content } = recordOf(record);
      const { page, selection_summary: selection } = record;
      const texts = [
        siteEntryOf(record, 'record.json').title,
        ...[page.headline, page.summary, ...Object.values(page.sections).flat(), ...selection.suitable_for, ...selection.tradeoffs]
          .filter((b): b is TextBlock => Boolean(b))
          .map((b) => plainText(b.text)),
        selection.limitations,
        ...page.faq.flatMap((entry) => [entry.question, plainText(entry.answer.text)]),
      ];
      for (const text of texts) expect(content, `${record.slug}/${record.projection}`).toContain(text.replace(/\s+/g, ' ').trim());
    }
  });

  it('gives text blocks as the reader sees them, without Markdown syntax', () => {
    const record = copyOf(commerce);
    record.page.sections.overview = [block('**Heavy** [tee](https://x.example/a) `ring-spun`')];
    const { content } = recordOf(record);
    expect(content).toContain('Heavy tee ring-spun.');
    expect(content).not.toContain('**');
    expect(content).not.toContain('https://x.example/a');
  });

  it('adds the names a searcher types: style code, aliases, brand, manufacturer, category, colours, materials, fibres, decoration', () => {
    const record = copyOf(commerce);
    Object.assign(record.data.identity, { style_code: 'ZX-900', aliases: ['Quillback crew'], brand: 'Brandnova', manufacturer: 'Makerco', category: 'Outerwearish' });
    record.data.colors[0]!.manufacturer_name = 'Heather Lagoon';
    Object.assign(record.data.material_profiles[0]!, { name: 'Loopback terry shell', fiber_names: ['Yakwool'], fabric_construction: 'Waffle knit' });
    const base = record.data.decoration_methods[0]!;
    record.data.decoration_methods = [{ ...base, method: 'screen_print', supported: true }, { ...base, id: 'x', method: 'cut_and_sew_print', supported: false }];
    const { content } = recordOf(record);
    for (const word of ['ZX-900', 'Quillback crew', 'Brandnova', 'Makerco', 'Outerwearish', 'Heather Lagoon', 'Loopback terry shell', 'yakwool', 'waffle knit', 'screen print']) {
      expect(content).toContain(word);
    }
    expect(content).not.toMatch(/cut.and.sew/i);
  });

  it('leaves out a name the text already says, as whole words in any case', () => {
    const record = copyOf(technical);
    record.page.sections.overview = [block('Dyed in Heather Lagoon and navy.')];
    record.data.colors = record.data.colors.slice(0, 3).map((color, i) => ({ ...color, manufacturer_name: ['heather lagoon', 'Navy', 'Nav'][i]! }));
    const { content } = recordOf(record);
    expect(content.match(/heather lagoon/gi)).toHaveLength(1);
    expect(content.match(/\bnavy\b/gi)).toHaveLength(1);
    expect(content).toMatch(/\bNav\.(?: |$)/);
  });

  it('leaves out the data tables, claims and sources', () => {
    const record = copyOf(commerce);
    record.sources[0]!.title = 'Sourcetitlemarker';
    record.claims[0]!.scope = 'Claimscopemarker';
    record.data.offers[0]!.notes = 'Offernotemarker';
    record.data.measurements[0]!.landmarks = 'Landmarkmarker';
    const { content } = recordOf(record);
    for (const marker of ['Sourcetitlemarker', 'Claimscopemarker', 'Offernotemarker', 'Landmarkmarker']) expect(content).not.toContain(marker);
  });

  it('stays a few kilobytes for every sample record, however large its tables', () => {
    for (const { record } of samples) {
      const size = recordOf(record).content.length;
      expect(size, record.slug).toBeGreaterThan(1000);
      expect(size, record.slug).toBeLessThan(16_000);
    }
  });

  it('ends every piece as a sentence and gives repeated text once', () => {
    const record = copyOf(technical);
    record.page.sections.overview = [block('Same words here'), block('Same words here'), block('Asked already?')];
    const { content } = recordOf(record);
    expect(content.match(/Same words here/g)).toHaveLength(1);
    expect(content).toContain('Same words here. Asked already?');
  });

  it('keeps record text from giving Pagefind instructions', () => {
    const record = copyOf(technical);
    record.selection_summary.limitations = 'a ___PAGEFIND_WEIGHT___9 b ___END_PAGEFIND_WEIGHT___ c __init__';
    const { content } = recordOf(record);
    expect(content).toContain('a PAGEFIND_WEIGHT___9 b END_PAGEFIND_WEIGHT___ c __init__.');
  });

  it('shares its filters, metadata and sort keys with searchFields, without absent values', () => {
    for (const { record } of samples) {
      const entry = siteEntryOf(record, 'record.json');
      const fields = searchFields(entry, record);
      const { filters, meta, sort } = searchRecord(entry, record);
      expect(filters).toEqual(fields.filters);
      expect(sort).toEqual(fields.sort);
      expect(meta).toEqual(JSON.parse(JSON.stringify(fields.meta)));
    }
    const record = copyOf(commerce);
    record.images = [];
    expect(Object.keys(recordOf(record).meta).sort()).toEqual(['projection', 'projection_code', 'published', 'status', 'title']);
  });
});

describe('reindexedRecord', () => {
  it('makes the record searchRecord made, from the text and filters the index holds and the entry', () => {
    for (const { record } of samples) {
      const entry = siteEntryOf(record, 'record.json');
      const made = searchRecord(entry, record);
      expect(reindexedRecord(entry, { content: made.content, filters: made.filters })).toEqual(made);
    }
  });

  it('takes metadata and sort keys from the current entry', () => {
    const entry = { ...siteEntryOf(commerce, 'record.json'), title: 'Renamed Tee', researchStatus: 'complete' as const };
    const { meta, sort } = reindexedRecord(entry, { content: 'Old text.', filters: {} });
    expect(meta).toMatchObject({ title: 'Renamed Tee', status: 'Complete' });
    expect(sort.title).toBe('renamed tee');
  });
});
