import { describe, expect, it } from 'vitest';
import type { Claim, CommerceRecord, GarmentRecord, TextBlock } from '../../../src/lib/record/index.ts';
import { anchorToken, claimAnchor } from '../../../src/lib/site/anchors.ts';
import { measurementGrids } from '../../../src/lib/site/data-view.ts';
import { datasetFacts, datasetJsonLd } from '../../../src/lib/site/json-ld.ts';
import { linksFor } from '../../../src/lib/site/links.ts';
import { recordMarkdown } from '../../../src/lib/site/markdown.ts';
import { pageView, resolveTarget } from '../../../src/lib/site/page-view.ts';
import { siteEntryOf } from '../../../src/lib/site/site-index.ts';
import { copyOf, sampleRecords } from '../../support/records.ts';

const svcSample = sampleRecords().find(({ record }) => record.projection === 'svc')!.record as CommerceRecord;

const block = (text: string, claimIds: string[], kind: TextBlock['kind'] = 'fact'): TextBlock => ({ text, claim_ids: claimIds, kind });
const claim = (id: string, extra: Partial<Claim> = {}): Claim => ({
  id,
  targets: ['identity/brand'],
  value: 1,
  unit: null,
  scope: 'all',
  kind: 'source_claim',
  verification: 'source_checked',
  references: [],
  derived_from: [],
  calculation: null,
  checked_at: null,
  check_note: null,
  ...extra,
});

/** A commerce record with a small, known page: two sections with text, the rest empty. */
function smallRecord(): CommerceRecord {
  const record = copyOf(svcSample);
  for (const key of Object.keys(record.page.sections)) (record.page.sections as unknown as Record<string, TextBlock[]>)[key] = [];
  record.page.title = block('Tee', ['c-title']);
  record.page.description = null;
  record.page.headline = block('A **heavy** tee', ['c-b']);
  record.page.summary = null;
  record.page.sections.overview = [block('First', ['c-b', 'c-a']), block('Second', ['c-a'], 'interpretation')];
  record.page.sections.decoration = [block('Third', ['c-c'])];
  record.page.faq = [{ question: 'Why?', answer: block('Because', ['c-c'], 'generic_navigation') }];
  record.selection_summary.suitable_for = [];
  record.selection_summary.tradeoffs = [];
  record.claims = [claim('c-a'), claim('c-b'), claim('c-c'), claim('c-title'), claim('c-unused'), claim('c-only-conflict')];
  record.conflicts = [
    {
      id: 'k1',
      target: 'identity/brand',
      claim_ids: ['c-a', 'c-only-conflict'],
      resolution: 'unresolved',
      selected_claim_id: null,
      reason: 'r',
      follow_up: null,
    },
  ];
  record.decisions = [];
  return record;
}

describe('pageView', () => {
  it("says a claim's value, in the evidence and in a conflict, as the page says the data it targets: a price in its currency", () => {
    const record = smallRecord();
    const offer = record.data.offers[0]!;
    Object.assign(offer, { currency: 'USD', minor_unit_exponent: 2 });
    const price = claim('c-a', { targets: [`offers/${offer.id}/base_amount_minor`], value: 1295, unit: 'USD minor units' });
    record.claims = [price, claim('c-b'), claim('c-c'), claim('c-title'), claim('c-only-conflict')];
    record.conflicts[0]!.target = price.targets[0]!;
    const view = pageView(record, { otherProjectionExists: false });
    expect(view.claims.find((c) => c.id === 'c-a')!.value).toBe('$12.95');
    expect(view.conflicts[0]!.values.find((v) => v.claim.id === 'c-a')!.value).toBe('$12.95');
  });

  it('numbers claims in order of first citation in reading order, title first', () => {
    const view = pageView(smallRecord(), { otherProjectionExists: false });
    expect(view.claims.map((c) => [c.number, c.id])).toEqual([
      [1, 'c-title'],
      [2, 'c-b'],
      [3, 'c-a'],
      [4, 'c-c'],
      [5, 'c-unused'],
      [6, 'c-only-conflict'],
    ]);
  });

  it('gives a block the numbers of its claims in the order it cites them', () => {
    const view = pageView(smallRecord(), { otherProjectionExists: false });
    expect(view.sections[0]!.blocks[0]!.citations.map((c) => c.number)).toEqual([2, 3]);
    expect(view.headline!.citations.map((c) => c.number)).toEqual([2]);
  });

  it('gives the same numbers when the page is built twice', () => {
    const numbers = () => pageView(smallRecord(), { otherProjectionExists: false }).claims.map((c) => `${c.number}:${c.id}`);
    expect(numbers()).toEqual(numbers());
  });

  it('links every claim back to each text block citing it, in reading order', () => {
    const view = pageView(smallRecord(), { otherProjectionExists: false });
    const byId = new Map(view.claims.map((c) => [c.id, c]));
    const [first, second] = view.sections[0]!.blocks;
    expect(byId.get('c-a')!.citedBy.map((b) => b.href)).toEqual([`#${first!.anchor}`, `#${second!.anchor}`]);
    expect(byId.get('c-b')!.citedBy.map((b) => b.href)).toEqual([`#${view.headline!.anchor}`, `#${first!.anchor}`]);
    expect(byId.get('c-c')!.citedBy.map((b) => b.place)).toEqual(['Decoration', 'Answer 1']);
    expect(byId.get('c-title')!.citedBy).toEqual([{ href: '#title', place: 'Title' }]);
    expect(byId.get('c-unused')!.citedBy).toEqual([]);
  });

  it('gives every text block a unique anchor', () => {
    const view = pageView(smallRecord(), { otherProjectionExists: false });
    const anchors = [view.headline!, ...view.sections.flatMap((s) => s.blocks), ...view.faq.map((f) => f.answer)].map((b) => b.anchor);
    expect(new Set(anchors).size).toBe(anchors.length);
  });

  it('leaves out empty sections and keeps the specification order', () => {
    const view = pageView(smallRecord(), { otherProjectionExists: false });
    expect(view.sections.map((s) => [s.key, s.heading, s.anchor])).toEqual([
      ['overview', 'Overview', 'overview'],
      ['decoration', 'Decoration', 'decoration'],
    ]);
    const contents = view.parts.filter((part) => part.shown).map((part) => part.anchor);
    expect(contents).not.toContain('when-it-fits');
    expect(contents).toContain('overview');
  });

  it('leaves out empty data collections and names them instead', () => {
    const record = smallRecord();
    record.data.reviews = [];
    const view = pageView(record, { otherProjectionExists: false });
    expect(view.collections.map((c) => c.name)).not.toContain('reviews');
    expect(view.emptyCollections).toContain('Reviews');
  });

  it('names the kind of each text block in words', () => {
    const view = pageView(smallRecord(), { otherProjectionExists: false });
    expect(view.sections[0]!.blocks.map((b) => b.kindLabel)).toEqual(['Fact', 'Interpretation']);
    expect(view.faq[0]!.answer.kindLabel).toBe('Navigation');
  });

  it('lists the conflicts a claim takes part in', () => {
    const view = pageView(smallRecord(), { otherProjectionExists: false });
    expect(view.claims.find((c) => c.id === 'c-only-conflict')!.conflicts).toEqual([{ href: '#conflict-k1', text: 'Brand' }]);
  });

  it('builds unique, safe anchors for claim ids holding any character', () => {
    const record = smallRecord();
    const ids = ['a b', 'a~20~b', '"><script>', 'ü', 'a_b'];
    record.claims.push(...ids.map((id) => claim(id)));
    const view = pageView(record, { otherProjectionExists: false });
    const anchors = view.claims.map((c) => c.anchor);
    expect(new Set(anchors).size).toBe(anchors.length);
    for (const anchor of anchors) expect(anchor).toMatch(/^claim-[A-Za-z0-9_.~-]+$/);
  });

  it('renders text block Markdown through the sanitising renderer', () => {
    const record = smallRecord();
    record.page.sections.overview = [block('<img src=x onerror=alert(1)> **bold** [x](javascript:alert(1))', ['c-a'])];
    const html = pageView(record, { otherProjectionExists: false }).sections[0]!.blocks[0]!.html.markup;
    expect(html).toContain('<strong>bold</strong>');
    expect(html).not.toMatch(/<img|javascript:/);
  });

  it('links the other projection only when its record exists', () => {
    expect(pageView(smallRecord(), { otherProjectionExists: false }).otherProjection).toBeNull();
    expect(pageView(smallRecord(), { otherProjectionExists: true }).otherProjection?.href).toBe(`/garments/${svcSample.slug}/tech/`);
  });

  it('marks every research status but complete as unfinished', () => {
    const record = smallRecord();
    for (const status of ['in_progress', 'complete_with_gaps', 'identity_unresolved', 'incomplete'] as const) {
      record.research.status = status;
      const { research } = pageView(record, { otherProjectionExists: false });
      expect(research.finished).toBe(false);
      expect(research.note).not.toBe('');
    }
    record.research.status = 'complete';
    expect(pageView(record, { otherProjectionExists: false }).research.finished).toBe(true);
  });

  it('falls back to the official name, then the slug, for the title and description', () => {
    const record = smallRecord();
    record.page.title = null;
    record.page.headline = null;
    record.data.identity.official_name = 'Official *Tee*';
    let view = pageView(record, { otherProjectionExists: false });
    expect(view.title).toBe('Official *Tee*');
    expect(view.meta.description).toBe('Commerce research record for Official *Tee*.');
    record.data.identity.official_name = null;
    record.catalog = null;
    view = pageView(record, { otherProjectionExists: false });
    expect(view.title).toBe(`Garment ${record.slug}`);
  });

  it('passes over an empty or blank official name for the title', () => {
    const record = smallRecord();
    record.page.title = null;
    record.data.identity.official_name = ' ';
    record.catalog!.title = 'Catalog Tee';
    let view = pageView(record, { otherProjectionExists: false });
    expect(view.title).toBe('Catalog Tee');
    record.data.identity.official_name = '';
    record.catalog = null;
    view = pageView(record, { otherProjectionExists: false });
    expect(view.title).toBe(`Garment ${record.slug}`);
  });

  it('gives a record one title everywhere: its page, its twins, the lists and JSON-LD, a blank page title passed over', () => {
    const record = smallRecord();
    record.page.title = { ...record.page.title!, text: '   ' };
    record.data.identity.official_name = null;
    record.catalog = null;
    const entry = siteEntryOf(record, 'x.json');
    const view = pageView(record, { otherProjectionExists: false });
    const ld = datasetJsonLd(datasetFacts(record), linksFor(entry, 'https://g.example', false)) as { name: string };
    expect([view.title, entry.title, ld.name]).toEqual(Array(3).fill(`Garment ${record.slug}`));
    expect(recordMarkdown(view, linksFor(entry, 'https://g.example', false)).join('')).toContain(`\n# Garment ${record.slug}`);
  });

  it('shows a description that repeats the headline once, its claims backing the headline', () => {
    const record = smallRecord();
    record.page.description = block('A **heavy** tee', ['c-unused']);
    const view = pageView(record, { otherProjectionExists: false });
    expect(view.description).toBeNull();
    expect(view.headline!.citations.map((c) => c.id)).toEqual(['c-b', 'c-unused']);
    const unused = view.claims.find((c) => c.id === 'c-unused')!;
    expect(unused.citedBy.map((b) => b.href)).toEqual([`#${view.headline!.anchor}`]);
  });

  it('shows a catalog measurement with its range unless the range is the value itself', () => {
    const record = smallRecord();
    const value = (size: string, v: string, min: string, max: string) => ({ size, value: v, min_value: min, max_value: max });
    record.catalog!.measurement_tables = [
      {
        type: 'finished',
        unit: 'in',
        rows: [{ label: 'Chest', values: [value('S', '20', '20', '20'), value('M', '22', '20', '20'), value('L', '24', '23', '25')] }],
      },
    ];
    const view = pageView(record, { otherProjectionExists: false });
    expect(view.catalog!.tables[0]!.rows[0]!.cells).toEqual(['20', '22 (20–20)', '24 (23–25)']);
  });

  it('lays a catalog table out with every size in order, a size a row lacks as not stated and one given twice with both values', () => {
    const record = smallRecord();
    const value = (size: string, v: string) => ({ size, value: v, min_value: v, max_value: v });
    record.catalog!.measurement_tables = [
      {
        type: 'finished',
        unit: 'in',
        rows: [
          { label: 'Chest', values: [value('M', '22'), value('L', '24')] },
          { label: 'Length', values: [value('S', '27'), value('M', '28'), value('L', '29'), value('S', '27.5')] },
        ],
      },
    ];
    const [table] = pageView(record, { otherProjectionExists: false }).catalog!.tables;
    expect(table!.sizes).toEqual(['S', 'M', 'L']);
    expect(table!.rows.map((row) => row.cells)).toEqual([
      ['Not stated', '22', '24'],
      ['27; 27.5', '28', '29'],
    ]);
  });

  it('gives repeated conflict, decision and gap ids distinct anchors, the first keeping the one links name', () => {
    const record = smallRecord();
    record.conflicts = [record.conflicts[0]!, { ...record.conflicts[0]! }];
    const gap = {
      id: 'g1',
      target: 'offers',
      reason: 'not_found',
      impact: 'i',
      next_action: 'n',
      owner: 'research',
      priority: 'future',
    } as const;
    record.gaps = [gap, { ...gap, priority: 'blocking' }, { ...gap, id: 'g1-2' }];
    const view = pageView(record, { otherProjectionExists: false });
    const conflictId = anchorToken(record.conflicts[0]!.id);
    expect(view.conflicts.map((c) => c.anchor)).toEqual([`conflict-${conflictId}`, `conflict-${conflictId}-2`]);
    // The third gap's own id takes gap-g1-2, so the repeat of g1 takes gap-g1-3.
    expect(view.gapGroups.flatMap((g) => g.gaps.map((x) => [x.id, x.anchor]))).toEqual([
      ['g1', 'gap-g1-3'],
      ['g1', 'gap-g1'],
      ['g1-2', 'gap-g1-2'],
    ]);
  });

  it('shows a measurement method as the free text it is, and a decoration method by its label', () => {
    const record = smallRecord();
    const measurement = record.data.measurements[0]!;
    record.data.measurements = [
      { ...measurement, method: 'ISO 3635-1981 steel_tape, laid flat' },
      { ...measurement, id: `${measurement.id}-b`, method: 'dtg' },
    ];
    record.data.decoration_methods = [{ ...record.data.decoration_methods[0]!, method: 'dtg' }];
    const view = pageView(record, { otherProjectionExists: false });
    const methods = (name: string) =>
      view.collections.find((c) => c.name === name)!.items.map((i) => i.fields.find((f) => f.name === 'method')?.parts[0]?.text ?? i.title);
    expect(methods('measurements')).toEqual(['ISO 3635-1981 steel_tape, laid flat', 'dtg']);
    expect(methods('decoration_methods')).toEqual(['DTG (direct to garment)']);
  });

  it('says what the research started from: the product input, and the seed field by field, codes as code', () => {
    const record = smallRecord();
    record.research.product_input = 'podtwo blueprint 3107, provider 63';
    record.research.seed = {
      unit: 'podtwo_native',
      catalog_title: 'Work Jacket',
      category_code: null,
      svc_skus: [],
      podone_product_id: null,
      podtwo_blueprint_ids: ['3107'],
      podtwo_print_provider_ids: ['63', '64'],
    };
    const { research, seed } = pageView(record, { otherProjectionExists: false });
    expect(research.productInput).toBe('podtwo blueprint 3107, provider 63');
    expect(seed.map((field) => [field.label, field.parts.map((part) => `${part.kind}:${part.text}`)])).toEqual([
      ['Kind', ['text:Podtwo native']],
      ['Catalog title', ['text:Work Jacket']],
      ['Podtwo blueprint ids', ['code:3107']],
      ['Podtwo print provider ids', ['code:63', 'code:64']],
    ]);
  });

  it('uses no image address that is not http(s)', () => {
    const record = smallRecord();
    record.images = [
      { kind: 'showcase', view: 'front', color_name: 'Black', url: 'javascript:alert(1)' },
      { kind: 'blank', view: 'back', color_name: null, url: 'data:image/png;base64,AAAA' },
      { kind: 'blank', view: 'label', color_name: null, url: 'https://img.example/label.jpg' },
    ];
    const view = pageView(record, { otherProjectionExists: false });
    expect(view.images.map((i) => i.src)).toEqual([null, null, 'https://img.example/label.jpg']);
    expect(view.images[0]!.alt).toBe('Tee: showcase, front view, Black');
    expect(view.leadImage?.src).toBe('https://img.example/label.jpg');
  });

  it('links a source only when its address is http(s)', () => {
    const record = smallRecord();
    record.sources = [
      { ...record.sources[0]!, id: 's-web', url: 'https://example.org/spec' },
      { ...record.sources[0]!, id: 's-js', url: 'javascript:alert(1)' },
    ];
    record.claims = [claim('c-a', { references: [{ source_id: 's-js', locator: 'p. 1', short_excerpt: null }] })];
    record.page.title = null;
    record.page.headline = null;
    record.page.sections.decoration = [];
    record.page.faq = [];
    record.conflicts = [];
    const view = pageView(record, { otherProjectionExists: false });
    expect(view.sources.map((s) => [s.url, s.unlinkedUrl])).toEqual([
      ['https://example.org/spec', null],
      [null, 'javascript:alert(1)'],
    ]);
    expect(view.claims[0]!.references[0]).toMatchObject({ sourceHref: '#source-s-js', url: null });
    expect(view.sources[1]!.citedBy.map((c) => c.id)).toEqual(['c-a']);
  });

  it('groups gaps by priority, most urgent first, leaving out empty groups', () => {
    const record = smallRecord();
    const gap = { target: 'offers', reason: 'not_found', impact: 'i', next_action: 'n', owner: 'research' } as const;
    record.gaps = [
      { id: 'g1', priority: 'future', ...gap },
      { id: 'g2', priority: 'blocking', ...gap },
      { id: 'g3', priority: 'future', ...gap },
    ];
    const view = pageView(record, { otherProjectionExists: false });
    expect(view.gapGroups.map((g) => [g.priority, g.gaps.map((x) => x.id)])).toEqual([
      ['blocking', ['g2']],
      ['future', ['g1', 'g3']],
    ]);
    expect(view.research.gapSummary).toBe('3 gaps (1 blocking)');
  });

  it('links a claim from the data item its target names', () => {
    const record = smallRecord();
    const offer = record.data.offers[0]!;
    record.claims = [claim('c-a', { targets: [`offers/${offer.id}/base_amount_minor`] })];
    const view = pageView(record, { otherProjectionExists: false });
    const item = view.collections.find((c) => c.name === 'offers')!.items.find((i) => i.id === offer.id)!;
    expect(item.anchor).toBe(`offers-${offer.id}`);
    expect(item.claims.map((c) => c.href)).toEqual([`#${claimAnchor('c-a')}`]);
    expect(view.claims[0]!.targets).toEqual([
      { text: `offers/${offer.id}/base_amount_minor`, href: `#offers-${offer.id}`, label: expect.stringMatching(/: base price$/) },
    ]);
  });
});

describe('resolveTarget', () => {
  const record = smallRecord() as GarmentRecord;
  const offerId = (record as CommerceRecord).data.offers[0]!.id;

  it.each([
    [`offers/${offerId}`, `#offers-${offerId}`],
    [`offers/${offerId}/base_amount_minor`, `#offers-${offerId}`],
    [`data/offers/${offerId}`, `#offers-${offerId}`],
    [`/data/offers/0`, `#offers-${offerId}`],
    [`data.offers.${offerId}.currency`, `#offers-${offerId}`],
    [`offers[${offerId}]`, `#offers-${offerId}`],
    [`${record.claim_target_base}/offers/${offerId}`, `#offers-${offerId}`],
    ['offers', '#data-offers'],
    ['identity/brand', '#data-identity'],
    ['conflicts/k1', '#conflict-k1'],
    ['claims/c-a', '#claim-c-a'],
  ])('resolves %s to %s', (target, href) => {
    expect(resolveTarget(target, record).href).toBe(href);
  });

  it.each([
    ['an item that does not exist', 'offers/no-such-offer'],
    ['a collection the projection does not show', 'assets/a1'],
    ['an index past the end', '/data/offers/999'],
    ['an unknown place', 'nowhere/at/all'],
    ['an empty target', '  '],
  ])('does not link %s', (_, target) => {
    expect(resolveTarget(target, record)).toEqual({ text: target, href: null });
  });

  it('does not link the identity when the page shows none of it', () => {
    const blank = copyOf(record);
    for (const key of Object.keys(blank.data.identity)) (blank.data.identity as unknown as Record<string, unknown>)[key] = null;
    blank.claims[0]!.targets = ['identity/style_code'];
    const view = pageView(blank, { otherProjectionExists: false });
    expect(view.identity).toEqual([]);
    expect(view.claims.find((claim) => claim.id === blank.claims[0]!.id)!.targets).toEqual([
      { text: 'identity/style_code', href: null, label: 'Style code' },
    ]);
  });
});

describe('anchorToken', () => {
  it('keeps fragment-safe characters and escapes the rest distinctly', () => {
    expect(anchorToken('c-weight_2.1')).toBe('c-weight_2.1');
    expect(anchorToken('a b')).toBe('a~20~b');
    expect(anchorToken('a b')).not.toBe(anchorToken('a~20~b'));
  });

  it('escapes a trailing line break of an otherwise safe id', () => {
    expect(anchorToken('c1\n')).toBe('c1~a~');
  });
});

describe('measurementGrids', () => {
  const measurement = (id: string, size: string, name: string, value: number | null, extra: Record<string, unknown> = {}) => ({
    id,
    size_label: size,
    measurement_name: name,
    value,
    unit: 'in',
    dataset_id: 'chart',
    scope: null,
    measurement_kind: 'finished_garment',
    ...extra,
  });
  const views = (items: { id: string }[]) => items.map((i) => ({ id: i.id, anchor: `measurements-${i.id}`, claims: [] }));

  it('lays measurements out as a size chart with each cell anchored as its item', () => {
    const items = [
      measurement('c-s', 'S', 'chest_width_flat', 19.5),
      measurement('c-m', 'M', 'chest_width_flat', 21),
      measurement('l-m', 'M', 'body_length_hps', 29),
    ];
    expect(measurementGrids(items, views(items))).toEqual([
      {
        caption: 'chart',
        sizes: ['S', 'M'],
        rows: [
          {
            label: 'Chest width flat, in',
            cells: [
              { text: '19.5', anchor: 'measurements-c-s', claims: [] },
              { text: '21', anchor: 'measurements-c-m', claims: [] },
            ],
          },
          { label: 'Body length (HPS), in', cells: [null, { text: '29', anchor: 'measurements-l-m', claims: [] }] },
        ],
      },
    ]);
  });

  it('gives each dataset its own chart', () => {
    const items = [
      measurement('a', 'M', 'chest_width_flat', 21),
      measurement('b', 'M', 'chest_width_flat', 53, { dataset_id: 'sample', unit: 'cm' }),
    ];
    expect(measurementGrids(items, views(items))!.map((g) => g.caption)).toEqual(['chart', 'sample']);
  });

  it('gives up when a value is missing or two values share a cell', () => {
    const missing = [measurement('a', 'M', 'chest_width_flat', null)];
    expect(measurementGrids(missing, views(missing))).toBeNull();
    const twice = [measurement('a', 'M', 'chest_width_flat', 21), measurement('b', 'M', 'chest_width_flat', 22)];
    expect(measurementGrids(twice, views(twice))).toBeNull();
  });
});
