import { describe, expect, it } from 'vitest';
import { compareMessages } from '../../../src/lib/site/compare-messages.ts';
import { compareAddingPath, comparedGarment, comparedSlugs, comparePath, comparisonRows } from '../../../src/lib/site/comparison.ts';
import { recordTitle } from '../../../src/lib/site/record-title.ts';
import { hostileRecords, sampleRecords } from '../../support/records.ts';

const words = compareMessages();
const records = sampleRecords().map(({ record }) => record);
const recordOf = (slug: string, projection: 'svc' | 'tech') =>
  JSON.parse(JSON.stringify(records.find((record) => record.slug === slug && record.projection === projection) ?? null));
const TEE = 'ridgeline-rk6210-heavyweight-tee';
const HOODIE = 'harbor-pike-hp450-fleece-pullover-hoodie';
const twinsOf = (slug: string) => ({ slug, svc: recordOf(slug, 'svc'), tech: recordOf(slug, 'tech') });

describe('comparedSlugs', () => {
  it('keeps the slugs in the order asked, each once, at most four, and never a value that is no slug', () => {
    expect(comparedSlugs(['tee', 'hoodie', 'tee', '../etc', 'a', 'b', 'c', 'hoodie', '', ' jacket '])).toEqual({
      slugs: ['tee', 'hoodie', 'a', 'b'],
      repeated: ['tee', 'hoodie'],
      invalid: ['../etc'],
      beyond: ['c', 'jacket'],
    });
  });

  it.each(['<script>', 'Tee', 'a/b', 'a--b', '-a', 'javascript:alert(1)', 'x'.repeat(201)])('refuses %s', (value) => {
    expect(comparedSlugs([value]).invalid).toEqual([value]);
  });
});

describe('addresses', () => {
  it('writes one g per garment, and the adding address of a garment page', () => {
    expect(comparePath(['tee', 'hoodie'])).toBe('/compare/?g=tee&g=hoodie');
    expect(comparePath([])).toBe('/compare/');
    expect(compareAddingPath('tee')).toBe('/compare/?add=tee');
  });
});

describe('the price from, as the record pages write money', () => {
  /** The tee with one offer of this price only: its price from, then its seller and basis. */
  const priceFromOf = (amount: number, currency: string | null, exponent: number | null) => {
    const twins = twinsOf(TEE);
    twins.svc.data.offers = [{ ...twins.svc.data.offers[0], base_amount_minor: amount, currency, minor_unit_exponent: exponent }];
    return comparedGarment(twins, words).facts.get('priceFrom')![0]!;
  };

  it.each([
    [1295, 'USD', 2, '$12.95'],
    [1500, 'JPY', null, '¥1,500'],
    [1295, 'points', 2, '12.95 points'],
    [1295, null, 2, '12.95 (currency not stated)'],
    // A fraction of a minor unit is no money Intl writes: minor units as written, never a wrong amount or a thrown error.
    [12.5, 'USD', 2, '12.5 USD minor units (exponent 2)'],
    // Record text is filled in as written, never read as a replacement pattern or a placeholder.
    [12.5, "$&$'{exponent}", 2, "12.5 $&$'{exponent} minor units (exponent 2)"],
  ])('%i %s at exponent %s reads %s', (amount, currency, exponent, expected) => {
    expect(priceFromOf(amount, currency, exponent)).toBe(`${expected} (podone, Standard public)`);
  });

  it.each([-2, 25, 1_000_000_000])('is never an amount at exponent %i, which no money has (the schema allows any integer)', (exponent) => {
    const twins = twinsOf(TEE);
    twins.svc.data.offers = [{ ...twins.svc.data.offers[0], base_amount_minor: 1295, currency: 'USD', minor_unit_exponent: exponent }];
    expect(comparedGarment(twins, words).facts.get('priceFrom')).toEqual([]);
  });

  it('is never a negative amount: a credit in the offers is no price a shopper is asked', () => {
    const twins = twinsOf(TEE);
    const [first, second] = twins.svc.data.offers;
    twins.svc.data.offers = [
      { ...first, base_amount_minor: -500, currency: 'USD', minor_unit_exponent: 2 },
      { ...second, base_amount_minor: 1150, currency: 'USD', minor_unit_exponent: 2, price_basis: 'standard_public' },
    ];
    expect(comparedGarment(twins, words).facts.get('priceFrom')![0]).toMatch(/^\$11\.50 \(/);
    twins.svc.data.offers = [twins.svc.data.offers[0]];
    expect(comparedGarment(twins, words).facts.get('priceFrom')).toEqual([]);
  });
});

describe('comparedGarment and comparisonRows', () => {
  it("reads the tee's facts from its two records as its pages state them", () => {
    const tee = comparedGarment(twinsOf(TEE), words);
    const record = recordOf(TEE, 'svc');
    expect(tee.title).toBe('Ridgeline RK-6210 Heavyweight Tee');
    expect(tee.href).toBe(`/garments/${TEE}/`);
    expect(tee.pages.map((page) => page.href)).toEqual([`/garments/${TEE}/svc/`, `/garments/${TEE}/tech/`]);
    expect(tee.facts.get('brand')).toEqual([record.data.identity.brand]);
    expect(tee.facts.get('sizes')).toEqual([record.data.size_ranges[0].labels.join(', ')]);
    expect(tee.facts.get('colors')).toEqual([
      record.data.colors.map((color: { manufacturer_name: string }) => color.manufacturer_name).join(', '),
    ]);
    // The lowest public price among the offers.
    const lowest = Math.min(
      ...record.data.offers
        .filter((offer: { price_basis: string }) => offer.price_basis === 'standard_public')
        .map((offer: { base_amount_minor: number }) => offer.base_amount_minor),
    );
    expect(tee.facts.get('priceFrom')![0]).toMatch(new RegExp(`^\\$${(lowest / 100).toFixed(2)} \\(`));
    expect(tee.facts.get('weight')).toContain('Body jersey, solid colours: 6.5 oz/yd² (220 g/m²)');
    expect(tee.facts.get('measurement:Chest width flat (in)')).toEqual(['S: 19.5 · M: 21 · L: 22.5 · XL: 24 · 2XL: 25.5 · 3XL: 27']);
  });

  it('puts garments side by side: a cell per garment in every row, empty where a garment does not say', () => {
    const garments = [comparedGarment(twinsOf(TEE), words), comparedGarment(twinsOf(HOODIE), words)];
    const rows = comparisonRows(garments, words);
    expect(rows.slice(0, 7).map((row) => row.label)).toEqual([
      words.brand,
      words.category,
      words.priceFrom,
      words.sizes,
      words.colors,
      words.fabric,
      words.weight,
    ]);
    for (const row of rows) expect(row.cells).toHaveLength(2);
    const hood = rows.find((row) => row.label === 'Hood height (cm)')!;
    expect(hood.cells[0]).toEqual([]);
    expect(hood.cells[1]).not.toEqual([]);
  });

  it('reads a garment with one record, and a twin of the wrong shape, without failing', () => {
    const techOnly = comparedGarment({ slug: TEE, svc: null, tech: recordOf(TEE, 'tech') }, words);
    expect(techOnly.facts.get('priceFrom')).toEqual([]);
    expect(techOnly.pages.map((page) => page.label)).toEqual([words.technical]);
    for (const junk of [42, 'text', [], { data: 7 }, { data: { offers: 'x', colors: [null, 3], identity: [] }, page: { title: 5 } }]) {
      const garment = comparedGarment({ slug: 'junk', svc: junk, tech: null }, words);
      expect(garment.title).toBe('junk');
      expect(comparisonRows([garment], words).every((row) => row.cells[0]!.length === 0)).toBe(true);
    }
  });

  it("says a fact's doubt after it, as the key facts do: sources that disagree, claims all unverified", () => {
    const hoodie = comparedGarment(twinsOf(HOODIE), words);
    expect(hoodie.facts.get('weight')![0]).toBe(
      'Three-end brushed fleece, solid colours: 9 oz/yd² (305 g/m²) (sources disagree: 9 or 8.5 oz/yd²)',
    );
    expect(hoodie.facts.get('weight')![1]).not.toContain('disagree');
    const unverified = recordOf(TEE, 'svc');
    for (const claim of unverified.claims) claim.verification = 'not_verified';
    const tee = comparedGarment({ slug: TEE, svc: unverified, tech: null }, words);
    expect(tee.facts.get('priceFrom')![0]).toMatch(/ \(not verified\)$/);
    expect(tee.facts.get('sizes')![0]).toMatch(/3XL \(not verified\)$/);
    // Claims of the wrong shape put nothing in doubt, and fail nothing.
    const odd = recordOf(TEE, 'svc');
    odd.claims = [{ id: 7, targets: 'offers' }];
    expect(comparedGarment({ slug: TEE, svc: odd, tech: null }, words).facts.get('sizes')![0]).toMatch(/3XL$/);
  });

  it("keeps a hostile record's text as text: it is never read as markup (the script sets it with textContent)", () => {
    const hostile = recordOf(TEE, 'svc');
    hostile.data.identity.brand = '<img src=x onerror=alert(1)>';
    hostile.page.title.text = '<script>alert(1)</script>';
    const garment = comparedGarment({ slug: TEE, svc: hostile, tech: null }, words);
    expect(garment.facts.get('brand')).toEqual(['<img src=x onerror=alert(1)>']);
    expect(garment.title).toBe('<script>alert(1)</script>');
  });

  it('names each garment as its pages do, without a Markdown parser', () => {
    const titled = (text: string) => {
      const record = recordOf(TEE, 'svc');
      record.page.title.text = text;
      return [comparedGarment({ slug: TEE, svc: record, tech: null }, words).title, recordTitle(record)];
    };
    for (const text of [
      'Tee [click](javascript:alert(1)) here',
      '**Heavy** _tee_ for snake_case fans',
      '`code` ~~struck~~ tee',
      ...hostileRecords().map(({ record }) => record.page.title!.text),
    ]) {
      const [shown, onPages] = titled(text);
      expect(shown, text).toBe(onPages);
    }
  });
});
