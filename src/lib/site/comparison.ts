// Two to four garments side by side, read in the browser from their published JSON twins
// (/garments/<slug>/<projection>.json). Pure: the compare page's script (browser/compare-client.ts) fetches
// and draws. A twin is untrusted input: every value is checked for its type before it is read.
import type { GarmentRecord } from '../record/types.ts';
import { fillMessage } from '../search/query/search-messages.ts';
import { claimsByData, claimsOn } from './claim-targets.ts';
import { claimStanding, type DoubtWording, doubtWords, factDoubt } from './claim-standing.ts';
import { isAskablePrice, type MoneyFormatter, moneyAmount, moneyFormatter } from './money.ts';
import { formatNumber } from './number-text.ts';

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
  /** A fact's doubt, as the key facts say it: `sources disagree: {values}`, `not verified`, and the `or` between values. */
  disputed: string;
  unverified: string;
  or: string;
  /** Money no currency's format writes: `{amount} (currency not stated)`, `{amount} minor units (exponent {exponent})`. */
  currencyNotStated: string;
  minorUnits: string;
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

/**
 * A title's text without the light Markdown a text block may hold, as the pages read it (record-title.ts, with a
 * Markdown parser this script does without): emphasis marks, but not a `_` inside a word; a link's text, its address
 * (which may hold parentheses) dropped.
 */
function plainTitle(text: string): string {
  return text
    .replace(/\[([^\]]*)\]\((?:[^()]|\([^()]*\))*\)/g, '$1')
    .replace(/[*`~]+|(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu, '')
    .trim();
}

/** The fields a fact is read from, whose claims decide its doubt (as the key facts read them). */
const PRICE_FIELDS = ['base_amount_minor', 'currency', 'minor_unit_exponent', 'price_basis'];
const FABRIC_FIELDS = ['fiber_names', 'fiber_percentages', 'composition_complete', 'fabric_construction', 'knit_or_weave'];
const WEIGHT_FIELDS = ['weight_original', 'weight_original_unit', 'weight_gsm', 'weight_basis'];
const MEASUREMENT_FIELDS = ['value', 'normalized_value_mm', 'measurement_name'];
const SIZE_FIELDS = ['labels', 'size_system', 'manufacturer_fit_term'];
const COLOR_FIELDS = ['manufacturer_name', 'manufacturer_code', 'color_values', 'supplier_names'];

/** Writes a fact's text with its doubt after it, from the claims on the named fields of the named items. */
type Doubter = (text: string, collection: string, ids: string[], fields: string[]) => string;

/** A claim's value in words, as the pages write it: `unlined`, `9 oz/yd²`, `line_sheet: unlined; listing_photo_5: quilted`. */
function valueWithUnit(value: unknown, unit: string | null): string {
  if (typeof value === 'number') return formatNumber(value, unit);
  if (Array.isArray(value)) return value.map((item) => valueWithUnit(item, unit)).join(', ');
  const fields = objectOf(value);
  if (fields)
    return Object.entries(fields)
      .map(([key, item]) => `${key}: ${valueWithUnit(item, unit)}`)
      .join('; ');
  return `${String(value)}${unit ? ` ${unit}` : ''}`;
}

/** The twin's claims, conflicts and data when shaped as a checked record has them, to read their doubt; null otherwise. */
function claimsReadable(record: Json | null): GarmentRecord | null {
  const data = objectOf(record?.data);
  const texts = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === 'string');
  const claimsOk = listOf(record?.claims).every((claim) => typeof objectOf(claim)?.id === 'string' && texts(objectOf(claim)?.targets));
  const conflictsOk = listOf(record?.conflicts).every((conflict) => texts(objectOf(conflict)?.claim_ids));
  const itemsOk = Object.values(data ?? {}).every((items) => !Array.isArray(items) || items.every((item) => objectOf(item) !== null));
  const shaped = Array.isArray(record?.claims) && Array.isArray(record?.conflicts) && typeof record?.claim_target_base === 'string';
  return data && shaped && claimsOk && conflictsOk && itemsOk ? (record as unknown as GarmentRecord) : null;
}

/** A record's doubter: the text as it is where the record's claims cannot be read or put it in no doubt. */
function doubter(twin: Json | null, words: ComparisonWords): Doubter {
  const record = claimsReadable(twin);
  if (!record) return (text) => text;
  const claims = claimsByData(record);
  const standing = claimStanding(record);
  const wording: DoubtWording = {
    disputed: (values) => fillMessage(words.disputed, { values }),
    unverified: words.unverified,
    or: words.or,
    number: formatNumber,
    value: valueWithUnit,
  };
  return (text, collection, ids, fields) => {
    const doubt = doubtWords(factDoubt(standing, claimsOn(claims, collection, ids, fields)), wording);
    return doubt ? `${text} (${doubt})` : text;
  };
}

/** Money as the pages write it, in the page's words. */
function moneyIn(words: ComparisonWords): MoneyFormatter {
  return moneyFormatter({
    currencyNotStated: (amount) => fillMessage(words.currencyNotStated, { amount }),
    minorUnits: (amount, exponent) => fillMessage(words.minorUnits, { amount, exponent }),
  });
}

/** The lowest price among a commerce record's offers: a public price when there is one, its basis and provider beside it, its doubt after. */
function priceFrom(record: Json | null, doubted: Doubter, formatMoney: MoneyFormatter): string[] {
  const listings = new Map(itemsOf(record, 'provider_listings').map((listing) => [textOf(listing.id), listing]));
  const offers = itemsOf(record, 'offers').filter((offer) => isAskablePrice(offer.base_amount_minor, offer.minor_unit_exponent));
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
  const price = formatMoney(numberOf(lowest.base_amount_minor), textOf(lowest.currency), numberOf(lowest.minor_unit_exponent))!;
  // Its doubt is that of the provider's offers on the same basis, in the same currency, as the key facts' price range.
  const currency = (offer: Json) => textOf(offer.currency)?.toUpperCase() ?? null;
  const range = offers
    .filter(
      (offer) =>
        offer.provider_listing_id === lowest.provider_listing_id &&
        offer.price_basis === lowest.price_basis &&
        currency(offer) === currency(lowest),
    )
    .map((offer) => textOf(offer.id))
    .filter((id): id is string => id !== null);
  return [doubted(details ? `${price} (${details})` : price, 'offers', range, PRICE_FIELDS)];
}

/** Each fabric: its name, fibres with their shares, construction and knit or woven; and its weight in both units where given; each with its doubt. */
function fabrics(record: Json | null, doubted: Doubter): { fabric: string[]; weight: string[] } {
  const fabric: string[] = [];
  const weight: string[] = [];
  for (const profile of itemsOf(record, 'material_profiles')) {
    const ids = [textOf(profile.id)].filter((id): id is string => id !== null);
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
    const line = described ? (name ? `${name}: ${described}` : described) : name;
    const said = line && doubted(line, 'material_profiles', ids, FABRIC_FIELDS);
    // A fabric the record describes only by a doubt (a lining its sources disagree on) is still named, with the doubt.
    if (said && (described || said !== line)) fabric.push(said);
    const original = numberOf(profile.weight_original);
    const unit = textOf(profile.weight_original_unit);
    const gsm = numberOf(profile.weight_gsm);
    // Both units where both are given, the record's own first.
    const asGiven = original === null ? null : `${original}${unit ? ` ${unit}` : ''}`;
    const inGsm = gsm === null || unit === 'g/m²' ? null : `${gsm} g/m²`;
    const both = asGiven && inGsm ? `${asGiven} (${inGsm})` : (asGiven ?? inGsm);
    if (both) weight.push(doubted(name ? `${name}: ${both}` : both, 'material_profiles', ids, WEIGHT_FIELDS));
  }
  return { fabric, weight };
}

/** Measurements by point of measure and unit (`Chest width flat (in)`), each size's value in the order first given. */
function measurements(records: { record: Json | null; doubted: Doubter }[]): Map<string, string[]> {
  const rows = new Map<string, { sizes: Map<string, string>; ids: string[][] }>();
  records.forEach(({ record }, at) => {
    for (const item of itemsOf(record, 'measurements')) {
      const name = textOf(item.measurement_name);
      const value = numberOf(item.value);
      const size = textOf(item.size_label);
      if (!name || value === null || !size) continue;
      const unit = textOf(item.unit);
      const label = unit ? `${spelled(name)} (${unit})` : spelled(name);
      const row = rows.get(label) ?? { sizes: new Map<string, string>(), ids: records.map(() => []) };
      if (!row.sizes.has(size)) row.sizes.set(size, `${size}: ${value}`);
      const id = textOf(item.id);
      if (id) row.ids[at]!.push(id);
      rows.set(label, row);
    }
  });
  // A row's doubt is the first its records give, read from the items it shows.
  const doubted = (text: string, ids: string[][]) =>
    records.reduce((line, { doubted }, at) => (line === text ? doubted(text, 'measurements', ids[at]!, MEASUREMENT_FIELDS) : line), text);
  return new Map([...rows].map(([label, row]) => [label, [doubted([...row.sizes.values()].join(' · '), row.ids)]]));
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
  const read = records.map((record) => ({ record, doubted: doubter(record, words) }));
  /** A fact's text with the first doubt its records give, from the claims on the items it is read from. */
  const doubtedIn = (text: string, collection: string, idsIn: (items: Json[]) => Json[], fields: string[]) =>
    read.reduce((line, { record, doubted }) => {
      const ids = idsIn(itemsOf(record, collection))
        .map((item) => textOf(item.id))
        .filter((id): id is string => id !== null);
      return line === text ? doubted(text, collection, ids, fields) : line;
    }, text);
  const sizes = [
    ...new Set(records.flatMap((record) => itemsOf(record, 'size_ranges').flatMap((range) => listOf(range.labels).map(textOf)))),
  ].filter((label): label is string => label !== null);
  const colorName = (color: Json) => textOf(color.manufacturer_name) ?? textOf(color.id);
  const colors = [...new Set(records.flatMap((record) => itemsOf(record, 'colors').map(colorName)))].filter(
    (name): name is string => name !== null,
  );
  const { fabric, weight } = fabrics(tech ?? svc, doubter(tech ?? svc, words));
  const pages = [
    svc && { label: words.commerce, href: `/garments/${twins.slug}/svc/` },
    tech && { label: words.technical, href: `/garments/${twins.slug}/tech/` },
  ].filter((page): page is { label: string; href: string } => Boolean(page));
  const facts = new Map<string, string[]>([
    ['brand', brand ? [brand] : []],
    ['category', category ? [category] : []],
    ['priceFrom', priceFrom(svc, doubter(svc, words), moneyIn(words))],
    [
      'sizes',
      sizes.length > 0
        ? [doubtedIn(sizes.join(', '), 'size_ranges', (ranges) => ranges.filter((r) => listOf(r.labels).length > 0), SIZE_FIELDS)]
        : [],
    ],
    [
      'colors',
      colors.length > 0
        ? [
            colors
              .map((name) => doubtedIn(name, 'colors', (items) => items.filter((color) => colorName(color) === name), COLOR_FIELDS))
              .join(', '),
          ]
        : [],
    ],
    ['fabric', fabric],
    ['weight', weight],
  ]);
  for (const [label, lines] of measurements([tech, svc].map((record) => ({ record, doubted: doubter(record, words) }))))
    facts.set(`measurement:${label}`, lines);
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
