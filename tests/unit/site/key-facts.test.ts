import { describe, expect, it } from 'vitest';
import type { CommerceRecord, TechnicalRecord } from '../../../src/lib/record/index.ts';
import { claimsByData, claimsOn, targetPath } from '../../../src/lib/site/claim-targets.ts';
import { colorSwatch } from '../../../src/lib/site/color-swatch.ts';
import { commerceFacts, keyFacts, technicalFacts } from '../../../src/lib/site/key-facts.ts';
import { copyOf, sampleRecords } from '../../support/records.ts';

const sample = (slugPart: string, projection: 'svc' | 'tech') =>
  copyOf(sampleRecords().find(({ record }) => record.slug.includes(slugPart) && record.projection === projection)!.record);
const tee = () => sample('tee', 'svc') as CommerceRecord;
const hoodieTech = () => sample('hoodie', 'tech') as TechnicalRecord;

describe('targetPath', () => {
  it('reads every spelling of a target the same way', () => {
    for (const target of [
      'offers/o1/currency',
      'data/offers/o1/currency',
      '/data/offers/o1/currency',
      'data.offers[o1].currency',
      'garment:x#offers/o1/currency',
    ]) {
      expect(targetPath(target, 'garment:x')).toEqual({ head: 'offers', item: 'o1', field: 'currency' });
    }
  });

  it('decodes JSON pointer escapes and gives null for an empty target', () => {
    expect(targetPath('/data/identity/a~1b', '')).toEqual({ head: 'identity', item: 'a/b', field: undefined });
    expect(targetPath(' / ', '')).toBeNull();
  });
});

describe('claimsByData', () => {
  it('indexes claims by item and field, an item given by index under its id', () => {
    const record = tee();
    record.claims[0]!.targets = ['/data/offers/1/base_amount_minor'];
    const index = claimsByData(record);
    expect(index.get(`offers/${record.data.offers[1]!.id}/base_amount_minor`)).toContain(record.claims[0]!.id);
    expect(index.get('identity/country_of_origin')).toEqual(['clm-origin']);
  });

  it('ignores targets outside the data and items the record does not have', () => {
    const record = tee();
    record.claims = [{ ...record.claims[0]!, id: 'c', targets: ['sources/s1', 'offers/no-such-offer/currency', 'offers/999'] }];
    expect([...claimsByData(record).keys()]).toEqual([]);
  });
});

describe('claimsOn', () => {
  it('gives the claims on the named fields and on whole items, once each', () => {
    const index = new Map([
      ['colors/black', ['c1']],
      ['colors/black/color_values', ['c2', 'c1']],
      ['colors/black/notes', ['c3']],
    ]);
    expect(claimsOn(index, 'colors', ['black'], ['color_values'])).toEqual(['c1', 'c2']);
    expect(claimsOn(new Map([['identity/brand', ['c4']]]), 'identity', [], ['brand'])).toEqual(['c4']);
  });
});

describe('colorSwatch', () => {
  it('converts CIELAB values to sRGB', () => {
    expect(colorSwatch('CIELAB (D65/10°)', [100, 0, 0])).toBe('#ffffff');
    expect(colorSwatch('CIELAB', [0, 0, 0])).toBe('#000000');
    // Navy: dark and blue.
    const navy = colorSwatch('CIELAB (D65/10°)', [21.7, 1.9, -14.6])!;
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(navy.slice(i, i + 2), 16));
    expect(b).toBeGreaterThan(r!);
    expect(b).toBeGreaterThan(g!);
    expect(b).toBeLessThan(100);
  });

  it('reads sRGB values on either scale', () => {
    expect(colorSwatch('sRGB', [255, 128, 0])).toBe('#ff8000');
    expect(colorSwatch('RGB', [1, 0, 0.5])).toBe('#ff0080');
  });

  it('gives no swatch for spaces it cannot convert or values out of range', () => {
    expect(colorSwatch('CMYK', [0, 0, 0])).toBeNull();
    expect(colorSwatch('Display P3 RGB', [1, 0, 0])).toBeNull();
    expect(colorSwatch('CIELAB', [120, 0, 0])).toBeNull();
    expect(colorSwatch('sRGB', [300, 0, 0])).toBeNull();
    expect(colorSwatch('CIELAB', [50, 0])).toBeNull();
    expect(colorSwatch(null, [50, 0, 0])).toBeNull();
    expect(colorSwatch('CIELAB', null)).toBeNull();
  });
});

describe('commerceFacts', () => {
  it('gives each provider a price range per basis, the public basis first, with the claims on those offers', () => {
    const record = tee();
    const facts = commerceFacts(record);
    const podone = record.data.provider_listings.find((l) => l.platform === 'podone')!;
    const prices = facts.prices.find((p) => p.listingId === podone.id)!;
    expect(prices.name).toBe(podone.provider_name);
    const publicOffers = record.data.offers.filter((o) => o.provider_listing_id === podone.id && o.price_basis === 'standard_public');
    const amounts = publicOffers.map((o) => o.base_amount_minor!);
    expect(prices.ranges[0]).toMatchObject({
      basis: 'standard_public',
      low: { amountMinor: Math.min(...amounts), currency: 'USD', exponent: 2 },
      high: { amountMinor: Math.max(...amounts) },
      offerIds: publicOffers.map((o) => o.id),
      observedAt: publicOffers[0]!.observed_at,
    });
    const claimed = record.claims.filter((c) => c.targets.some((t) => publicOffers.some((o) => t.startsWith(`offers/${o.id}/`))));
    expect(prices.ranges[0]!.claimIds.sort()).toEqual(claimed.map((c) => c.id).sort());
    expect(prices.ranges.map((r) => r.basis)).toEqual(['standard_public', 'standard_authenticated', 'membership_discounted']);
  });

  it('names a seller and a colour by the next name the record gives when a name is empty or blank', () => {
    const record = tee();
    for (const listing of record.data.provider_listings) listing.provider_name = listing.id === 'pl-podone' ? '' : '  ';
    for (const color of record.data.colors) color.manufacturer_name = '';
    record.data.colors[0]!.supplier_names = ['', 'Jet'];
    const facts = commerceFacts(record);
    expect(facts.prices.map((prices) => prices.name)).toEqual(record.data.provider_listings.map((listing) => listing.catalog_title));
    expect(facts.stock.map((stock) => stock.name).every((name) => name !== null && name.trim() !== '')).toBe(true);
    expect(facts.colors[0]!.name).toBe(record.data.colors[0]!.id);
    expect(facts.colors[1]!.name).toBe(record.data.colors[1]!.supplier_names![0]);
  });

  it('keeps every priced offer in exactly one range', () => {
    const record = tee();
    const inRanges = commerceFacts(record).prices.flatMap((p) => p.ranges.flatMap((r) => r.offerIds));
    expect(inRanges.sort()).toEqual(
      record.data.offers
        .filter((o) => o.base_amount_minor !== null)
        .map((o) => o.id)
        .sort(),
    );
  });

  it('gives the lowest public price as the price from, not a cheaper price of another basis', () => {
    const record = tee();
    const facts = commerceFacts(record);
    const publicAmounts = record.data.offers.filter((o) => o.price_basis === 'standard_public').map((o) => o.base_amount_minor!);
    expect(facts.priceFrom!.money.amountMinor).toBe(Math.min(...publicAmounts));
    expect(facts.priceFrom!.basis).toBe('standard_public');
    // The wholesale case price is lower, but on a volume basis.
    expect(Math.min(...record.data.offers.map((o) => o.base_amount_minor!))).toBeLessThan(facts.priceFrom!.money.amountMinor);
  });

  it('never gives a negative amount as a price: it stays in the offers, out of the prices and the price from', () => {
    const record = tee();
    const credit = { ...record.data.offers[0]!, id: 'credit', base_amount_minor: -500, price_basis: 'standard_public' as const };
    const before = commerceFacts(record);
    record.data.offers.push(credit);
    const after = commerceFacts(record);
    expect(after.priceFrom).toEqual(before.priceFrom);
    expect(after.prices).toEqual(before.prices);
    expect(after.priceFrom!.money.amountMinor).toBeGreaterThan(0);
  });

  it('never gives an amount at an exponent no money has as the price from: a billion minor digits reads as nearly 0', () => {
    const record = tee();
    const before = commerceFacts(record);
    record.data.offers.push({ ...record.data.offers[0]!, id: 'tiny', minor_unit_exponent: 1_000_000_000, price_basis: 'standard_public' });
    const after = commerceFacts(record);
    expect(after.priceFrom).toEqual(before.priceFrom);
    expect(after.prices).toEqual(before.prices);
  });

  it('falls back to the lowest price of any basis, and to none without prices', () => {
    const record = tee();
    for (const offer of record.data.offers) offer.price_basis = offer.price_basis === 'standard_public' ? 'promotional' : offer.price_basis;
    const lowest = Math.min(...record.data.offers.map((o) => o.base_amount_minor!));
    expect(commerceFacts(record).priceFrom!.money.amountMinor).toBe(lowest);
    for (const offer of record.data.offers) offer.base_amount_minor = null;
    expect(commerceFacts(record)).toMatchObject({ prices: [], priceFrom: null });
  });

  it('reads an offer naming no listing as a provider of its own, last', () => {
    const record = tee();
    record.data.offers[0]!.provider_listing_id = null;
    const prices = commerceFacts(record).prices;
    expect(prices.at(-1)).toMatchObject({ listingId: null, name: null });
    expect(prices.at(-1)!.ranges[0]!.offerIds).toEqual([record.data.offers[0]!.id]);
  });

  it('gives the sizes, colours with swatches and names, stock and decoration methods', () => {
    const record = tee();
    const facts = commerceFacts(record);
    expect(facts.sizes).toEqual({
      value: {
        labels: record.data.size_ranges[0]!.labels,
        system: record.data.size_ranges[0]!.size_system,
        fit: record.data.size_ranges[0]!.manufacturer_fit_term,
        chartUrl: record.data.size_ranges[0]!.size_chart_url,
      },
      claimIds: ['clm-sizes'],
    });
    expect(facts.colors.map((c) => c.name)).toEqual(record.data.colors.map((c) => c.manufacturer_name));
    expect(facts.colors.every((c) => /^#[0-9a-f]{6}$/.test(c.swatch!))).toBe(true);
    expect(facts.colors[0]!.claimIds).toEqual(['clm-colors']);
    const variants = record.data.provider_variants;
    const stockTotal = facts.stock.reduce((n, s) => n + s.inStock + s.outOfStock + s.unknown, 0);
    expect(stockTotal).toBe(variants.length);
    expect(facts.stock.reduce((n, s) => n + s.inStock, 0)).toBe(variants.filter((v) => v.in_stock === true).length);
    const dtg = facts.decoration.find((d) => d.method === 'dtg')!;
    expect(dtg.supported).toBe(true);
    expect(dtg.claimIds).toContain('clm-dtg-supported');
    expect(facts.decoration.find((d) => d.method === 'screen_print')!.supported).toBe(false);
  });

  it('says a colour without values has no swatch, and sizes come from variants when no range lists any', () => {
    const record = tee();
    record.data.colors[0]!.color_values = null;
    for (const range of record.data.size_ranges) range.labels = null;
    const facts = commerceFacts(record);
    expect(facts.colors[0]!.swatch).toBeNull();
    expect(facts.sizes.value!.labels).toEqual([...new Set(record.data.variants.map((v) => v.size_label))]);
    record.data.variants = [];
    record.data.provider_listings.forEach((l) => (l.available_size_labels = null));
    expect(commerceFacts(record).sizes).toEqual({ value: null, claimIds: [] });
  });

  it('links the next step only to a web address', () => {
    const record = tee();
    expect(commerceFacts(record).nextStep).toEqual({ label: record.page.cta_label, url: record.catalog!.launch_url });
    record.catalog!.launch_url = 'javascript:alert(1)';
    expect(commerceFacts(record).nextStep).toBeNull();
    record.catalog = null;
    expect(commerceFacts(record).nextStep).toBeNull();
  });
});

describe('technicalFacts', () => {
  it('gives each fabric its fibres, weight in both units, construction and knit or woven, with claims', () => {
    const record = hoodieTech();
    const facts = technicalFacts(record);
    const profile = record.data.material_profiles[0]!;
    const fabric = facts.fabrics[0]!;
    expect(fabric.fibres.value).toEqual(profile.fiber_names!.map((name, i) => ({ name, percent: profile.fiber_percentages![i] })));
    expect(fabric.weight.value).toEqual({
      original: { value: profile.weight_original, unit: profile.weight_original_unit },
      gsm: profile.weight_gsm,
      basis: profile.weight_basis,
    });
    expect(fabric.construction.value).toBe(profile.fabric_construction);
    expect(fabric.knitOrWoven.value).toBe(profile.knit_or_weave);
    const weightClaims = record.claims.filter((c) =>
      c.targets.some((t) => /^material_profiles\/[^/]+\/weight_/.test(t) && t.includes(`/${profile.id}/`)),
    );
    expect(fabric.weight.claimIds.sort()).toEqual(weightClaims.map((c) => c.id).sort());
  });

  it('states a missing weight and fibres as null', () => {
    const record = hoodieTech();
    const profile = record.data.material_profiles[0]!;
    profile.weight_original = null;
    profile.weight_gsm = null;
    profile.fiber_names = null;
    const fabric = technicalFacts(record).fabrics[0]!;
    expect(fabric.weight.value).toBeNull();
    expect(fabric.fibres.value).toBeNull();
  });

  it('lists points of measure with the sizes measured, and assets with their rights', () => {
    const record = hoodieTech();
    const facts = technicalFacts(record);
    const names = [...new Set(record.data.measurements.map((m) => m.measurement_name).filter(Boolean))];
    expect(facts.measurePoints.map((p) => p.name)).toEqual(names);
    const first = facts.measurePoints[0]!;
    expect(first.sizes).toEqual([
      ...new Set(record.data.measurements.filter((m) => m.measurement_name === first.name).map((m) => m.size_label)),
    ]);
    expect(facts.assets.map((a) => a.id)).toEqual(record.data.assets.map((a) => a.id));
    const asset = record.data.assets[0]!;
    expect(facts.assets[0]).toMatchObject({
      licenseStatus: asset.license_status,
      rights: {
        redistribution: asset.redistribution_allowed,
        training: asset.training_allowed,
        manufacturing: asset.manufacturing_allowed,
        derivatives: asset.derivatives_allowed,
      },
    });
  });
});

describe('keyFacts', () => {
  it('gives the facts of the record’s projection', () => {
    for (const { record } of sampleRecords()) expect(keyFacts(record).projection).toBe(record.projection);
  });
});

describe('prices in a currency without minor digits', () => {
  it("compares yen by the currency's own exponent when an offer gives none: ¥1,500 is cheaper than ¥2,000", () => {
    const record = tee();
    const [first, ...others] = record.data.offers.filter((o) => o.price_basis === 'standard_public');
    for (const offer of record.data.offers) Object.assign(offer, { currency: 'JPY', base_amount_minor: 2000, minor_unit_exponent: null });
    Object.assign(first!, { base_amount_minor: 1500, minor_unit_exponent: 0 });
    expect(others.length).toBeGreaterThan(0);
    // Key facts used to read an offer without an exponent as cents, ¥2,000 as ¥20, and gave it as the price from.
    expect(commerceFacts(record).priceFrom!.money).toEqual({ amountMinor: 1500, currency: 'JPY', exponent: 0 });
  });
});
