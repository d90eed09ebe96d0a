// Two to four garments side by side, read in the browser from their published JSON twins
// (/garments/<slug>/<projection>.json). Pure: the compare page's script (compare-client.ts) fetches
// and draws. A twin is untrusted input: every value is checked for its type before it is read.
import { isCurrencyCode, minorUnitDigits, moneyAmount } from './money.ts';

/** The most garments a comparison shows. */
export const MOST_COMPARED = 4;

/** What the compare page's address asks for, cleaned: the slugs to show, and what was left out and why. */
export interface ComparedSlugs {
  slugs: string[];
  /** Slugs asked for more than once (each shown once). */
  repeated: string[];
  /** Values that are no slug (never fetched). */
  invalid: string[];
  /** Slugs beyond the first MOST_COMPARED. */
  beyond: string[];
}

/** A slug as the record format writes it: lowercase letters and digits in hyphenated runs. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * The garments a comparison shows, in the order asked, each once, at most MOST_COMPARED.
 * @example comparedSlugs(['tee', 'hoodie', 'tee', '../x']) → { slugs: ['tee', 'hoodie'], repeated: ['tee'], invalid: ['../x'], beyond: [] }
 */
export function comparedSlugs(asked: readonly string[]): ComparedSlugs {
  const result: ComparedSlugs = { slugs: [], repeated: [], invalid: [], beyond: [] };
  for (const value of asked.map((slug) => slug.trim()).filter(Boolean)) {
    if (!SLUG.test(value) || value.length > 200) result.invalid.push(value);
    else if (result.slugs.includes(value) || result.beyond.includes(value)) {
      if (!result.repeated.includes(value)) result.repeated.push(value);
    } else if (result.slugs.length < MOST_COMPARED) result.slugs.push(value);
    else result.beyond.push(value);
  }
  return result;
}

/** The compare page's address for some garments. @example comparePath(['tee', 'hoodie']) → '/compare/?g=tee&g=hoodie' */
export function comparePath(slugs: readonly string[]): string {
  return slugs.length === 0 ? '/compare/' : `/compare/?${slugs.map((slug) => `g=${encodeURIComponent(slug)}`).join('&')}`;
}

/** The address a garment's "Compare" link opens: the page adds it to the garments being compared. */
export function compareAddingPath(slug: string): string {
  return `/compare/?add=${encodeURIComponent(slug)}`;
}

/** A garment's published records, as parsed JSON (null where it has no record of that projection). */
export interface GarmentTwins {
  slug: string;
  svc: unknown;
  tech: unknown;
}

/** The words a comparison is labelled with, from strings.ts (the page passes them to its script). */
export interface ComparisonWords {
  brand: string;
  category: string;
  priceFrom: string;
  sizes: string;
  colors: string;
  fabric: string;
  weight: string;
  commerce: string;
  technical: string;
}

/** A compared garment: its name, its address, its record pages and its facts as lines of text, by row key. */
export interface ComparedGarment {
  slug: string;
  title: string;
  href: string;
  pages: { label: string; href: string }[];
  facts: Map<string, string[]>;
}

/** A row of the comparison: its label and, per garment, its lines (empty where the garment does not say). */
export interface ComparisonRow {
  key: string;
  label: string;
  cells: string[][];
}

type Json = Record<string, unknown>;
const objectOf = (value: unknown): Json | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const textOf = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
const numberOf = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
/** A collection of a record's data, as objects. */
const itemsOf = (record: Json | null, name: string): Json[] =>
  listOf(objectOf(record?.data)?.[name])
    .map(objectOf)
    .filter((item): item is Json => item !== null);

/** A code in words: `t_shirts` → `T shirts`. */
const spelled = (code: string) => {
  const words = code.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** A title's text without the light Markdown a text block may hold (`**`, `_`, links). */
function plainTitle(text: string): string {
  return text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`~]+/g, '')
    .trim();
}

/**
 * Money from minor units, in the reader's words for a currency the browser knows.
 * @example priceText(1295, 'USD', 2) → '$12.95'
 */
export function priceText(amountMinor: number, currency: string | null, exponent: number | null): string {
  const code = currency?.trim().toUpperCase() ?? '';
  const digits = minorUnitDigits(code, exponent);
  const amount = moneyAmount(amountMinor, code, exponent);
  if (isCurrencyCode(code) && digits <= 20)
    return new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: code,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(amount);
  return `${amount.toFixed(Math.min(Math.max(digits, 0), 20))}${code ? ` ${code}` : ''}`;
}

/** The lowest price among a commerce record's offers: a public price when there is one, its basis and provider beside it. */
function priceFrom(record: Json | null): string[] {
  const listings = new Map(itemsOf(record, 'provider_listings').map((listing) => [textOf(listing.id), listing]));
  const offers = itemsOf(record, 'offers').filter((offer) => numberOf(offer.base_amount_minor) !== null);
  const publicOffers = offers.filter((offer) => offer.price_basis === 'standard_public');
  let lowest: Json | null = null;
  for (const offer of publicOffers.length > 0 ? publicOffers : offers) {
    const amount = moneyAmount(numberOf(offer.base_amount_minor)!, textOf(offer.currency), numberOf(offer.minor_unit_exponent));
    const best = lowest && moneyAmount(numberOf(lowest.base_amount_minor)!, textOf(lowest.currency), numberOf(lowest.minor_unit_exponent));
    // Prices in different currencies are not compared: the first currency met sets the one shown.
    if (lowest === null || (textOf(offer.currency) === textOf(lowest.currency) && amount < best!)) lowest = offer;
  }
  if (!lowest) return [];
  const listing = listings.get(textOf(lowest.provider_listing_id));
  const provider = textOf(listing?.provider_name) ?? textOf(listing?.catalog_title);
  const basis = textOf(lowest.price_basis);
  const details = [provider, basis && spelled(basis)].filter(Boolean).join(', ');
  const price = priceText(numberOf(lowest.base_amount_minor)!, textOf(lowest.currency), numberOf(lowest.minor_unit_exponent));
  return [details ? `${price} (${details})` : price];
}

/** Each fabric: its name, fibres with their shares, construction and knit or woven; and its weight in both units where given. */
function fabrics(record: Json | null): { fabric: string[]; weight: string[] } {
  const fabric: string[] = [];
  const weight: string[] = [];
  for (const profile of itemsOf(record, 'material_profiles')) {
    const name = textOf(profile.name);
    const percents = listOf(profile.fiber_percentages);
    const fibres = listOf(profile.fiber_names)
      .map((fibre, i) => {
        const share = numberOf(percents[i]);
        return textOf(fibre) && (share === null ? textOf(fibre) : `${share}% ${textOf(fibre)}`);
      })
      .filter(Boolean)
      .join(', ');
    const made = [textOf(profile.fabric_construction), textOf(profile.knit_or_weave)].filter(Boolean).join(', ');
    const described = [fibres, made].filter(Boolean).join('; ');
    if (described) fabric.push(name ? `${name}: ${described}` : described);
    const original = numberOf(profile.weight_original);
    const unit = textOf(profile.weight_original_unit);
    const gsm = numberOf(profile.weight_gsm);
    // Both units where both are given, the record's own first.
    const asGiven = original === null ? null : `${original}${unit ? ` ${unit}` : ''}`;
    const inGsm = gsm === null || unit === 'g/m²' ? null : `${gsm} g/m²`;
    const both = asGiven && inGsm ? `${asGiven} (${inGsm})` : (asGiven ?? inGsm);
    if (both) weight.push(name ? `${name}: ${both}` : both);
  }
  return { fabric, weight };
}

/** Measurements by point of measure and unit (`Chest width flat (in)`), each size's value in the order first given. */
function measurements(records: (Json | null)[]): Map<string, string[]> {
  const rows = new Map<string, Map<string, string>>();
  for (const record of records) {
    for (const item of itemsOf(record, 'measurements')) {
      const name = textOf(item.measurement_name);
      const value = numberOf(item.value);
      const size = textOf(item.size_label);
      if (!name || value === null || !size) continue;
      const unit = textOf(item.unit);
      const label = unit ? `${spelled(name)} (${unit})` : spelled(name);
      const sizes = rows.get(label) ?? new Map<string, string>();
      if (!sizes.has(size)) sizes.set(size, `${size}: ${value}`);
      rows.set(label, sizes);
    }
  }
  return new Map([...rows].map(([label, sizes]) => [label, [[...sizes.values()].join(' · ')]]));
}

/** A garment's facts for the comparison, from its commerce and technical records (either may be missing). */
export function comparedGarment(twins: GarmentTwins, words: ComparisonWords): ComparedGarment {
  const svc = objectOf(twins.svc);
  const tech = objectOf(twins.tech);
  const records = [svc, tech].filter((record): record is Json => record !== null);
  const first = <T>(read: (record: Json) => T | null): T | null => {
    for (const record of records) {
      const found = read(record);
      if (found !== null) return found;
    }
    return null;
  };
  const identity = (record: Json) => objectOf(objectOf(record.data)?.identity);
  const title =
    first((record) => {
      const text = textOf(objectOf(objectOf(record.page)?.title)?.text);
      return text && (plainTitle(text) || null);
    }) ??
    first((record) => textOf(identity(record)?.official_name)) ??
    twins.slug;
  const brand = first((record) => textOf(identity(record)?.brand) ?? textOf(identity(record)?.manufacturer));
  const category = first((record) => {
    const main = textOf(identity(record)?.category);
    const sub = textOf(identity(record)?.subcategory);
    return main && [spelled(main), sub && spelled(sub)].filter(Boolean).join(', ');
  });
  const sizes = [
    ...new Set(records.flatMap((record) => itemsOf(record, 'size_ranges').flatMap((range) => listOf(range.labels).map(textOf)))),
  ].filter((label): label is string => label !== null);
  const colors = [
    ...new Set(records.flatMap((record) => itemsOf(record, 'colors').map((color) => textOf(color.manufacturer_name) ?? textOf(color.id)))),
  ].filter((name): name is string => name !== null);
  const { fabric, weight } = fabrics(tech ?? svc);
  const pages = [
    svc && { label: words.commerce, href: `/garments/${twins.slug}/svc/` },
    tech && { label: words.technical, href: `/garments/${twins.slug}/tech/` },
  ].filter((page): page is { label: string; href: string } => Boolean(page));
  const facts = new Map<string, string[]>([
    ['brand', brand ? [brand] : []],
    ['category', category ? [category] : []],
    ['priceFrom', priceFrom(svc)],
    ['sizes', sizes.length > 0 ? [sizes.join(', ')] : []],
    ['colors', colors.length > 0 ? [colors.join(', ')] : []],
    ['fabric', fabric],
    ['weight', weight],
  ]);
  for (const [label, lines] of measurements([tech, svc])) facts.set(`measurement:${label}`, lines);
  return { slug: twins.slug, title, href: `/garments/${twins.slug}/`, pages, facts };
}

/** The comparison's rows: the key facts in a fixed order, then every point of measure any garment has, in the order first met. */
export function comparisonRows(garments: ComparedGarment[], words: ComparisonWords): ComparisonRow[] {
  const keys = ['brand', 'category', 'priceFrom', 'sizes', 'colors', 'fabric', 'weight'] as const;
  const measured = [...new Set(garments.flatMap((garment) => [...garment.facts.keys()].filter((key) => key.startsWith('measurement:'))))];
  return [...keys, ...measured].map((key) => ({
    key,
    label: key.startsWith('measurement:') ? key.slice('measurement:'.length) : words[key as (typeof keys)[number]],
    cells: garments.map((garment) => garment.facts.get(key) ?? []),
  }));
}
