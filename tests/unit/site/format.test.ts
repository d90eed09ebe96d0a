import { describe, expect, it } from 'vitest';
import {
  enumLabel,
  fieldLabel,
  formatBoolean,
  formatDate,
  formatDuration,
  formatMoney,
  formatRange,
  formatValue,
  researchStatusLabel,
  researchStatusNote,
} from '../../../src/lib/site/format.ts';
import { decimalFromMinor, formatNumber } from '../../../src/lib/site/number-text.ts';
import { isoDate } from '../../../src/lib/record/timestamp.ts';
import { fieldViews } from '../../../src/lib/site/data-view.ts';

describe('formatDuration', () => {
  it('says a duration in the largest unit that says it exactly, one or many', () => {
    expect([60_000, 300_000, 3_600_000, 7_200_000, 90_000, 1_000].map(formatDuration)).toEqual([
      '1 minute',
      '5 minutes',
      '1 hour',
      '2 hours',
      '90 seconds',
      '1 second',
    ]);
  });
});

describe('formatMoney', () => {
  it('formats US dollars from cents with exponent 2', () => {
    expect(formatMoney(1299, 'USD', 2)).toBe('$12.99');
    expect(formatMoney(5, 'USD', 2)).toBe('$0.05');
    expect(formatMoney(123456789, 'USD', 2)).toBe('$1,234,567.89');
  });

  it('formats yen with exponent 0 and no decimals', () => {
    expect(formatMoney(1500, 'JPY', 0)).toBe('¥1,500');
  });

  it('formats a currency with three minor digits', () => {
    expect(formatMoney(12345, 'KWD', 3)).toBe('KWD\u00a012.345');
  });

  it('keeps the sign of a negative amount', () => {
    expect(formatMoney(-500, 'USD', 2)).toBe('-$5.00');
    expect(formatMoney(-5, 'USD', 2)).toBe('-$0.05');
  });

  it('returns null when there is no amount', () => {
    expect(formatMoney(null, 'USD', 2)).toBeNull();
    expect(formatMoney(undefined, 'USD', 2)).toBeNull();
  });

  it("uses the currency's own digits when the exponent is missing", () => {
    expect(formatMoney(1500, 'JPY', null)).toBe('¥1,500');
    expect(formatMoney(1500, 'USD', null)).toBe('$15.00');
  });

  it('accepts a lower-case currency code', () => {
    expect(formatMoney(1299, 'usd', 2)).toBe('$12.99');
  });

  it('says so when the currency is not stated', () => {
    expect(formatMoney(1299, null, 2)).toBe('12.99 (currency not stated)');
  });

  it('shows an unknown currency code after the number instead of failing', () => {
    expect(formatMoney(1299, '<b>', 2)).toBe('12.99 <b>');
  });

  it('shows an amount as given when its exponent is past what a currency has, instead of failing', () => {
    expect(formatMoney(1295, 'USD', -1)).toBe('1,295 USD minor units (exponent -1)');
    expect(formatMoney(1295, null, 1_000_000_000)).toBe('1,295 minor units (exponent 1000000000)');
    expect(formatMoney(1295, 'USD', 21)).toBe('1,295 USD minor units (exponent 21)');
    expect(formatMoney(1295, 'USD', 20)).toBe('$0.00000000000000001295');
  });

  it('shows a fraction of a minor unit as given, and a claim unit with an exponent no currency has as written', () => {
    expect(formatMoney(12.5, 'USD', 2)).toBe('12.5 USD minor units (exponent 2)');
    expect(formatValue(5, `USD minor units (exponent ${'9'.repeat(309)})`)).toBe(`5 USD minor units (exponent ${'9'.repeat(309)})`);
  });

  it('does not round through floating point', () => {
    expect(formatMoney(1000000000000001, 'USD', 2)).toBe('$10,000,000,000,000.01');
  });
});

describe('decimalFromMinor', () => {
  it('places the decimal point by the exponent', () => {
    expect(decimalFromMinor(1299, 2)).toBe('12.99');
    expect(decimalFromMinor(-5, 2)).toBe('-0.05');
    expect(decimalFromMinor(1500, 0)).toBe('1500');
    expect(decimalFromMinor(1e21, 2)).toBe('10000000000000000000.00');
    expect(formatMoney(1e21, 'USD', 2)).toBe('$10,000,000,000,000,000,000.00');
  });
});

describe('formatDate', () => {
  it('formats an ISO timestamp as a date in UTC', () => {
    expect(formatDate('2026-11-08T23:30:00Z')).toBe('November 8, 2026');
    expect(formatDate('2026-11-08')).toBe('November 8, 2026');
  });

  it('returns text that is not a date unchanged', () => {
    expect(formatDate('spring 2026')).toBe('spring 2026');
    expect(formatDate('<script>')).toBe('<script>');
  });

  it('reads a date on the calendar of the offset it was written in, and one without an offset as UTC, wherever the build runs', () => {
    expect(formatDate('2026-11-08T23:30:00-05:00')).toBe('November 8, 2026');
    expect(formatDate('2026-11-08T00:30:00+14:00')).toBe('November 8, 2026');
    expect(formatDate('2026-11-08T00:30:00')).toBe('November 8, 2026');
    expect(isoDate('2026-11-08T00:30:00')).toBe('2026-11-08T00:30:00.000Z');
    expect(isoDate('2026-11-08T23:30:00-05:00')).toBe('2026-11-09T04:30:00.000Z');
  });

  it('shows a year and month as the month, without making up a day', () => {
    expect(formatDate('2026-11')).toBe('November 2026');
    expect(isoDate('2026-11')).toBe('2026-11');
    expect(isoDate('2026-11-08')).toBe('2026-11-08');
  });

  it('gives no date for days, hours or offsets that do not exist', () => {
    for (const value of [
      '2026-02-29',
      '2026-13',
      '2026-00-10',
      '2026-04-31',
      '2026-11-08T24:00:00Z',
      '2026-11-08T10:60Z',
      '2026-11-08T10:00+19:00',
      '2026-11-08T12:00:00+05:60',
      '2026-11-08T12:00+0599',
      '0000-01-01',
      'soon',
    ]) {
      expect(isoDate(value), value).toBeNull();
      expect(formatDate(value), value).toBe(value);
    }
    expect(isoDate('2024-02-29')).toBe('2024-02-29');
    expect(isoDate('0400-02-29')).toBe('0400-02-29');
    expect(isoDate('0099-12-31')).toBe('0099-12-31');
    // An offset that moves the instant past year 9999 leaves no four-digit year to write.
    expect(isoDate('9999-12-31T23:00:00-05:00')).toBeNull();
  });

  it('gives a machine-readable date only for real dates', () => {
    expect(isoDate('2026-11-08T10:00:00Z')).toBe('2026-11-08T10:00:00.000Z');
    expect(isoDate('2026-11-08T10:00:00.25+05:30')).toBe('2026-11-08T04:30:00.250Z');
    expect(isoDate('soon')).toBeNull();
  });
});

describe('formatNumber and formatRange', () => {
  it('groups digits and attaches the unit', () => {
    expect(formatNumber(1234.5, 'g/m²')).toBe('1,234.5 g/m²');
    expect(formatNumber(60, '%')).toBe('60%');
    expect(formatNumber(3)).toBe('3');
  });

  it('writes every number as Intl does, whether or not it takes the fast path', () => {
    const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });
    const numbers = [
      0,
      7,
      -42,
      999,
      1000,
      -1000,
      0.1 + 0.2,
      19.5,
      -3.25,
      999.9999995,
      0.000001,
      5e-7,
      123.4567891,
      1e21,
      Number.NaN,
      Infinity,
    ];
    for (const value of numbers) expect(formatNumber(value), String(value)).toBe(intl.format(value));
  });

  it('writes -0, which a record may hold, as 0 (Intl writes "-0")', () => {
    expect([formatNumber(-0, 'oz/yd²'), formatNumber(-0), formatRange(-0, 5, 'cm')]).toEqual(['0 oz/yd²', '0', '0 to 5 cm']);
  });

  it('never shows a number too small for six decimals as 0', () => {
    expect(formatNumber(1e-7, 'mm')).toBe('0.0000001 mm');
    expect(formatNumber(-1.23456789e-9)).toBe('-0.00000000123457');
  });

  it('says the same of a repeated date each time', () => {
    expect([formatDate('2026-01-02'), formatDate('2026-01-02'), formatDate('later'), formatDate('later')]).toEqual([
      'January 2, 2026',
      'January 2, 2026',
      'later',
      'later',
    ]);
  });

  it('joins a minimum and a maximum, or shows the one given', () => {
    expect(formatRange(2, 5, 'days')).toBe('2 to 5 days');
    expect(formatRange(3, null, 'days')).toBe('3 days or more');
    expect(formatRange(144, null)).toBe('144 or more');
    expect(formatRange(null, 5, 'days')).toBe('up to 5 days');
    expect(formatRange(4, 4)).toBe('4');
    expect(formatRange(null, null)).toBeNull();
  });
});

describe('formatValue', () => {
  it('says a blank string is blank text, rather than show nothing', () => {
    expect(formatValue('')).toBe('Blank text');
    expect(formatValue('   ', 'in')).toBe('Blank text');
    expect(formatValue({ note: '' })).toBe('note: Blank text');
  });

  it('formats any JSON value of a claim on one line with its unit', () => {
    expect(formatValue(220, 'g/m²')).toBe('220 g/m²');
    expect(formatValue('side-seamed')).toBe('side-seamed');
    expect(formatValue(true)).toBe('Yes');
    expect(formatValue(null)).toBe('No value');
    expect(formatValue(['S', 'M'])).toBe('S, M');
    expect(formatValue({ S: 19.5, M: 21 }, 'in')).toBe('S: 19.5 in; M: 21 in');
    expect(formatValue({ cotton: 90, polyester: 10 }, '%')).toBe('cotton: 90%; polyester: 10%');
    expect(formatValue([])).toBe('None');
  });

  it('shows a number in minor currency units as money', () => {
    expect(formatValue(1295, 'USD minor units (exponent 2)')).toBe('$12.95 (1,295 USD minor units (exponent 2))');
  });

  it("shows minor units without an exponent as money by the currency's own digits, and only for a currency", () => {
    expect(formatValue(3200, 'USD minor units')).toBe('$32.00 (3,200 USD minor units)');
    expect(formatValue(1500, 'JPY minor units')).toBe('¥1,500 (1,500 JPY minor units)');
    expect(formatValue(5, 'the minor units')).toBe('5 the minor units');
    expect(formatValue(5, 'USD minor units, exponent 100')).toBe('5 USD minor units, exponent 100');
  });

  it('says a number in minor units once when it cannot be money: a fraction of a minor unit, an exponent past any currency', () => {
    expect(formatValue(12.5, 'USD minor units')).toBe('12.5 USD minor units');
    expect(formatValue(3200, 'USD minor units (exponent 40)')).toBe('3,200 USD minor units (exponent 40)');
  });

  it('shows lists and objects eight levels deep, deeper ones as an ellipsis, however deep the value goes', () => {
    expect(formatValue({ a: [[1, { b: 2 }]] })).toBe('a: 1, b: 2');
    let deep: unknown = 'bottom';
    for (let level = 0; level < 200_000; level++) deep = [deep];
    expect(formatValue({ a: { b: deep } })).toBe('a: b: …');
    expect(formatValue([[[[[[[['eight']]]]]]]])).toBe('eight');
    expect(formatValue([[[[[[[[['nine']]]]]]]]])).toBe('…');
  });
});

describe('labels', () => {
  it('labels enumeration values, with words for values without a dedicated label', () => {
    expect(enumLabel('decoration_method', 'dtg')).toBe('DTG (direct to garment)');
    expect(enumLabel('stance', 'mixed')).toBe('Mixed');
    expect(enumLabel('verification', 'not_verified')).toBe('Not verified');
    expect(enumLabel('stance', null)).toBe('Not stated');
  });

  it('keeps the labels of one value in different groups apart', () => {
    expect([enumLabel('decoration_method', 'dtg'), enumLabel('stance', 'dtg'), enumLabel('decoration_method', 'dtg')]).toEqual([
      'DTG (direct to garment)',
      'Dtg',
      'DTG (direct to garment)',
    ]);
  });

  it('labels every research status and explains every unfinished one', () => {
    expect(researchStatusLabel('complete_with_gaps')).toBe('Complete with gaps');
    for (const status of ['in_progress', 'complete_with_gaps', 'identity_unresolved', 'incomplete']) {
      expect(researchStatusNote(status)).toMatch(/\w/);
    }
  });

  it('labels fields, with overrides for abbreviations', () => {
    expect(fieldLabel('gtin')).toBe('GTIN');
    expect(fieldLabel('size_label')).toBe('Size label');
  });

  it('formats booleans and says when one is not stated', () => {
    expect([formatBoolean(true), formatBoolean(false), formatBoolean(null)]).toEqual(['Yes', 'No', 'Not stated']);
  });
});

describe('fieldViews', () => {
  const lookup = {
    ids: new Map([
      ['offers', new Map([['o1', 0]])],
      ['provider_listings', new Map([['pl', 0]])],
    ]),
    sourceIds: new Set(['s1']),
  };

  it('formats money fields from minor units and leaves out the currency and exponent', () => {
    const fields = fieldViews({ id: 'o1', currency: 'JPY', minor_unit_exponent: 0, base_amount_minor: 1800, notes: null }, lookup);
    expect(fields).toEqual([{ name: 'base_amount_minor', label: 'Base price', parts: [{ kind: 'text', text: '¥1,800' }] }]);
  });

  it('links references to items that exist and leaves the others as text', () => {
    const fields = fieldViews({ id: 'x', provider_listing_id: 'pl', offer_id: 'missing', source_id: 's1' }, lookup);
    expect(fields.map((f) => f.parts[0])).toEqual([
      { kind: 'link', text: 'pl', href: '#provider_listings-pl', external: false },
      { kind: 'text', text: 'missing' },
      { kind: 'link', text: 's1', href: '#source-s1', external: false },
    ]);
  });

  it('links an offer’s provider variant, but not a provider variant’s own provider-side id', () => {
    const variants = { ids: new Map([['provider_variants', new Map([['pv-1', 0]])]]), sourceIds: new Set<string>() };
    expect(fieldViews({ id: 'o1', provider_variant_id: 'pv-1' }, variants, 'offers')[0]!.parts).toEqual([
      { kind: 'link', text: 'pv-1', href: '#provider_variants-pv-1', external: false },
    ]);
    expect(fieldViews({ id: 'pv-1', provider_variant_id: 'pv-1' }, variants, 'provider_variants')[0]!.parts[0]!.kind).not.toBe('link');
  });

  it('signs a tolerance by its side, unless it carries a sign of its own', () => {
    const texts = (item: Record<string, unknown>) => fieldViews(item, lookup).map((f) => f.parts[0]);
    expect(texts({ id: 'm', tolerance_plus: 0.5, tolerance_minus: 0.25, tolerance_unit: 'in' })).toEqual([
      { kind: 'text', text: '+0.5 in' },
      { kind: 'text', text: '−0.25 in' },
    ]);
    expect(texts({ id: 'm', tolerance_minus: -0.5, tolerance_unit: 'in' })).toEqual([{ kind: 'text', text: '-0.5 in' }]);
  });

  it('links a URL only when it is http(s)', () => {
    const fields = fieldViews(
      { id: 'x', product_url: 'https://example.org/p', price_url: 'javascript:alert(1)', template_url: 'data:text/html,x' },
      lookup,
    );
    expect(fields.map((f) => f.parts[0]!.kind)).toEqual(['link', 'text', 'text']);
    expect(fields[1]!.parts[0]).toEqual({ kind: 'text', text: 'javascript:alert(1) (not linked)' });
  });

  it('joins numbers to their units, ranges to one value and fibres to their shares', () => {
    const fields = fieldViews(
      {
        id: 'x',
        value: 52,
        unit: 'cm',
        transit_days_min: 2,
        transit_days_max: 5,
        fiber_names: ['cotton', 'polyester'],
        fiber_percentages: [90, 10],
      },
      lookup,
    );
    expect(fields.map((f) => [f.label, f.parts.map((p) => p.text).join(', ')])).toEqual([
      ['Value', '52 cm'],
      ['Transit days', '2 to 5'],
      ['Composition', '90% cotton, 10% polyester'],
    ]);
  });

  it('leaves out empty values', () => {
    expect(fieldViews({ id: 'x', notes: null, labels: [], name: '' }, lookup)).toEqual([]);
  });
});
