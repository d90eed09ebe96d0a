// Issue 35, honest key facts: a fact whose sources disagree says so in words beside it, a fact backed
// only by unverified claims says that, and so do the card and search facts made from the same key facts.
import { describe, expect, it } from 'vitest';
import type { CommerceRecord, GarmentRecord, TechnicalRecord } from '../../../src/lib/record/index.ts';
import { cardFacts } from '../../../src/lib/site/card-facts.ts';
import type { ClaimLink } from '../../../src/lib/site/data-view.ts';
import { claimStanding, factDoubt } from '../../../src/lib/site/claim-standing.ts';
import { keyFacts } from '../../../src/lib/site/key-facts.ts';
import { doubtText, keyFactsView, type KeyFactRow } from '../../../src/lib/site/key-facts-view.ts';
import { copyOf, sampleRecords } from '../../support/records.ts';

const sample = (slugPart: string, projection: 'svc' | 'tech') =>
  copyOf(sampleRecords().find(({ record }) => record.slug.includes(slugPart) && record.projection === projection)!.record);
const tee = () => sample('tee', 'svc') as CommerceRecord;
const hoodieTech = () => sample('hoodie', 'tech') as TechnicalRecord;
const jacket = () => sample('jacket', 'svc') as CommerceRecord;

/** Claim links numbered in record order, as a page would number them. */
const linker = (record: GarmentRecord) => (ids: string[]) =>
  ids.map((id): ClaimLink => ({ id, number: record.claims.findIndex((c) => c.id === id) + 1, href: `#claim-${id}` }));
const rowsOf = (record: GarmentRecord) => keyFactsView(keyFacts(record), linker(record)).rows;
const row = (rows: KeyFactRow[], key: string) => rows.find((r) => r.key === key)!;

describe('factDoubt', () => {
  it('says the sources disagree when a claim behind the fact is in an unresolved conflict, with the values they give', () => {
    const record = hoodieTech();
    const standing = claimStanding(record);
    expect(factDoubt(standing, ['clm-weight-mfr', 'clm-gsm'])).toEqual({
      kind: 'disputed',
      values: [
        { value: 9, unit: 'oz/yd²' },
        { value: 8.5, unit: 'oz/yd²' },
      ],
    });
  });

  it('finds no doubt in a conflict that was resolved', () => {
    const record = hoodieTech();
    // The hood lining was resolved by scope: its claims put nothing in doubt.
    expect(factDoubt(claimStanding(record), ['clm-double-hood', 'clm-lined-hood-podtwo'])).toBeNull();
    record.conflicts.find((c) => c.id === 'cf-weight')!.resolution = 'reference_selected';
    expect(factDoubt(claimStanding(record), ['clm-weight-mfr'])).toBeNull();
  });

  it('says a fact is unverified only when every claim behind it is not verified', () => {
    const record = tee();
    const standing = claimStanding(record);
    expect(factDoubt(standing, ['clm-wrap'])).toEqual({ kind: 'unverified' });
    expect(factDoubt(standing, ['clm-wrap', 'clm-sizes'])).toBeNull();
    expect(factDoubt(standing, [])).toBeNull();
  });

  it('reads a claim marked conflicting that no conflict names as a disagreement of its own', () => {
    const record = jacket();
    expect(factDoubt(claimStanding(record), ['clm-lining-unknown'])).toEqual({
      kind: 'disputed',
      values: [{ value: { line_sheet: 'unlined', listing_photo_5: 'quilted lining visible' }, unit: null }],
    });
  });
});

describe('doubtText', () => {
  const disputed = (...values: [unknown, string | null][]) =>
    doubtText({ kind: 'disputed', values: values.map(([value, unit]) => ({ value, unit })) });

  it('says numbers of one unit as alternatives with the unit once, other values each as written', () => {
    expect(disputed([9, 'oz/yd²'], [8.5, 'oz/yd²'])).toBe('sources disagree: 9 or 8.5 oz/yd²');
    expect(disputed(['VN', null], ['MX', null])).toBe('sources disagree: VN or MX');
    expect(disputed([60, '%'], [65, '%'])).toBe('sources disagree: 60 or 65%');
    expect(doubtText({ kind: 'unverified' })).toBe('not verified');
    expect(doubtText(null)).toBeNull();
  });
});

describe('keyFactsView', () => {
  it('says beside the hoodie’s weight that the sources disagree, and nothing beside its undisputed fibres', () => {
    const fabric = rowsOf(hoodieTech()).find((r) => r.key === 'fabric')!;
    const [fibres, weight] = fabric.lines;
    expect(weight!.text).toBe('9 oz/yd² (305 g/m²)');
    expect(weight!.doubt).toBe('sources disagree: 9 or 8.5 oz/yd²');
    expect(fibres!.doubt).toBeNull();
  });

  it('says "not verified" beside a fact whose every claim is not verified', () => {
    const record = tee();
    for (const claim of record.claims) if (claim.targets.some((t) => t.startsWith('size_ranges/'))) claim.verification = 'not_verified';
    expect(row(rowsOf(record), 'sizes').lines[0]!.doubt).toBe('not verified');
    expect(row(rowsOf(tee()), 'sizes').lines[0]!.doubt).toBeNull();
  });

  it('gives the price row one price from, with its seller, basis and date, and each seller’s price folded beneath', () => {
    const record = tee();
    const price = row(rowsOf(record), 'price');
    const carolina = record.data.provider_listings.find((l) => l.provider_name === 'Carolina Print Co.')!;
    expect(price.lines).toHaveLength(1);
    expect(price.lines[0]!.text).toBe('From $11.42 at Carolina Print Co.');
    expect(price.lines[0]!.detail).toBe('list price, seen Nov 4, 2026');
    expect(price.folded!.summary).toBe(`Prices at ${record.data.provider_listings.length} sellers`);
    expect(price.folded!.lines.map((l) => l.text.split(':')[0])).toEqual(record.data.provider_listings.map((l) => l.provider_name));
    expect(price.folded!.lines.find((l) => l.text.startsWith(carolina.provider_name!))!.text).toContain('$11.42');
  });

  it('names a seller the record does not name by the site its price was read on, and its price by what it is for', () => {
    const price = row(rowsOf(jacket()), 'price');
    const unnamed = price.folded!.lines.at(-1)!;
    expect(unnamed.text).toBe('A seller at prairieworkwear.example: $24.75');
    expect(unnamed.detail).toBe('blank garment, wholesale price, from 12 pieces, seen Nov 16, 2026');
  });

  it('gathers a row’s claims, folded lines’ too, once each, by number: the row’s one link to its evidence', () => {
    const price = row(rowsOf(tee()), 'price');
    const numbers = price.claims.map((c) => c.number);
    expect(numbers).toEqual([...new Set(numbers)].sort((a, b) => a - b));
    const lines = [...price.lines, ...price.folded!.lines];
    expect(new Set(price.claims.map((c) => c.id))).toEqual(new Set(lines.flatMap((l) => l.claims.map((c) => c.id))));
    expect(price.claims.length).toBeGreaterThan(price.lines[0]!.claims.length);
  });

  it('links the size chart beside the sizes when the record has one', () => {
    const record = tee();
    expect(row(rowsOf(record), 'sizes').lines[0]!.link).toEqual({ text: 'Size chart', href: record.data.size_ranges[0]!.size_chart_url });
    for (const range of record.data.size_ranges) range.size_chart_url = 'javascript:alert(1)';
    record.catalog!.size_chart_image_url = null;
    expect(row(rowsOf(record), 'sizes').lines[0]!.link).toBeNull();
  });
});

describe('cardFacts', () => {
  it('says a card’s (and so a search result’s) fact is in doubt after its value', () => {
    expect(cardFacts(hoodieTech()).weight).toBe('9 oz/yd², 305 g/m² (sources disagree: 9 or 8.5 oz/yd²)');
    const record = tee();
    for (const claim of record.claims) if (claim.targets.some((t) => t.startsWith('offers/'))) claim.verification = 'not_verified';
    expect(cardFacts(record).price).toBe('$11.42 (not verified)');
    expect(cardFacts(tee()).price).toBe('$11.42');
  });

  it('sorts a price by its currency’s own minor digits where the record gives no exponent: ¥1,500 by 1,500, not 15', () => {
    const record = tee();
    record.data.offers = [{ ...record.data.offers[0]!, base_amount_minor: 1500, currency: 'JPY', minor_unit_exponent: null }];
    expect(cardFacts(record)).toMatchObject({ price: '¥1,500', priceValue: 1500 });
  });
});
