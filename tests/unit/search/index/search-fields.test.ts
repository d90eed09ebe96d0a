import { describe, expect, it } from 'vitest';
import type { CommerceRecord, GarmentRecord } from '../../../../src/lib/record/index.ts';
import { distinctValues, searchFields } from '../../../../src/lib/search/index/search-fields.ts';
import { NO_NUMBER, numberSortKey } from '../../../../src/lib/search/query/search-keys.ts';
import { siteEntryOf } from '../../../../src/lib/site/site-index.ts';
import { copyOf, sampleRecords } from '../../../support/records.ts';

function fieldsOf(record: GarmentRecord) {
  return searchFields(siteEntryOf(record, 'record.json'), record);
}

const samples = sampleRecords();
const commerce = samples.map(({ record }) => record).find((record): record is CommerceRecord => record.projection === 'svc')!;
const technical = samples.find(({ record }) => record.projection === 'tech')!.record;

describe('searchFields', () => {
  it('names the projection, category, brand, manufacturer and research status as filters', () => {
    const { filters } = fieldsOf(commerce);
    const { identity } = commerce.data;
    expect(filters.projection).toEqual(['Commerce']);
    expect(filters.category).toEqual([identity.category]);
    expect(filters.brand).toEqual([identity.brand]);
    expect(filters.manufacturer).toEqual([identity.manufacturer]);
    expect(filters.status).toHaveLength(1);
    expect(fieldsOf(technical).filters.projection).toEqual(['Technical']);
  });

  it('offers only the decoration methods a commerce record supports, by their labels', () => {
    const record = copyOf(commerce);
    const base = record.data.decoration_methods[0]!;
    record.data.decoration_methods = [
      { ...base, id: 'a', method: 'dtg', supported: true },
      { ...base, id: 'b', method: 'embroidery', supported: false },
      { ...base, id: 'c', method: 'dtg', supported: null },
      { ...base, id: 'd', method: null, supported: true },
    ];
    expect(fieldsOf(record).filters.decoration).toEqual(['DTG (direct to garment)']);
    expect(fieldsOf(technical).filters.decoration).toBeUndefined();
  });

  it('takes fabric, construction and fibres from the material profiles, in lower case, once each', () => {
    const record = copyOf(technical);
    const base = record.data.material_profiles[0]!;
    record.data.material_profiles = [
      { ...base, knit_or_weave: 'Knit', fabric_construction: 'Single Jersey', fiber_names: ['Cotton', 'polyester'] },
      { ...base, knit_or_weave: 'knit', fabric_construction: '1x1 rib', fiber_names: ['cotton', 'elastane'] },
      { ...base, knit_or_weave: null, fabric_construction: null, fiber_names: null },
    ];
    const { filters } = fieldsOf(record);
    expect(filters.fabric).toEqual(['knit']);
    expect(filters.construction).toEqual(['single jersey', '1x1 rib']);
    expect(filters.fiber).toEqual(['cotton', 'polyester', 'elastane']);
  });

  it('lists colours by name and every size label', () => {
    const { filters } = fieldsOf(commerce);
    expect(filters.color).toEqual(distinctValues(commerce.data.colors.map((c) => c.manufacturer_name)));
    expect(filters.size).toEqual(distinctValues(commerce.data.size_ranges.flatMap((s) => s.labels ?? [])));
  });

  it('spells each size label as the size filter, the index and a query do: XXL and 2XL are one size', () => {
    const record = copyOf(commerce);
    const base = record.data.size_ranges[0]!;
    record.data.size_ranges = [
      { ...base, labels: ['s', 'XL', 'XXL', 'xxxl'] },
      { ...base, id: 'other', labels: ['2XL', '3 XL', 'One size'] },
    ];
    expect(fieldsOf(record).filters.size).toEqual(['S', 'XL', '2XL', '3XL', 'One size']);
  });

  it('leaves out filters the record has no value for', () => {
    const record = copyOf(technical);
    record.data.identity.brand = null;
    record.data.identity.category = '  ';
    record.data.colors = [];
    const { filters } = fieldsOf(record);
    expect(Object.keys(filters)).not.toContain('brand');
    expect(Object.keys(filters)).not.toContain('category');
    expect(Object.keys(filters)).not.toContain('color');
  });

  it('gives the title, research status and the key facts as result metadata: price from and sizes (commerce), fabric and weight (technical)', () => {
    const entry = siteEntryOf(commerce, 'record.json');
    const { meta } = fieldsOf(commerce);
    expect(meta).toMatchObject({ title: entry.title });
    expect(meta.status).toBe(fieldsOf(commerce).filters.status![0]);
    expect(meta.price).toMatch(/^\$\d+\.\d\d$/);
    expect(meta.sizes).toMatch(/^\S+(–\S+|(, \S+)*)$/);
    const technical = sampleRecords()
      .map(({ record }) => record)
      .find((record) => record.projection === 'tech')!;
    const tech = fieldsOf(technical).meta;
    expect(tech.fabric).toMatch(/\d+% /);
    expect(tech.weight).toMatch(/g\/m²/);
    expect(tech.price).toBeUndefined();
  });

  it('keeps an image only when its address is http(s)', () => {
    expect(fieldsOf(commerce).meta.image).toMatch(/^https:\/\//);
    for (const url of ['javascript:alert(1)', '//evil.example/x.png', 'file:///etc/passwd', 'data:image/png;base64,AAAA']) {
      const record = copyOf(commerce);
      record.images = [{ kind: 'blank', view: 'front', color_name: null, url }];
      const { meta } = fieldsOf(record);
      expect(meta.image, url).toBeUndefined();
      expect(meta.image_alt, url).toBeUndefined();
    }
  });

  it('passes over a front image whose address is not http(s) for the next one that is, serialized', () => {
    const record = copyOf(commerce);
    record.images = [
      { kind: 'blank', view: 'front', color_name: null, url: 'javascript:alert(1)' },
      { kind: 'blank', view: 'back', color_name: null, url: 'https://img.example/back tee.jpg' },
    ];
    expect(fieldsOf(record).meta.image).toBe('https://img.example/back%20tee.jpg');
  });

  it('sorts by lower-case title, by published date as an ISO timestamp, and by lowest price and weight, unknown last', () => {
    const record = copyOf(commerce);
    record.published_at = '2026-11-08T12:00:00Z';
    const { sort, meta } = fieldsOf(record);
    const entry = siteEntryOf(record, 'record.json');
    expect(sort).toEqual({
      title: meta.title.toLocaleLowerCase('en').replace(/\d+/g, (n) => `${String(n.length).padStart(3, '0')}${n}`),
      published: '2026-11-08T12:00:00.000Z',
      price: String(Math.round(entry.card.priceValue! * 100)).padStart(12, '0'),
      weight: '999999999999',
    });
    expect(meta.price).toBe(entry.card.price);
    const weighed = siteEntryOf(technical, 'record.json').card.weightGsm!;
    expect(fieldsOf(technical).sort).toMatchObject({ price: '999999999999', weight: String(Math.round(weighed * 100)).padStart(12, '0') });
  });

  it('makes price and weight keys that sort the same as text and as numbers', () => {
    const values = [0, 0.05, 9.99, 10, 18.4, 305, 1234.5, undefined, Number.NaN, -1];
    const keys = values.map(numberSortKey);
    expect(keys.slice(0, 7)).toEqual([
      '000000000000',
      '000000000005',
      '000000000999',
      '000000001000',
      '000000001840',
      '000000030500',
      '000000123450',
    ]);
    expect(keys.slice(7)).toEqual([NO_NUMBER, NO_NUMBER, NO_NUMBER]);
    expect([...keys].sort()).toEqual([...keys].sort((a, b) => Number(a) - Number(b)));
  });

  it('sorts titles with numbers by their value, as a reader counts', () => {
    const titles = ['Tee 10', 'tee 2', 'Tee 02b', 'Tee 1', 'Tee 100', 'Tee'];
    const keyOf = (title: string) => {
      const record = copyOf(commerce);
      record.page.title = { ...record.page.title!, text: title };
      return fieldsOf(record).sort.title;
    };
    const byKey = [...titles].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : 1));
    expect(byKey).toEqual(['Tee', 'Tee 1', 'tee 2', 'Tee 02b', 'Tee 10', 'Tee 100']);
  });

  it('keeps a published date that is not a timestamp as it is, so the page still sorts', () => {
    const record = copyOf(commerce);
    record.published_at = ' soon ';
    expect(fieldsOf(record).sort.published).toBe('soon');
  });
});

describe('distinctValues', () => {
  it('collapses whitespace and drops empty values and duplicates that differ only in case', () => {
    expect(distinctValues([' Navy ', 'navy', null, '', 'Black\n\tHeather', undefined, 'Black Heather'])).toEqual(['Navy', 'Black Heather']);
  });

  it('shortens a value longer than a facet label should be', () => {
    const [value] = distinctValues(['x'.repeat(300)]);
    expect(value).toHaveLength(80);
    expect(value!.endsWith('…')).toBe(true);
  });
});
