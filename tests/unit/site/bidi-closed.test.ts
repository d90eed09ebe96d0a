import { describe, expect, it } from 'vitest';
import { closeBidiThroughout, mayHoldBidiFormatting } from '../../../src/lib/site/bidi-closed.ts';

describe('mayHoldBidiFormatting', () => {
  it.each([
    ['an override written as UTF-8', '{"name": "\u202Eexe.gnp"}', true],
    ['an isolate written as UTF-8', '{"name": "a\u2067b"}', true],
    ['an override written as an escape', '{"name": "\\u202Eexe.gnp"}', true],
    ['dashes and quotes only (the same lead byte)', '{"name": "8\u20139 oz \u201Cheavy\u201D"}', false],
    ['plain text', '{"name": "Black M"}', false],
  ])('%s: %s', (_, text, expected) => {
    expect(mayHoldBidiFormatting(Buffer.from(text))).toBe(expected);
  });
});

describe('closeBidiThroughout', () => {
  it('closes each text where it ends, so the words put after it keep their order', () => {
    const record = { data: { provider_variants: [{ raw_color_name: '\u202EBlack', notes: ['\u2067a', 'b'] }] } };
    closeBidiThroughout(record);
    expect(record.data.provider_variants[0]).toEqual({ raw_color_name: '\u202EBlack\u202C', notes: ['\u2067a\u2069', 'b'] });
    expect(`${record.data.provider_variants[0]!.raw_color_name} M: base price`).toBe('\u202EBlack\u202C M: base price');
  });

  it('leaves identifiers and references as written, so they still match', () => {
    const record = {
      claims: [{ id: 'clm-\u202E', targets: ['offers/\u202E/base_amount_minor'], derived_from: ['clm-\u202E'], value: '\u202Ex' }],
      data: { offers: [{ id: 'offer-\u202E', provider_variant_id: 'pv-\u202E', included_placement_ids: ['pl-\u202E'] }] },
    };
    closeBidiThroughout(record);
    expect(record.claims[0]).toEqual({
      id: 'clm-\u202E',
      targets: ['offers/\u202E/base_amount_minor'],
      derived_from: ['clm-\u202E'],
      value: '\u202Ex\u202C',
    });
    expect(record.data.offers[0]).toEqual({ id: 'offer-\u202E', provider_variant_id: 'pv-\u202E', included_placement_ids: ['pl-\u202E'] });
  });

  it('reaches a text nested 20,000 levels deep without running out of stack', () => {
    const record: { value: unknown } = { value: '\u202Edeep' };
    let deepest = record;
    for (let i = 0; i < 20_000; i++) {
      const inner = { value: '\u202Edeep' };
      deepest.value = [inner];
      deepest = inner;
    }
    closeBidiThroughout(record);
    expect(deepest.value).toBe('\u202Edeep\u202C');
  });
});
