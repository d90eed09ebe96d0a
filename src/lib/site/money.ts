// Money as records give it: an integer of minor units, a currency code and, maybe, the minor-unit exponent.

/**
 * How many minor digits an amount has: the exponent the record gives, else the currency's own
 * (USD 2, JPY 0, KWD 3), else 2 for a code that names no currency.
 * @example minorUnitDigits('JPY', null) → 0; minorUnitDigits('USD', 3) → 3
 */
export function minorUnitDigits(currency: string | null | undefined, exponent: number | null | undefined): number {
  if (exponent !== null && exponent !== undefined) return exponent;
  return currencyDigits(currency?.trim().toUpperCase() ?? '') ?? 2;
}

/**
 * An amount in minor units as a number of whole currency units, to compare prices of one currency.
 * @example moneyAmount(1500, 'JPY', null) → 1500; moneyAmount(1295, 'USD', null) → 12.95
 */
export function moneyAmount(amountMinor: number, currency: string | null | undefined, exponent: number | null | undefined): number {
  return amountMinor / 10 ** minorUnitDigits(currency, exponent);
}

/**
 * Whether a record's amount is a price a shopper could be asked: a number of minor units, not
 * below zero. A negative one (a credit, or a slip) stays in the offers' table, out of "from" prices.
 * @example isAskablePrice(1150) → true; isAskablePrice(-500) → false; isAskablePrice(null) → false
 */
export function isAskablePrice(amountMinor: unknown): amountMinor is number {
  return typeof amountMinor === 'number' && Number.isFinite(amountMinor) && amountMinor >= 0;
}

/** Whether a code is an ISO 4217 currency the runtime knows. @example isCurrencyCode('EUR') → true; isCurrencyCode('XYZ1') → false */
export function isCurrencyCode(code: string): boolean {
  return currencyDigits(code) !== null;
}

const digitsByCode = new Map<string, number | null>();

// Intl formats any three letters as a currency; only the codes it lists are ones (162 in Node 24).
const currencyCodes = new Set(Intl.supportedValuesOf('currency'));

/** The minor digits of a currency code, or null when it names no currency (asked once per code: Intl is slow to ask). */
function currencyDigits(code: string): number | null {
  let digits = digitsByCode.get(code);
  if (digits === undefined) {
    digits = null;
    if (currencyCodes.has(code)) {
      try {
        digits = new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
      } catch {
        // Not a currency Intl knows.
      }
    }
    digitsByCode.set(code, digits);
  }
  return digits;
}
