import { parseTimestamp } from '../record/timestamp.ts';
import { isCurrencyCode, moneyFormatter, moneyText } from './money.ts';
import { formatNumber, LOCALE, numberText } from './number-text.ts';
import { remembered } from './remembered.ts';
import { humanize, lookup, t, tCount } from './strings.ts';

/**
 * A money amount given in minor units, as text formatted for its currency; null when there is no amount.
 * @example formatMoney(1999, 'USD', 2) → '$19.99'; formatMoney(1500, 'JPY', 0) → '¥1,500'; formatMoney(-500, 'USD', 2) → '-$5.00'
 */
export const formatMoney = moneyFormatter({
  currencyNotStated: (amount) => t('value.currencyNotStated', { amount }),
  minorUnits: (amount, exponent) => t('value.minorUnits', { amount, exponent }),
});

/**
 * A duration in words, in the largest unit that says it exactly.
 * @example formatDuration(60_000) → '1 minute'; formatDuration(7_200_000) → '2 hours'; formatDuration(90_000) → '90 seconds'
 */
export function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return tCount('duration.hours', ms / 3_600_000);
  if (ms % 60_000 === 0) return tCount('duration.minutes', ms / 60_000);
  return tCount('duration.seconds', Math.round(ms / 1000));
}

/**
 * A timestamp from a record as a readable date, on the calendar of the offset it was written in
 * (UTC when it names none); a year and month alone reads as the month. Text that is not an ISO 8601
 * date is returned unchanged. Each is worked out once: a record repeats the same few timestamps
 * (observed, checked, accessed) many times over.
 * @example formatDate('2025-03-12T10:00:00Z') → 'March 12, 2025'
 * @example formatDate('2026-11-08T23:30:00-05:00') → 'November 8, 2026'; formatDate('2026-11') → 'November 2026'
 */
export const formatDate = remembered((value) => {
  const timestamp = parseTimestamp(value);
  return timestamp ? dateFormats[timestamp.precision === 'month' ? 'month' : 'day'](timestamp.offset).format(timestamp.date) : value;
});

/** The formatters of days and of months in a time zone (`UTC`, `-05:00`): one per zone, as making one is slow. */
const dateFormats = {
  day: remembered((timeZone) => new Intl.DateTimeFormat(LOCALE, { dateStyle: 'long', timeZone })),
  month: remembered((timeZone) => new Intl.DateTimeFormat(LOCALE, { year: 'numeric', month: 'long', timeZone })),
};

/**
 * A range of two optional numbers with a unit; a missing end leaves the range open on that side.
 * @example formatRange(2, 5, 'days') → '2 to 5 days'; formatRange(144, null) → '144 or more'; formatRange(null, 5, 'days') → 'up to 5 days'
 */
export function formatRange(min: number | null, max: number | null, unit?: string | null): string | null {
  if (min === null && max === null) return null;
  if (min === max) return formatNumber(min!, unit);
  if (max === null) return t('value.atLeast', { min: formatNumber(min!, unit) });
  if (min === null) return t('value.atMost', { max: formatNumber(max, unit) });
  return `${t('value.range', { min: numberText(min), max: numberText(max) })}${unit ? ` ${unit}` : ''}`;
}

/** Yes, No, or Not stated. */
export function formatBoolean(value: boolean | null | undefined): string {
  if (value === null || value === undefined) return t('value.notStated');
  return t(value ? 'value.yes' : 'value.no');
}

/** Lists and objects nested deeper than this in a claim's value read as "…": a record may nest them as deep as it likes. */
const VALUE_DEPTH_SHOWN = 8;

/**
 * Any JSON value (a claim's value) as one line of text, the unit attached to every number and string in it:
 * booleans as Yes/No, lists joined with commas, objects as `key: value` pairs. A number whose unit names
 * minor currency units (`USD minor units (exponent 2)`) is shown as money.
 * @example formatValue({ S: 19.5, M: 21 }, 'in') → 'S: 19.5 in; M: 21 in'
 * @example formatValue(1295, 'USD minor units (exponent 2)') → '$12.95 (1,295 USD minor units (exponent 2))'
 */
export function formatValue(value: unknown, unit?: string | null, depth = 0): string {
  if (value === null || value === undefined) return t('claim.noValue');
  if (typeof value === 'object' && depth === VALUE_DEPTH_SHOWN) return '…';
  if (typeof value === 'number') return formatAmount(value, unit);
  if (typeof value === 'string') {
    // A blank string is a value too; said so, it cannot read as a missing one.
    if (value.trim() === '') return t('value.blankText');
    return unit ? `${value} ${unit}` : value;
  }
  if (typeof value === 'boolean') return formatBoolean(value);
  if (Array.isArray(value)) return value.length === 0 ? t('value.empty') : value.map((v) => formatValue(v, unit, depth + 1)).join(', ');
  if (typeof value === 'object') {
    const pairs = Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k}: ${formatValue(v, unit, depth + 1)}`);
    return pairs.length === 0 ? t('value.empty') : pairs.join('; ');
  }
  return String(value);
}

/**
 * A number in a unit a record gives, as money too when the unit names a currency's minor units.
 * @example formatAmount(3200, 'USD minor units') → '$32.00 (3,200 USD minor units)'; formatAmount(9, 'oz/yd²') → '9 oz/yd²'
 */
export function formatAmount(value: number, unit?: string | null): string {
  const minor = unit ? minorUnitsOf(unit) : null;
  // Said once when it cannot be money (a fraction of a minor unit): the number in its unit is all there is.
  const money = minor && moneyText(value, minor.currency, minor.exponent);
  return money ? `${money} (${formatNumber(value, unit)})` : formatNumber(value, unit);
}

/**
 * The currency and exponent a unit names as minor units (the exponent null when the unit gives none,
 * then the ISO 4217 currency's own digits apply), or null; worked out once per unit, as numbers repeat them.
 * @example minorUnitsOf('USD minor units') → { currency: 'USD', exponent: null }; minorUnitsOf('ABC minor units') → null
 */
const minorUnitsOf = remembered((unit): { currency: string; exponent: number | null } | null => {
  const minor = MINOR_UNITS.exec(unit);
  if (!minor) return null;
  const [, currency, exponent] = minor;
  if (exponent === undefined && !isCurrencyCode(currency!.toUpperCase())) return null;
  return { currency: currency!, exponent: exponent === undefined ? null : Number(exponent) };
});

// An exponent of three digits or more is no currency's: such a unit is shown as written.
const MINOR_UNITS = /\b([A-Z]{3})\b.*\bminor units?\b(?:.*\bexponent\D*(\d{1,2})\b|(?!.*\bexponent))/i;

/**
 * The label of an enumeration value of a record, by group (`verification`, `gap_reason`, `decoration_method`…);
 * values without a dedicated label are turned into words.
 * @example enumLabel('decoration_method', 'dtg') → 'DTG (direct to garment)'; enumLabel('stance', 'mixed') → 'Mixed'
 */
export function enumLabel(group: string, value: string | null | undefined): string {
  if (value === null || value === undefined) return t('value.notStated');
  let labelOf = enumLabels.get(group);
  if (!labelOf) enumLabels.set(group, (labelOf = labelsOf(`enum.${group}.`)));
  return labelOf(value);
}

/** The label of a research status. @example researchStatusLabel('complete_with_gaps') → 'Complete with gaps' */
export function researchStatusLabel(status: string): string {
  return lookup(`status.${status}`) ?? humanize(status);
}

/** The plain-language consequence of a research status for a reader. */
export function researchStatusNote(status: string): string | undefined {
  return lookup(`status.${status}.note`);
}

/**
 * The label of a record field.
 * @example fieldLabel('gtin') → 'GTIN'; fieldLabel('size_label') → 'Size label'
 */
export function fieldLabel(field: string): string {
  return fieldLabels(field);
}

/** The heading of a data collection. @example collectionLabel('price_components') → 'Price components' */
export function collectionLabel(collection: string): string {
  return collectionLabels(collection);
}

/**
 * The labels of one kind (UI string `<prefix><key>`, else the key in words), each worked out once:
 * a page asks for the same few hundred labels thousands of times.
 */
function labelsOf(prefix: string): (key: string) => string {
  return remembered((key) => lookup(`${prefix}${key}`) ?? humanize(key));
}

const fieldLabels = labelsOf('field.');
const collectionLabels = labelsOf('collection.');
const enumLabels = new Map<string, (value: string) => string>();
