import { humanize, lookup, t } from './strings.ts';

const LOCALE = 'en-US';

/**
 * A money amount given in minor units, as text formatted for its currency; null when there is no amount.
 * The exponent says how many minor digits the currency has in the record (USD 2, JPY 0); when it is null
 * the currency's own default is used. An unknown currency code is shown after the number.
 * @example formatMoney(1999, 'USD', 2) → '$19.99'
 * @example formatMoney(1500, 'JPY', 0) → '¥1,500'
 * @example formatMoney(-500, 'USD', 2) → '-$5.00'
 */
export function formatMoney(amountMinor: number | null | undefined, currency: string | null | undefined, exponent: number | null | undefined): string | null {
  if (amountMinor === null || amountMinor === undefined || !Number.isFinite(amountMinor)) return null;
  const code = currency?.trim().toUpperCase() ?? '';
  const digits = exponent ?? (isCurrencyCode(code) ? currencyDigits(code) : 2);
  const amount = decimalFromMinor(amountMinor, digits);
  const fractionDigits = Math.min(digits, 20);
  const number = numberFormatter(fractionDigits);
  if (!code) return t('value.currencyNotStated', { amount: number.format(amount as never) });
  if (!isCurrencyCode(code)) return `${number.format(amount as never)} ${currency}`;
  return numberFormatter(fractionDigits, code).format(amount as never);
}

const formatters = new Map<string, Intl.NumberFormat>();

/** One formatter per (digits, currency): making an Intl.NumberFormat costs far more than using one. */
function numberFormatter(fractionDigits: number, currency?: string): Intl.NumberFormat {
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
  const digits = Math.abs(Math.trunc(amountMinor)).toString();
  if (exponent <= 0) return `${negative ? '-' : ''}${digits}${'0'.repeat(Math.max(0, -exponent))}`;
  const padded = digits.padStart(exponent + 1, '0');
  return `${negative ? '-' : ''}${padded.slice(0, -exponent)}.${padded.slice(-exponent)}`;
}

function isCurrencyCode(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  try {
    numberFormatter(0, code);
    return true;
  } catch {
    return false;
  }
}

function currencyDigits(code: string): number {
  return new Intl.NumberFormat(LOCALE, { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
}

const dateFormat = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'long', timeZone: 'UTC' });
const dateTimeFormat = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

/**
 * A timestamp from a record as a readable date (UTC); text that is not a date is returned unchanged.
 * @example formatDate('2025-03-12T10:00:00Z') → 'March 12, 2025'
 */
export function formatDate(value: string): string {
  // A record repeats the same few timestamps (observed, checked, accessed) many times over.
  let text = formattedDates.get(value);
  if (text === undefined) {
    const date = parseTimestamp(value);
    text = date ? dateFormat.format(date) : value;
    if (formattedDates.size >= CACHE_MAX) formattedDates.clear();
    formattedDates.set(value, text);
  }
  return text;
}

const formattedDates = new Map<string, string>();
/** The most entries a per-process cache of dates or labels holds: their keys come from records, so only practice bounds them. */
const CACHE_MAX = 10_000;

/**
 * A timestamp as date and time (UTC) when it carries a time, else as a date.
 * @example formatDateTime('2025-03-12T10:00:00Z') → 'March 12, 2025 at 10:00 AM UTC'
 */
export function formatDateTime(value: string): string {
  const date = parseTimestamp(value);
  if (!date) return value;
  return /T\d/.test(value) ? `${dateTimeFormat.format(date)} UTC` : dateFormat.format(date);
}

/** The machine-readable form for `<time datetime>`, or null when the text is not a date. */
export function isoDate(value: string): string | null {
  return parseTimestamp(value)?.toISOString() ?? null;
}

function parseTimestamp(value: string): Date | null {
  // Only ISO 8601 dates are trusted: Date.parse accepts too much ("1", "May") to be meaningful.
  const parts = /^(\d{4})-(\d{2})(?:-(\d{2}))?([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(value.trim());
  // V8 reads February 30 as March 2: a day the month does not have makes no date.
  if (!parts || (parts[3] !== undefined && Number(parts[3]) > daysInMonth(Number(parts[1]), Number(parts[2])))) return null;
  const date = new Date(value.trim());
  return Number.isNaN(date.getTime()) ? null : date;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

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

/** A number without its unit, as `numberFormat` writes it. */
function numberText(value: number): string {
  return plainNumber(value) ?? numberFormat.format(value);
}

/**
 * The number as `numberFormat` writes it, without Intl (which is slow next to String) when String gives
 * the same text: below 1,000 (no grouping), not -0, no exponent, at most 6 decimals (so no rounding).
 */
function plainNumber(value: number): string | null {
  if (!(value > -1000 && value < 1000) || Object.is(value, -0)) return null;
  const text = String(value);
  const point = text.indexOf('.');
  return text.includes('e') || (point >= 0 && text.length - point - 1 > 6) ? null : text;
}

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
  if (typeof value === 'number') {
    const minor = unit ? MINOR_UNITS.exec(unit) : null;
    const money = minor ? formatMoney(value, minor[1]!, Number(minor[2])) : null;
    return money ? `${money} (${formatNumber(value, unit)})` : formatNumber(value, unit);
  }
  if (typeof value === 'string') return unit ? `${value} ${unit}` : value;
  if (typeof value === 'boolean') return formatBoolean(value);
  if (Array.isArray(value)) return value.length === 0 ? t('value.empty') : value.map((v) => formatValue(v, unit, depth + 1)).join(', ');
  if (typeof value === 'object') {
    const pairs = Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k}: ${formatValue(v, unit, depth + 1)}`);
    return pairs.length === 0 ? t('value.empty') : pairs.join('; ');
  }
  return String(value);
}

const MINOR_UNITS = /\b([A-Z]{3})\b.*\bminor units?\b.*\bexponent\D*(\d+)/i;

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
  const labels = new Map<string, string>();
  return (key) => {
    let text = labels.get(key);
    if (text === undefined) {
      text = lookup(`${prefix}${key}`) ?? humanize(key);
      // Keys are field names and enumeration values of the schema; the cap only guards against odd input.
      if (labels.size < CACHE_MAX) labels.set(key, text);
    }
    return text;
  };
}

const fieldLabels = labelsOf('field.');
const collectionLabels = labelsOf('collection.');
const enumLabels = new Map<string, (value: string) => string>();
