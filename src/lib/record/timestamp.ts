// What a record's timestamps say: the record format leaves them as any text (spec 2.1), and only ISO 8601 is read as a time.

/**
 * The machine-readable form for `<time datetime>`, a sitemap's `lastmod` and JSON-LD, as precise as
 * the record: `2026-11`, `2026-11-08`, or the instant in UTC; null when the text is not a date.
 */
export function isoDate(value: string): string | null {
  const timestamp = parseTimestamp(value);
  if (!timestamp) return null;
  const iso = timestamp.date.toISOString();
  // An instant an offset moves past year 9999 (or before year 1) has no four-digit form.
  if (!/^\d{4}-/.test(iso) || iso.startsWith('0000')) return null;
  return timestamp.precision === 'time' ? iso : iso.slice(0, timestamp.precision === 'month' ? 7 : 10);
}

/** A record's ISO 8601 timestamp: the instant (the start of the day or month it names), how precise it is, and its offset. */
interface Timestamp {
  date: Date;
  precision: 'month' | 'day' | 'time';
  /** `UTC`, or the offset written (`+05:30`), as Intl names the time zone. */
  offset: string;
}

// Only ISO 8601 dates are trusted: Date.parse accepts too much ("1", "May") to be meaningful.
const TIMESTAMP = /^(\d{4})-(\d{2})(?:-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(?:Z|([+-])(\d{2}):?(\d{2}))?)?)?$/i;

export function parseTimestamp(value: string): Timestamp | null {
  const parts = TIMESTAMP.exec(value.trim());
  if (!parts) return null;
  const [year, month, day = 1, hour = 0, minute = 0, second = 0] = parts
    .slice(1, 7)
    .map((part) => (part === undefined ? undefined : Number(part))) as number[];
  // V8 would read February 30 as March 2: a day the month does not have, or an hour past 23, makes
  // no date. Year 0 (1 BC) neither: calendars write it as year 1.
  if (year === 0 || month! < 1 || month! > 12 || day < 1 || day > daysInMonth(year!, month!) || hour > 23 || minute > 59 || second > 59)
    return null;
  const [sign, offsetHours = '00', offsetMins = '00'] = parts.slice(8, 11);
  // An offset of 60 minutes or more, or past 18 hours, is none (Intl refuses it as a time zone).
  if (Number(offsetMins) > 59 || Number(offsetHours) * 60 + Number(offsetMins) > 18 * 60) return null;
  const offset = sign ? `${sign}${offsetHours}:${offsetMins}` : 'UTC';
  const offsetMinutes = (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMins));
  const date = new Date(0);
  // setUTCFullYear, as Date.UTC reads the years 0 to 99 as 1900 to 1999.
  date.setUTCFullYear(year!, month! - 1, day);
  date.setUTCHours(hour, minute, second, parts[7] ? Math.floor(Number(`0${parts[7]}`) * 1000) : 0);
  date.setTime(date.getTime() - offsetMinutes * 60_000);
  const precision = parts[4] !== undefined ? 'time' : parts[3] !== undefined ? 'day' : 'month';
  return Number.isNaN(date.getTime()) ? null : { date, precision, offset };
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
