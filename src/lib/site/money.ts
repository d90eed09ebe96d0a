// Money as records give it: an integer of minor units, a currency code and, maybe, the minor-unit exponent.
import { decimalFromMinor, formatNumber, LOCALE, MAX_FRACTION_DIGITS, numberFormatter } from './number-text.ts';

/** The words for money that no currency's format writes, filled: strings.ts's, or those the compare page's script is given. */
export interface MoneyWords {
  /** `{amount} (currency not stated)` */
  currencyNotStated: (amount: string) => string;
  /** `{amount} minor units (exponent {exponent})` */
  minorUnits: (amount: string, exponent: string) => string;
}

/** An amount of minor units, formatted; null when there is none. */
export type MoneyFormatter = (
  amountMinor: number | null | undefined,
  currency: string | null | undefined,
  exponent: number | null | undefined,
) => string | null;

/**
 * Formats money in minor units for its currency: the exponent says how many minor digits the currency has in the
 * record (USD 2, JPY 0), else the currency's own; an unknown currency code is shown after the number; an amount
 * that cannot be money (a fraction of a minor unit, more minor digits than Intl shows) is said in minor units.
 * @example moneyFormatter(words)(1999, 'USD', 2) → '$19.99'; moneyFormatter(words)(1500, 'JPY', 0) → '¥1,500'
 */
export function moneyFormatter(words: MoneyWords): MoneyFormatter {
  return (amountMinor, currency, exponent) => {
    if (amountMinor === null || amountMinor === undefined || !Number.isFinite(amountMinor)) return null;
    const code = currency?.trim() ?? '';
    const digits = minorUnitDigits(code.toUpperCase(), exponent);
    if (!isShowable(amountMinor, digits))
      return words.minorUnits(code ? `${formatNumber(amountMinor)} ${code}` : formatNumber(amountMinor), String(digits));
    if (!code) return words.currencyNotStated(numberFormatter(digits).format(decimalFromMinor(amountMinor, digits) as never));
    return moneyText(amountMinor, currency, exponent);
  };
}

/**
 * Minor units in their currency (`$12.95`; `12.95 XYZ` for a code that names no currency), or null where they
 * cannot be: no currency named, a fraction of a minor unit (a claim's value may hold one), or an exponent past what Intl shows.
 * @example moneyText(1295, 'USD', null) → '$12.95'; moneyText(12.5, 'USD', 2) → null
 */
export function moneyText(amountMinor: number, currency: string | null | undefined, exponent: number | null | undefined): string | null {
  const code = currency?.trim().toUpperCase() ?? '';
  const digits = minorUnitDigits(code, exponent);
  if (!code || !isShowable(amountMinor, digits)) return null;
  const amount = decimalFromMinor(amountMinor, digits) as never;
  return isCurrencyCode(code) ? numberFormatter(digits, code).format(amount) : `${numberFormatter(digits).format(amount)} ${currency}`;
}

/** Whether Intl can write an amount of minor units as money: whole minor units, at digits it shows. */
function isShowable(amountMinor: number, digits: number): boolean {
  return Number.isInteger(amountMinor) && isShownDigits(digits);
}

/** Whether money is written with this many minor digits: a whole number from 0 to what Intl shows. */
function isShownDigits(digits: number): boolean {
  return Number.isInteger(digits) && digits >= 0 && digits <= MAX_FRACTION_DIGITS;
}

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
 * below zero, at an exponent no larger than money is written with (where the record gives one).
 * A negative one (a credit, or a slip), or one of a billion minor digits (which would read as the
 * lowest of all), stays in the offers' table, out of "from" prices.
 * @example isAskablePrice(1150, 2) → true; isAskablePrice(-500, 2) → false; isAskablePrice(1295, 1e9) → false; isAskablePrice(null, 2) → false
 */
export function isAskablePrice(amountMinor: unknown, exponent: unknown): amountMinor is number {
  const digitsOk = exponent === null || exponent === undefined || (typeof exponent === 'number' && isShownDigits(exponent));
  return typeof amountMinor === 'number' && Number.isFinite(amountMinor) && amountMinor >= 0 && digitsOk;
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
        digits = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
      } catch {
        // Not a currency Intl knows.
      }
    }
    digitsByCode.set(code, digits);
  }
  return digits;
}
