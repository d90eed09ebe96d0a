import { describe, expect, it } from 'vitest';
import { isCurrencyCode, minorUnitDigits, moneyAmount } from '../../../src/lib/site/money.ts';

describe('money from minor units', () => {
  it("takes the exponent the record gives, else the currency's own, else 2", () => {
    expect(minorUnitDigits('USD', 3)).toBe(3);
    expect(minorUnitDigits('JPY', null)).toBe(0);
    expect(minorUnitDigits(' kwd ', undefined)).toBe(3);
    expect(minorUnitDigits('USD', null)).toBe(2);
    expect(minorUnitDigits('XQQ1', null)).toBe(2);
    expect(minorUnitDigits(null, null)).toBe(2);
  });

  it('gives whole currency units', () => {
    expect(moneyAmount(1295, 'USD', 2)).toBe(12.95);
    expect(moneyAmount(1500, 'JPY', null)).toBe(1500);
    expect(moneyAmount(1500, 'JPY', 0)).toBe(1500);
  });

  it('knows a currency code from a code that names none', () => {
    expect(isCurrencyCode('EUR')).toBe(true);
    expect(isCurrencyCode('eur')).toBe(false);
    expect(isCurrencyCode('ZZ')).toBe(false);
  });
});
