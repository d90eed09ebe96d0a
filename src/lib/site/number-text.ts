// Numbers as the site writes them, in its one locale, with no words of their own: the compare page's
// script uses them as the build does, without the strings table.

/** The locale every number, amount and date on the site is written in. */
export const LOCALE = 'en-US';

const numberFormat = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 6 });

/**
 * A number with its unit, if any; a unit of `%` or `°` attaches without a space.
 * @example formatNumber(180, 'gsm') → '180 gsm'; formatNumber(1234.5) → '1,234.5'; formatNumber(60, '%') → '60%'
 */
export function formatNumber(value: number, unit?: string | null): string {
  const number = numberText(value);
  if (!unit) return number;
  return /^[%°]/.test(unit) ? `${number}${unit}` : `${number} ${unit}`;
}

/**
 * A number without its unit, as `numberFormat` writes it; one so small that it would read as 0, to its first
 * significant digits; -0 (which JSON can hold) as 0.
 */
export function numberText(value: number): string {
  if (Object.is(value, -0)) return '0';
  return plainNumber(value) ?? (value !== 0 && Math.abs(value) < 5e-7 ? smallNumberFormat : numberFormat).format(value);
}

const smallNumberFormat = new Intl.NumberFormat(LOCALE, { maximumSignificantDigits: 6 });

/**
 * The number as `numberFormat` writes it, without Intl (which is slow next to String) when String gives
 * the same text: below 1,000 (no grouping), no exponent, at most 6 decimals (so no rounding).
 */
function plainNumber(value: number): string | null {
  if (!(value > -1000 && value < 1000)) return null;
  const text = String(value);
  const point = text.indexOf('.');
  return text.includes('e') || (point >= 0 && text.length - point - 1 > 6) ? null : text;
}

/** The most fraction digits Intl.NumberFormat shows. */
export const MAX_FRACTION_DIGITS = 20;

const formatters = new Map<string, Intl.NumberFormat>();

/** One formatter per (digits, currency): making an Intl.NumberFormat costs far more than using one. */
export function numberFormatter(fractionDigits: number, currency?: string): Intl.NumberFormat {
  const key = `${fractionDigits}:${currency ?? ''}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    const fraction = { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits };
    formatter = new Intl.NumberFormat(LOCALE, currency ? { style: 'currency', currency, ...fraction } : fraction);
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * An integer of minor units as an exact decimal string (Intl formats decimal strings without float rounding).
 * @example decimalFromMinor(-5, 2) → '-0.05'
 */
export function decimalFromMinor(amountMinor: number, exponent: number): string {
  const negative = amountMinor < 0;
  // BigInt writes every digit: String(1e21) is '1e+21'.
  const digits = BigInt(Math.abs(Math.trunc(amountMinor))).toString();
  if (exponent <= 0) return `${negative ? '-' : ''}${digits}${'0'.repeat(Math.max(0, -exponent))}`;
  const padded = digits.padStart(exponent + 1, '0');
  return `${negative ? '-' : ''}${padded.slice(0, -exponent)}.${padded.slice(-exponent)}`;
}
