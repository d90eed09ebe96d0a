import { describe, expect, it } from 'vitest';
import type { CommerceRecord, GarmentRecord, TextBlock } from '../../../../src/lib/record/index.ts';
import { searchFields } from '../../../../src/lib/search/index/search-fields.ts';
import { garmentPage, reindexedPage, searchRecord } from '../../../../src/lib/search/index/search-record.ts';
import { siteEntryOf } from '../../../../src/lib/site/site-index.ts';
import { plainText } from '../../../../src/lib/site/text.ts';
import { copyOf, sampleRecords } from '../../../support/records.ts';

/** A record's search record, with its reading text and names as one text, as the index searches them. */
function recordOf(record: GarmentRecord) {
  const made = searchRecord(siteEntryOf(record, 'record.json'), record);
  return { ...made, content: [...made.reading, ...made.names].join(' ') };
}

const block = (text: string): TextBlock => ({ text, claim_ids: [], kind: 'fact' });
const samples = sampleRecords();
const commerce = samples.map(({ record }) => record).find((record): record is CommerceRecord => record.projection === 'svc')!;
const technical = samples.find(({ record }) => record.projection === 'tech')!.record;

describe('searchRecord', () => {
  it('points at the record page', () => {
    expect(recordOf(commerce)).toMatchObject({ url: `/garments/${commerce.slug}/svc/`, projection: 'svc' });
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
    Object.assign(record.data.identity, {
      style_code: 'ZX-900',
      aliases: ['Quillback crew'],
      brand: 'Brandnova',
      manufacturer: 'Makerco',
      category: 'Outerwearish',
    });
    record.data.colors[0]!.manufacturer_name = 'Heather Lagoon';
    Object.assign(record.data.material_profiles[0]!, {
      name: 'Loopback terry shell',
      fiber_names: ['Yakwool'],
      fabric_construction: 'Waffle knit',
    });
    const base = record.data.decoration_methods[0]!;
    record.data.decoration_methods = [
      { ...base, method: 'screen_print', supported: true },
      { ...base, id: 'x', method: 'cut_and_sew_print', supported: false },
    ];
    const { content } = recordOf(record);
    for (const word of [
      'ZX-900',
      'Quillback crew',
      'Brandnova',
      'Makerco',
      'Outerwearish',
      'Heather Lagoon',
      'Loopback terry shell',
      'yakwool',
      'waffle knit',
      'screen print',
    ]) {
      expect(content).toContain(word);
    }
    expect(content).not.toMatch(/cut.and.sew/i);
  });

  it('adds every size label, as the size filter spells it, so a size searched for finds what the filter finds', () => {
    const record = copyOf(commerce);
    record.data.size_ranges = [{ ...record.data.size_ranges[0]!, labels: ['M', 'xxxxl', '5XL'] }];
    // Pagefind reads `M–5XL` as one word, `m5xl`: the text does not say the sizes.
    record.page.sections.overview = [block('Cut in M–5XL.')];
    const made = recordOf(record);
    expect(made.names).toEqual(expect.arrayContaining(['M', '4XL', '5XL']));
    expect(made.filters.size).toEqual(['M', '4XL', '5XL']);
  });

  it('leaves out a name the text already says, as whole words in any case', () => {
    const record = copyOf(technical);
    record.page.sections.overview = [block('Dyed in Heather Lagoon and navy.')];
    record.data.colors = record.data.colors
      .slice(0, 3)
      .map((color, i) => ({ ...color, manufacturer_name: ['heather lagoon', 'Navy', 'Nav'][i]! }));
    const { content } = recordOf(record);
    expect(content.match(/heather lagoon/gi)).toHaveLength(1);
    expect(content.match(/\bnavy\b/gi)).toHaveLength(1);
    expect(content).toMatch(/\bNav\b/);
  });

  it('leaves out the data tables, claims and sources', () => {
    const record = copyOf(commerce);
    record.sources[0]!.title = 'Sourcetitlemarker';
    record.claims[0]!.scope = 'Claimscopemarker';
    record.data.offers[0]!.notes = 'Offernotemarker';
    record.data.measurements[0]!.landmarks = 'Landmarkmarker';
    const { content } = recordOf(record);
    for (const marker of ['Sourcetitlemarker', 'Claimscopemarker', 'Offernotemarker', 'Landmarkmarker'])
      expect(content).not.toContain(marker);
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
    expect(Object.keys(recordOf(record).meta).sort()).toEqual(['price', 'sizes', 'status', 'title']);
  });

  it('keeps the names apart from the reading text: searched, never an excerpt', () => {
    const record = copyOf(commerce);
    record.data.identity.style_code = 'ZX-900';
    const made = recordOf(record);
    expect(made.names).toContain('ZX-900');
    expect(made.reading.join(' ')).not.toContain('ZX-900');
  });
});

describe('garmentPage', () => {
  const pairs = [...Map.groupBy(samples, ({ record }) => record.slug).values()];

  it('makes one page per garment, at the address of the garment, with the reading text of each projection once', () => {
    for (const pair of pairs) {
      const records = pair.map(({ record }) => searchRecord(siteEntryOf(record, 'record.json'), record));
      const page = garmentPage(records.toReversed());
      expect(page.url).toBe(`/garments/${pair[0]!.record.slug}/`);
      expect(page.meta.projections).toBe(
        records
          .map((r) => r.projection)
          .sort()
          .join(' '),
      );
      for (const made of records) for (const sentence of made.reading) expect(page.content).toContain(sentence);
      const title = records[0]!.reading[0]!;
      expect(page.content.split(title).length - 1).toBe(1);
      expect(page.filters.projection).toEqual(['Commerce', 'Technical'].slice(0, records.length));
    }
  });

  it('carries the commerce price and sizes and the technical fabric and weight, and each status', () => {
    const pair = pairs.find((p) => p.length === 2)!;
    const page = garmentPage(pair.map(({ record }) => searchRecord(siteEntryOf(record, 'record.json'), record)));
    expect(page.meta.price).toMatch(/^\$\d/);
    expect(page.meta.sizes).toBeTruthy();
    expect(page.meta.fabric).toBeTruthy();
    expect(page.meta.weight).toMatch(/g\/m²/);
    expect(page.meta.status_svc).toBeTruthy();
    expect(page.meta.status_tech).toBeTruthy();
  });

  it('sorts a garment by its commerce price and its technical weight, keeping both keys in its metadata for the merge', () => {
    const pair = pairs.find((p) => p.length === 2)!;
    const entries = pair.map(({ record }) => siteEntryOf(record, 'record.json'));
    const page = garmentPage(pair.map(({ record }, at) => searchRecord(entries[at]!, record)));
    const price = entries.find((entry) => entry.projection === 'svc')!.card.priceValue!;
    const gsm = entries.find((entry) => entry.projection === 'tech')!.card.weightGsm!;
    expect(Number(page.sort.price) / 100).toBeCloseTo(price, 2);
    expect(Number(page.sort.weight) / 100).toBeCloseTo(gsm, 2);
    expect(page.meta).toMatchObject({ price_sort: page.sort.price, weight_sort: page.sort.weight });
    const commerceOnly = garmentPage([
      searchRecord(entries.find((entry) => entry.projection === 'svc')!, pair.find(({ record }) => record.projection === 'svc')!.record),
    ]);
    expect(commerceOnly.sort.weight).toBe('999999999999');
    expect(commerceOnly.meta.weight_sort).toBeUndefined();
  });
});

describe('reindexedPage', () => {
  it('makes the page garmentPage made, from what the index holds', () => {
    for (const pair of Map.groupBy(samples, ({ record }) => record.slug).values()) {
      const made = garmentPage(pair.map(({ record }) => searchRecord(siteEntryOf(record, 'record.json'), record)));
      expect(reindexedPage(made.url, { content: made.content, meta: made.meta, filters: made.filters })).toEqual(made);
    }
  });
});
