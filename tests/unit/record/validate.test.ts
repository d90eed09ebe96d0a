import { describe, expect, it } from 'vitest';
import { validateRecord, type GarmentRecord } from '../../../src/lib/record/index.ts';
import { MAX_ERRORS } from '../../../src/lib/record/validator-cache.ts';
import { copyOf, sampleRecords, setAt, valueAt } from '../../support/records.ts';

const samples = sampleRecords();

/** The first sample record of a projection in which every given pointer exists. */
function baseRecord(projection: 'svc' | 'tech', needs: string[]): GarmentRecord {
  const found = samples.find(({ record }) => record.projection === projection && needs.every((p) => valueAt(record, p) !== undefined));
  if (!found) throw new Error(`no ${projection} sample record has ${needs.join(', ')}`);
  return copyOf(found.record);
}

function parentOf(pointer: string): string {
  return pointer.slice(0, pointer.lastIndexOf('/'));
}

interface Breakage {
  rule: string;
  projection: 'svc' | 'tech';
  /** Where to change the record; `undefined` value deletes. */
  at: string;
  value: unknown;
  /** The pointer the problem must be reported at. */
  reportedAt: string;
  message: RegExp;
}

const DELETE = undefined;

const breakages: Breakage[] = [
  // A missing required property, at several depths: reported where it belongs.
  {
    rule: 'missing top-level property',
    projection: 'svc',
    at: '/slug',
    value: DELETE,
    reportedAt: '/slug',
    message: /missing required property "slug"/,
  },
  {
    rule: 'missing research field',
    projection: 'tech',
    at: '/research/limitations',
    value: DELETE,
    reportedAt: '/research/limitations',
    message: /missing required property "limitations"/,
  },
  {
    rule: 'missing seed field',
    projection: 'svc',
    at: '/research/seed/unit',
    value: DELETE,
    reportedAt: '/research/seed/unit',
    message: /"unit"/,
  },
  {
    rule: 'missing data item field',
    projection: 'svc',
    at: '/data/colors/0/pantone_reference',
    value: DELETE,
    reportedAt: '/data/colors/0/pantone_reference',
    message: /"pantone_reference"/,
  },
  {
    rule: 'missing identity field',
    projection: 'tech',
    at: '/data/identity/brand',
    value: DELETE,
    reportedAt: '/data/identity/brand',
    message: /"brand"/,
  },
  {
    rule: 'missing claim field',
    projection: 'svc',
    at: '/claims/0/references',
    value: DELETE,
    reportedAt: '/claims/0/references',
    message: /"references"/,
  },
  {
    rule: 'missing page section',
    projection: 'svc',
    at: '/page/sections/overview',
    value: DELETE,
    reportedAt: '/page/sections/overview',
    message: /"overview"/,
  },
  {
    rule: 'missing technical page section',
    projection: 'tech',
    at: '/page/sections/connected_assets',
    value: DELETE,
    reportedAt: '/page/sections/connected_assets',
    message: /"connected_assets"/,
  },
  {
    rule: 'missing catalog table value',
    projection: 'svc',
    at: '/catalog/measurement_tables/0/rows/0/values/0/max_value',
    value: DELETE,
    reportedAt: '/catalog/measurement_tables/0/rows/0/values/0/max_value',
    message: /"max_value"/,
  },
  { rule: 'missing link', projection: 'tech', at: '/links/mcp_docs', value: DELETE, reportedAt: '/links/mcp_docs', message: /"mcp_docs"/ },
  {
    rule: 'missing text block kind',
    projection: 'svc',
    at: '/page/sections/overview/0/kind',
    value: DELETE,
    reportedAt: '/page/sections/overview/0/kind',
    message: /"kind"/,
  },
  // An extra property.
  {
    rule: 'extra top-level property',
    projection: 'svc',
    at: '/notes',
    value: 'x',
    reportedAt: '/notes',
    message: /unknown property "notes"; allowed: schema_version, record_id/,
  },
  {
    rule: 'extra seed property',
    projection: 'tech',
    at: '/research/seed/colour',
    value: 'x',
    reportedAt: '/research/seed/colour',
    message: /unknown property "colour"/,
  },
  {
    rule: 'extra data item property',
    projection: 'svc',
    at: '/data/variants/0/sku',
    value: 'x',
    reportedAt: '/data/variants/0/sku',
    message: /unknown property "sku"; allowed: id, manufacturer_variant_id/,
  },
  {
    rule: 'extra text block property',
    projection: 'tech',
    at: '/page/sections/overview/0/note',
    value: 'x',
    reportedAt: '/page/sections/overview/0/note',
    message: /unknown property "note"; allowed: text, claim_ids, kind/,
  },
  {
    rule: 'extra source property',
    projection: 'svc',
    at: '/sources/0/license',
    value: 'x',
    reportedAt: '/sources/0/license',
    message: /unknown property "license"/,
  },
  {
    rule: 'extra image property',
    projection: 'svc',
    at: '/images/0/alt',
    value: 'x',
    reportedAt: '/images/0/alt',
    message: /unknown property "alt"/,
  },
  {
    rule: 'unknown data collection',
    projection: 'tech',
    at: '/data/patterns',
    value: [],
    reportedAt: '/data/patterns',
    message: /unknown property "patterns"/,
  },
  {
    rule: 'data key named like an object built-in',
    projection: 'svc',
    at: '/data/constructor',
    value: [],
    reportedAt: '/data/constructor',
    message: /unknown property "constructor"/,
  },
  // A value outside an enumeration.
  {
    rule: 'projection enum',
    projection: 'svc',
    at: '/projection',
    value: 'web',
    reportedAt: '/projection',
    message: /expected one of "svc", "tech"; got "web"/,
  },
  {
    rule: 'research status enum',
    projection: 'svc',
    at: '/research/status',
    value: 'done',
    reportedAt: '/research/status',
    message: /"in_progress", "complete_with_gaps", "complete", "identity_unresolved", "incomplete"/,
  },
  {
    rule: 'research status is not nullable',
    projection: 'tech',
    at: '/research/status',
    value: null,
    reportedAt: '/research/status',
    message: /got null/,
  },
  {
    rule: 'seed unit enum',
    projection: 'svc',
    at: '/research/seed/unit',
    value: 'blank',
    reportedAt: '/research/seed/unit',
    message: /"branded_blank"/,
  },
  {
    rule: 'source type enum',
    projection: 'svc',
    at: '/sources/0/source_type',
    value: 'blog',
    reportedAt: '/sources/0/source_type',
    message: /"manufacturer"/,
  },
  {
    rule: 'access status enum',
    projection: 'tech',
    at: '/sources/0/access_status',
    value: 'read',
    reportedAt: '/sources/0/access_status',
    message: /"fully_read"/,
  },
  {
    rule: 'claim kind enum',
    projection: 'svc',
    at: '/claims/0/kind',
    value: 'guess',
    reportedAt: '/claims/0/kind',
    message: /"source_claim"/,
  },
  {
    rule: 'claim verification enum',
    projection: 'tech',
    at: '/claims/0/verification',
    value: 'verified',
    reportedAt: '/claims/0/verification',
    message: /"source_checked"/,
  },
  {
    rule: 'conflict resolution enum',
    projection: 'svc',
    at: '/conflicts/0/resolution',
    value: 'ignored',
    reportedAt: '/conflicts/0/resolution',
    message: /"unresolved"/,
  },
  {
    rule: 'gap priority enum',
    projection: 'svc',
    at: '/gaps/0/priority',
    value: 'urgent',
    reportedAt: '/gaps/0/priority',
    message: /"blocking", "important", "future"/,
  },
  { rule: 'gap owner enum', projection: 'tech', at: '/gaps/0/owner', value: 'nobody', reportedAt: '/gaps/0/owner', message: /"research"/ },
  {
    rule: 'image view enum',
    projection: 'svc',
    at: '/images/0/view',
    value: 'side',
    reportedAt: '/images/0/view',
    message: /"front", "back", "detail", "label"/,
  },
  {
    rule: 'text block kind enum',
    projection: 'svc',
    at: '/page/sections/overview/0/kind',
    value: 'opinion',
    reportedAt: '/page/sections/overview/0/kind',
    message: /"fact", "interpretation", "generic_navigation"/,
  },
  {
    rule: 'measurement name enum',
    projection: 'svc',
    at: '/data/measurements/0/measurement_name',
    value: 'chest',
    reportedAt: '/data/measurements/0/measurement_name',
    message: /"chest_width_flat".*null/,
  },
  {
    rule: 'decoration method enum',
    projection: 'svc',
    at: '/data/decoration_methods/0/method',
    value: 'vinyl',
    reportedAt: '/data/decoration_methods/0/method',
    message: /"dtg"/,
  },
  {
    rule: 'offer price basis enum',
    projection: 'svc',
    at: '/data/offers/0/price_basis',
    value: 'sale',
    reportedAt: '/data/offers/0/price_basis',
    message: /"standard_public"/,
  },
  {
    rule: 'review stance enum',
    projection: 'svc',
    at: '/data/reviews/0/stance',
    value: 'angry',
    reportedAt: '/data/reviews/0/stance',
    message: /"positive"/,
  },
  // A constant other than the one stated.
  {
    rule: 'service status const',
    projection: 'svc',
    at: '/service_status',
    value: 'draft',
    reportedAt: '/service_status',
    message: /expected "published_research_snapshot"; got "draft"/,
  },
  {
    rule: 'default market const',
    projection: 'tech',
    at: '/research/default_market',
    value: 'CA',
    reportedAt: '/research/default_market',
    message: /expected "US"/,
  },
  {
    rule: 'default currency const',
    projection: 'svc',
    at: '/research/default_currency',
    value: 'EUR',
    reportedAt: '/research/default_currency',
    message: /expected "USD"/,
  },
  {
    rule: 'selection summary scope const',
    projection: 'svc',
    at: '/selection_summary/scope',
    value: 'outfit',
    reportedAt: '/selection_summary/scope',
    message: /expected "garment_only"/,
  },
  {
    rule: 'file reference is always null',
    projection: 'tech',
    at: '/sources/0/file_reference',
    value: 'report.pdf',
    reportedAt: '/sources/0/file_reference',
    message: /expected null/,
  },
  {
    rule: 'selection summary blocks are interpretations',
    projection: 'svc',
    at: '/selection_summary/suitable_for/0/kind',
    value: 'fact',
    reportedAt: '/selection_summary/suitable_for/0/kind',
    message: /expected "interpretation"/,
  },
  // A string below its minimum length.
  {
    rule: 'empty record revision',
    projection: 'svc',
    at: '/record_revision',
    value: '',
    reportedAt: '/record_revision',
    message: /expected a non-empty string; got ""$/,
  },
  {
    rule: 'empty nullable string',
    projection: 'svc',
    at: '/record_id',
    value: '',
    reportedAt: '/record_id',
    message: /expected a non-empty string or null; got ""/,
  },
  {
    rule: 'empty sku',
    projection: 'svc',
    at: '/research/seed/svc_skus/0',
    value: '',
    reportedAt: '/research/seed/svc_skus/0',
    message: /non-empty/,
  },
  { rule: 'empty claim scope', projection: 'tech', at: '/claims/0/scope', value: '', reportedAt: '/claims/0/scope', message: /non-empty/ },
  {
    rule: 'empty locator',
    projection: 'svc',
    at: '/claims/0/references/0/locator',
    value: '',
    reportedAt: '/claims/0/references/0/locator',
    message: /non-empty/,
  },
  {
    rule: 'empty text block text',
    projection: 'tech',
    at: '/page/sections/overview/0/text',
    value: '',
    reportedAt: '/page/sections/overview/0/text',
    message: /non-empty/,
  },
  {
    rule: 'empty claim id in a text block',
    projection: 'svc',
    at: '/page/sections/overview/0/claim_ids/0',
    value: '',
    reportedAt: '/page/sections/overview/0/claim_ids/0',
    message: /non-empty/,
  },
  {
    rule: 'empty faq question',
    projection: 'svc',
    at: '/page/faq/0/question',
    value: '',
    reportedAt: '/page/faq/0/question',
    message: /non-empty/,
  },
  { rule: 'empty cta label', projection: 'svc', at: '/page/cta_label', value: '', reportedAt: '/page/cta_label', message: /non-empty/ },
  {
    rule: 'empty care instruction',
    projection: 'svc',
    at: '/catalog/care_instructions/0/instruction',
    value: '',
    reportedAt: '/catalog/care_instructions/0/instruction',
    message: /non-empty/,
  },
  // An id not matching its pattern.
  {
    rule: 'slug pattern',
    projection: 'svc',
    at: '/slug',
    value: 'Heavy Tee',
    reportedAt: '/slug',
    message: /must match \^\[a-z0-9\]\+.*; got "Heavy Tee"/,
  },
  {
    rule: 'color id pattern',
    projection: 'svc',
    at: '/data/colors/0/id',
    value: 'Black',
    reportedAt: '/data/colors/0/id',
    message: /must match \^\[a-z\]\[a-z0-9_\]\*.*; got "Black"/,
  },
  {
    rule: 'variant id starting with a digit',
    projection: 'tech',
    at: '/data/variants/0/id',
    value: '9-black',
    reportedAt: '/data/variants/0/id',
    message: /must match/,
  },
  {
    rule: 'asset id with a double hyphen',
    projection: 'tech',
    at: '/data/assets/0/id',
    value: 'pattern--v2',
    reportedAt: '/data/assets/0/id',
    message: /must match/,
  },
  {
    rule: 'offer id with a trailing hyphen',
    projection: 'svc',
    at: '/data/offers/0/id',
    value: 'offer-',
    reportedAt: '/data/offers/0/id',
    message: /must match/,
  },
  // Types: integers, booleans, nullable scalars and arrays, objects.
  {
    rule: 'minor amounts are integers',
    projection: 'svc',
    at: '/data/offers/0/base_amount_minor',
    value: 12.5,
    reportedAt: '/data/offers/0/base_amount_minor',
    message: /expected integer or null; got 12.5/,
  },
  {
    rule: 'ply count is an integer',
    projection: 'tech',
    at: '/data/material_profiles/0/ply_count',
    value: 1.5,
    reportedAt: '/data/material_profiles/0/ply_count',
    message: /integer/,
  },
  {
    rule: 'identity_resolved is a plain boolean',
    projection: 'svc',
    at: '/research/identity_resolved',
    value: null,
    reportedAt: '/research/identity_resolved',
    message: /expected boolean; got null/,
  },
  {
    rule: 'identity is an object',
    projection: 'tech',
    at: '/data/identity',
    value: [],
    reportedAt: '/data/identity',
    message: /expected object/,
  },
  {
    rule: 'nullable number array holds numbers',
    projection: 'svc',
    at: '/data/material_profiles/0/fiber_percentages',
    value: ['60'],
    reportedAt: '/data/material_profiles/0/fiber_percentages/0',
    message: /expected number/,
  },
  {
    rule: 'catalog is an object or null',
    projection: 'svc',
    at: '/catalog',
    value: 'none',
    reportedAt: '/catalog',
    message: /^expected object or null; got "none"$/,
  },
  {
    rule: 'title is a text block or null',
    projection: 'svc',
    at: '/page/title',
    value: 'A title',
    reportedAt: '/page/title',
    message: /^expected object or null; got "A title"$/,
  },
  {
    rule: 'a nullable string type',
    projection: 'svc',
    at: '/record_id',
    value: 5,
    reportedAt: '/record_id',
    message: /^expected string or null; got 5$/,
  },
  {
    rule: 'a number beyond what a double holds',
    projection: 'svc',
    at: '/data/material_profiles/0/weight_gsm',
    value: Infinity,
    reportedAt: '/data/material_profiles/0/weight_gsm',
    message: /^expected number or null; got a number too large to hold$/,
  },
  // claims[].targets has at least one item.
  {
    rule: 'claim targets not empty',
    projection: 'svc',
    at: '/claims/0/targets',
    value: [],
    reportedAt: '/claims/0/targets',
    message: /at least 1 item/,
  },
];

describe('validateRecord', () => {
  it.each(samples.map((s) => [s.file, s.record] as const))('accepts the sample record %s', (file, record) => {
    expect(validateRecord(record, file)).toEqual([]);
  });

  it.each(breakages)('rejects a record breaking one rule ($rule) at $reportedAt', ({ projection, at, value, reportedAt, message }) => {
    const record = baseRecord(projection, [value === DELETE ? at : parentOf(at) || '/slug']);
    setAt(record, at, value);
    const problems = validateRecord(record, 'r.json');
    expect(problems.map((p) => p.pointer)).toEqual([reportedAt]);
    expect(problems[0]!.message).toMatch(message);
    expect(problems[0]!.severity).toBe('error');
  });

  it('accepts null where the notation allows it', () => {
    const record = baseRecord('svc', ['/data/measurements/0', '/data/offers/0']);
    setAt(record, '/data/measurements/0/measurement_kind', null);
    setAt(record, '/data/offers/0/price_basis', null);
    setAt(record, '/data/colors/0/supplier_names', null);
    setAt(record, '/page/title', null);
    setAt(record, '/catalog', null);
    expect(validateRecord(record, 'r.json')).toEqual([]);
  });

  it('names the missing data keys when a commerce record lacks commerce collections', () => {
    const record = baseRecord('svc', ['/data/offers']);
    setAt(record, '/data/offers', undefined);
    setAt(record, '/data/reviews', undefined);
    const problems = validateRecord(record, 'r.json');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      pointer: '/data',
      message: 'data keys do not match projection "svc" (21 keys): missing offers, reviews',
    });
  });

  it('names the extra data keys when a commerce record carries technical collections', () => {
    const record = baseRecord('svc', ['/data']);
    setAt(record, '/data/assets', []);
    const problems = validateRecord(record, 'r.json');
    expect(problems.map((p) => [p.pointer, p.message])).toEqual([
      ['/data', 'data keys do not match projection "svc" (21 keys): not allowed assets'],
    ]);
  });

  it('names the extra and missing data keys when a technical record carries commerce collections', () => {
    const record = baseRecord('tech', ['/data/assets']);
    setAt(record, '/data/offers', []);
    setAt(record, '/data/assets', undefined);
    const problems = validateRecord(record, 'r.json');
    expect(problems.map((p) => [p.pointer, p.message])).toEqual([
      ['/data', 'data keys do not match projection "tech" (15 keys): missing assets; not allowed offers'],
    ]);
  });

  it("lists only the collections of the record's projection as allowed data keys", () => {
    const record = baseRecord('tech', ['/data']);
    setAt(record, '/data/patterns', []);
    expect(validateRecord(record, 'r.json').map((p) => [p.pointer, p.message])).toEqual([
      [
        '/data/patterns',
        'unknown property "patterns"; allowed: identity, material_profiles, colors, size_ranges, variants, measurements, construction, ' +
          'performance_tests, certifications, supply_chain, assets, asset_relationships, manufacturing, capabilities, additional_facts',
      ],
    ]);
  });

  it('says only that data must be an object when it is not one', () => {
    const record = baseRecord('svc', ['/data']);
    setAt(record, '/data', null);
    expect(validateRecord(record, 'r.json').map((p) => [p.pointer, p.message])).toEqual([['/data', 'expected object; got null']]);
  });

  it('rejects a technical page shape on a commerce record', () => {
    const commerce = baseRecord('svc', ['/page']);
    const technical = baseRecord('tech', ['/page']);
    commerce.page = technical.page as never;
    const problems = validateRecord(commerce, 'r.json');
    expect(problems.every((p) => p.pointer.startsWith('/page/sections'))).toBe(true);
    expect(problems.map((p) => p.message)).toContain('missing required property "when_it_fits"');
    expect(problems.map((p) => p.message).some((m) => m.startsWith('unknown property "connected_assets"'))).toBe(true);
  });

  it('rejects a commerce page shape on a technical record', () => {
    const technical = baseRecord('tech', ['/page']);
    technical.page = baseRecord('svc', ['/page']).page as never;
    const problems = validateRecord(technical, 'r.json');
    expect(problems.map((p) => p.message)).toContain('missing required property "patterns_and_grading"');
  });

  it('reports every problem in a record, not just the first', () => {
    const record = baseRecord('svc', ['/data/colors/0']);
    setAt(record, '/data/colors/0/id', 'Black');
    setAt(record, '/research/status', 'done');
    setAt(record, '/extra', true);
    expect(
      validateRecord(record, 'r.json')
        .map((p) => p.pointer)
        .sort(),
    ).toEqual(['/data/colors/0/id', '/extra', '/research/status']);
  });

  it('lists at most MAX_ERRORS problems of a record with very many, and says that it stopped', () => {
    // 3 bytes an item, 13 problems each: ajv's own code copied every error found so far at each item.
    const record = baseRecord('svc', ['/data/colors']);
    setAt(
      record,
      '/data/colors',
      Array.from({ length: 2000 }, () => ({})),
    );
    const problems = validateRecord(record, 'r.json');
    expect(problems.length).toBeLessThanOrEqual(MAX_ERRORS + 1);
    expect(problems[0]).toMatchObject({ pointer: '/data/colors/0/id', message: 'missing required property "id"' });
    expect(problems.at(-1)).toEqual({
      severity: 'error',
      file: 'r.json',
      pointer: '',
      message: `and more problems not listed: the check keeps at most ${MAX_ERRORS} errors; correct these and check again`,
    });
  });

  it('says that a value which is not an object is not a record', () => {
    expect(validateRecord([1, 2], 'r.json')).toEqual([
      { severity: 'error', file: 'r.json', pointer: '', message: 'not a record: expected a JSON object, got an array of 2' },
    ]);
  });

  it('says that another schema version is not a record of this format', () => {
    const record = { ...baseRecord('svc', []), schema_version: 'garment-access/2.3.0' };
    expect(validateRecord(record, 'r.json')).toEqual([
      {
        severity: 'error',
        file: 'r.json',
        pointer: '/schema_version',
        message:
          'not a garment-access/2.4.0 record: expected schema_version "garment-access/2.4.0", got schema_version "garment-access/2.3.0"',
      },
    ]);
  });
});
