import { describe, expect, it } from 'vitest';
import type { GarmentRecord } from '../../../src/lib/record/index.ts';
import {
  collectionViews,
  emptyCollections,
  fieldValueText,
  fieldViews,
  identityFields,
  itemTitle,
  urlPart,
  type ClaimLink,
  type FieldView,
  type Part,
} from '../../../src/lib/site/data-view.ts';
import { itemIdsOf } from '../../../src/lib/site/item-ids.ts';
import { copyOf, sampleRecords } from '../../support/records.ts';

const samples = sampleRecords();
const commerceSample = samples.find(({ record }) => record.projection === 'svc')!.record;
const technicalSample = samples.find(({ record }) => record.projection === 'tech')!.record;

type Item = Record<string, unknown>;

/** A record whose data collections hold only the given items. */
function withData(sample: GarmentRecord, collections: Record<string, Item[]>): GarmentRecord {
  const record = copyOf(sample);
  const data = record.data as unknown as Record<string, unknown>;
  for (const [name, value] of Object.entries(data)) if (Array.isArray(value)) data[name] = [];
  Object.assign(data, collections);
  return record;
}

const views = (record: GarmentRecord, claimsByAnchor = new Map<string, ClaimLink[]>()) => collectionViews({ record, claimsByAnchor });
/** What a reader reads of a field: its label and its values as shown. */
const shown = (fields: FieldView[]) => fields.map((field) => [field.label, field.parts.map((part) => part.text).join(', ')]);
const noLookup = { ids: new Map<string, Map<string, number>>(), sourceIds: new Set<string>() };

describe('collectionViews', () => {
  it('shows the collections that hold items, in the specification’s order for the projection, headed in words', () => {
    const record = withData(commerceSample, {
      offers: [{ id: 'o1', notes: 'Public price' }],
      colors: [{ id: 'black', name: 'Black' }],
      material_profiles: [{ id: 'mp', name: 'Jersey' }],
    });
    expect(views(record).map((view) => [view.heading, view.anchor])).toEqual([
      ['Material profiles', 'data-material_profiles'],
      ['Colors', 'data-colors'],
      ['Offers', 'data-offers'],
    ]);
    expect(emptyCollections(record)).toContain('Reviews');
    expect(emptyCollections(record)).not.toContain('Colors');
  });

  it('shows a technical record’s own collections and never a commerce one', () => {
    const record = withData(technicalSample, { assets: [{ id: 'a1', name: 'Pattern' }], offers: [{ id: 'o1', notes: 'x' }] });
    expect(views(record).map((view) => view.name)).toEqual(['assets']);
    expect(emptyCollections(record)).not.toContain('Offers');
  });

  it('names an item by its naming field, which it does not repeat, and by its id only when nothing names it', () => {
    const record = withData(commerceSample, {
      colors: [
        { id: 'black', name: 'Black', hex: '#000000' },
        { id: 'c-2', hex: '#FFFFFF' },
      ],
    });
    const [colors] = views(record);
    expect(colors!.items.map((item) => item.title)).toEqual(['Black', 'c-2']);
    expect(colors!.items[0]!.fields.map((field) => field.name)).toEqual(['hex']);
  });

  it('lays out two items or more as a table, and a lone item with many fields as a card', () => {
    const many = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`note_${i}`, `value ${i}`]));
    expect(
      views(
        withData(commerceSample, {
          colors: [
            { id: 'a', name: 'A' },
            { id: 'b', name: 'B' },
          ],
        }),
      )[0]!.layout,
    ).toBe('table');
    expect(views(withData(commerceSample, { colors: [{ id: 'a', name: 'A', hex: '#111111' }] }))[0]!.layout).toBe('table');
    expect(views(withData(commerceSample, { colors: [{ id: 'a', name: 'A', ...many }] }))[0]!.layout).toBe('cards');
  });

  it('folds a table of more than four items whole, and nothing of four or fewer', () => {
    const items = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `c${i}`, name: `Colour ${i}` }));
    expect(views(withData(commerceSample, { colors: items(4) }))[0]!.folded).toBe(false);
    expect(views(withData(commerceSample, { colors: items(5) }))[0]!.folded).toBe(true);
  });

  it('gives a table a column for every field any item shows, in order of first appearance, and each row its cell or a gap', () => {
    const record = withData(commerceSample, {
      colors: [
        { id: 'a', name: 'A', hex: '#111111' },
        { id: 'b', name: 'B', family: 'blue', hex: '#0000FF' },
      ],
    });
    const [colors] = views(record);
    expect(colors!.columns.map((column) => column.name)).toEqual(['hex', 'family']);
    expect(colors!.items[0]!.cells.map((cell) => cell && shown([cell])[0]![1])).toEqual(['#111111', null]);
    expect(colors!.items[1]!.cells.map((cell) => cell && shown([cell])[0]![1])).toEqual(['#0000FF', 'blue']);
  });

  it('anchors an item by its collection and id, once: a repeated id gets no second anchor to clash', () => {
    const [colors] = views(
      withData(commerceSample, {
        colors: [
          { id: 'navy', name: 'Navy' },
          { id: 'navy', name: 'Navy again' },
        ],
      }),
    );
    expect(colors!.items.map((item) => item.anchor)).toEqual(['colors-navy', '']);
  });

  it('carries the claims whose targets name an item', () => {
    const claim: ClaimLink = { number: 3, href: '#claim-c3', id: 'c3' };
    const [colors] = views(withData(commerceSample, { colors: [{ id: 'navy', name: 'Navy' }] }), new Map([['colors-navy', [claim]]]));
    expect(colors!.items[0]!.claims).toEqual([claim]);
  });

  it('draws measurements as size charts, each value anchored as its measurement', () => {
    const record = withData(commerceSample, {
      measurements: [
        { id: 'm-s', dataset_id: 'chart', size_label: 'S', measurement_name: 'chest_width_flat', value: 50, unit: 'cm' },
        { id: 'm-m', dataset_id: 'chart', size_label: 'M', measurement_name: 'chest_width_flat', value: 53, unit: 'cm' },
      ],
    });
    const [measurements] = views(record);
    expect(measurements!.grids).toHaveLength(1);
    expect(measurements!.grids![0]!.sizes).toEqual(['S', 'M']);
    expect(measurements!.grids![0]!.rows[0]!.cells.map((cell) => [cell!.text, cell!.anchor])).toEqual([
      ['50', 'measurements-m-s'],
      ['53', 'measurements-m-m'],
    ]);
  });
});

describe('itemTitle', () => {
  it('names an enumerated item in words, and says which field named it', () => {
    expect(itemTitle({ id: 'dm-1', method: 'dtg' }, 'decoration_methods')).toEqual({
      title: 'DTG (direct to garment)',
      titleField: 'method',
    });
  });

  it('leaves a free-text method as written outside decoration methods', () => {
    expect(itemTitle({ id: 't-1', method: 'dtg' }, 'performance_tests').title).toBe('dtg');
  });
});

describe('fieldViews', () => {
  it('shows money from minor units in its currency, with no separate currency or exponent fields', () => {
    const fields = fieldViews({ id: 'o1', currency: 'USD', minor_unit_exponent: 2, base_amount_minor: 1295 }, noLookup, 'offers');
    expect(shown(fields)).toEqual([['Base price', '$12.95']]);
  });

  it("shows a number in a currency's minor units as money, in the table and in a claim on it", () => {
    const fact = { id: 'af-retail-target', property: 'Client retail target', value_number: 3200, unit: 'USD minor units' };
    expect(shown(fieldViews(fact, noLookup, 'additional_facts')).find(([label]) => label === 'Value number')).toEqual([
      'Value number',
      '$32.00 (3,200 USD minor units)',
    ]);
    expect(fieldValueText(fact, 'value_number', 3200, 'additional_facts', 'USD minor units')).toBe('$32.00 (3,200 USD minor units)');
  });

  it('joins a number to its unit, and still shows a unit given without a number', () => {
    expect(
      shown(fieldViews({ id: 'm', weight_original: 6.5, weight_original_unit: 'oz/yd²' }, noLookup, 'material_profiles')).map(
        ([, value]) => value,
      ),
    ).toEqual(['6.5 oz/yd²']);
    expect(
      fieldViews({ id: 'm', weight_original: null, weight_original_unit: 'oz/yd²' }, noLookup, 'material_profiles').map(
        (field) => field.name,
      ),
    ).toEqual(['weight_original_unit']);
  });

  it('joins a minimum and a maximum into one range', () => {
    expect(shown(fieldViews({ id: 'o', quantity_min: 1, quantity_max: 24 }, noLookup, 'offers')).map(([, value]) => value)).toEqual([
      '1 to 24',
    ]);
    expect(shown(fieldViews({ id: 'o', quantity_min: 12, quantity_max: null }, noLookup, 'offers')).map(([, value]) => value)).toEqual([
      '12 or more',
    ]);
  });

  it('shows fibres with their shares as one composition', () => {
    const fields = fieldViews(
      { id: 'mp', fiber_names: ['cotton', 'polyester'], fiber_percentages: [60, 40] },
      noLookup,
      'material_profiles',
    );
    expect(fields.map((field) => field.parts.map((part) => part.text))).toEqual([['60% cotton', '40% polyester']]);
  });

  it('links a reference to the item it names on the page, and leaves one naming nothing as text', () => {
    const record = withData(commerceSample, { variants: [{ id: 'var-1', size_label: 'S' }] });
    const lookup = { ids: itemIdsOf(record), sourceIds: new Set(['src-1']) };
    const parts = fieldViews(
      { id: 'o', variant_id: 'var-1', provider_variant_id: 'pv-gone', source_id: 'src-1' },
      lookup,
      'offers',
    ).flatMap((field) => field.parts);
    expect(parts).toEqual<Part[]>([
      { kind: 'link', text: 'var-1', href: '#variants-var-1', external: false },
      { kind: 'text', text: 'pv-gone' },
      { kind: 'link', text: 'src-1', href: '#source-src-1', external: false },
    ]);
  });

  it('links an http(s) address out, and shows any other address as text marked not linked', () => {
    const parts = fieldViews(
      { id: 'o', price_url: 'https://shop.example/p', template_url: 'javascript:alert(1)' },
      noLookup,
      'offers',
    ).flatMap((field) => field.parts);
    expect(parts).toEqual<Part[]>([
      { kind: 'link', text: 'https://shop.example/p', href: 'https://shop.example/p', external: true },
      { kind: 'text', text: 'javascript:alert(1) (not linked)' },
    ]);
  });

  it('says yes and no, signs tolerances, rates out of the scale, dates in words, and codes as code', () => {
    const fields = fieldViews(
      {
        id: 'x',
        includes_blank: true,
        tolerance_plus: 1,
        tolerance_minus: 1,
        rating_value: 4.5,
        rating_scale_max: 5,
        observed_at: '2026-11-04T15:20:00Z',
        gtin: '00012345678905',
      },
      noLookup,
      'offers',
    );
    expect(fields.map((field) => field.parts.map((part) => part.text).join())).toEqual([
      'Yes',
      '+1',
      '−1',
      '4.5 / 5',
      'November 4, 2026',
      '00012345678905',
    ]);
    expect(fields.at(-1)!.parts[0]!.kind).toBe('code');
  });

  it('leaves out the id and every empty value', () => {
    expect(
      fieldViews({ id: 'x', notes: null, name: '', variant_ids: [], scope: 'All' }, noLookup, 'offers').map((field) => field.name),
    ).toEqual(['scope']);
  });
});

describe('identityFields', () => {
  it('shows the identity’s fields with a value, labelled in words', () => {
    const record = copyOf(commerceSample);
    const identity = record.data.identity as unknown as Item;
    for (const key of Object.keys(identity)) identity[key] = null;
    Object.assign(identity, { brand: 'Ridgeline', style_code: 'RK-6210' });
    expect(shown(identityFields(record))).toEqual([
      ['Brand', 'Ridgeline'],
      ['Style code', 'RK-6210'],
    ]);
  });
});

describe('urlPart', () => {
  it('links only an http(s) address, trimmed', () => {
    expect(urlPart(' https://a.example/x ')).toMatchObject({ kind: 'link', text: 'https://a.example/x', external: true });
    expect(urlPart('ftp://a.example/x')).toEqual({ kind: 'text', text: 'ftp://a.example/x (not linked)' });
  });
});
