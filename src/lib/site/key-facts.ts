import type { CommerceRecord, GarmentRecord, SvcData, TechData, TechnicalRecord } from '../record/types.ts';
import { claimsByData, claimsOn, type ClaimsByData } from './claim-targets.ts';
import { claimStanding, type ClaimStanding } from './claim-standing.ts';
import { colorSwatch } from './color-swatch.ts';
import { firstPresent } from './text.ts';
import { webUrl } from './web-address.ts';
import { isAskablePrice, moneyAmount } from './money.ts';

/** A fact read from a record's data: its value (null when the record does not state it) and the claims backing it. */
export interface Fact<T> {
  value: T | null;
  /** Ids of the claims whose targets are the data this fact is read from, in record order. */
  claimIds: string[];
}

/** An amount of money as the record gives it: minor units, currency code, minor-unit exponent. */
export interface Money {
  amountMinor: number;
  currency: string | null;
  exponent: number | null;
}

type Offer = SvcData['offers'][number];
/** How a price was obtained (`price_basis`). */
export type PriceBasis = NonNullable<Offer['price_basis']>;
/** What an offer's price is for (`offer_kind`). */
export type OfferKind = NonNullable<Offer['offer_kind']>;

/** The lowest and highest price a provider lists on one basis, in one currency. */
export interface PriceRange {
  basis: PriceBasis | null;
  /** What the prices are for, when all its offers say the same. */
  kind: OfferKind | null;
  low: Money;
  high: Money;
  /** The offers the range is read from. */
  offerIds: string[];
  /** The smallest minimum order quantity among them, when stated. */
  quantityMin: number | null;
  /** The latest observation among them (a record timestamp, as written). */
  observedAt: string | null;
  claimIds: string[];
}

/** One provider's prices: a range per basis and currency, the public basis first. */
export interface ProviderPrices {
  /** The provider listing's id; null for offers that name none. */
  listingId: string | null;
  /** The provider's name as the record gives it (provider name, else catalog title); null when none. */
  name: string | null;
  /** The host of an offer's web address, to name a provider the record does not (`prairieworkwear.example`). */
  site: string | null;
  platform: 'podone' | 'podtwo' | 'other' | null;
  ranges: PriceRange[];
}

/** The lowest price on the page: the lowest public price when there is one, else the lowest on any basis. */
export interface PriceFrom {
  money: Money;
  basis: PriceBasis | null;
  kind: OfferKind | null;
  quantityMin: number | null;
  provider: string | null;
  site: string | null;
  listingId: string | null;
  observedAt: string | null;
  claimIds: string[];
}

/** The sizes a garment comes in. */
export interface Sizes {
  labels: string[];
  /** The size system (`US alpha, unisex adult`), when stated. */
  system: string | null;
  /** The manufacturer's fit term (`Classic fit`), when stated. */
  fit: string | null;
  /** A web address of a size chart: a size range's, else the catalog's size chart image. */
  chartUrl: string | null;
}

/** A colour, named as the manufacturer names it. */
export interface ColorFact {
  id: string;
  /** The manufacturer's name, else a supplier's, else the id. */
  name: string;
  code: string | null;
  /** A CSS `#rrggbb` colour from the record's colour values, when its colour space is one this site converts. */
  swatch: string | null;
  claimIds: string[];
}

/** Stock of one provider's variants. */
export interface ProviderStock {
  listingId: string | null;
  name: string | null;
  inStock: number;
  outOfStock: number;
  /** Variants whose stock is not stated. */
  unknown: number;
  observedAt: string | null;
  /** The provider's own note on availability, as written. */
  note: string | null;
  claimIds: string[];
}

/** A decoration method and who offers it. */
export interface DecorationFact {
  method: NonNullable<SvcData['decoration_methods'][number]['method']> | null;
  /** True when any provider supports it, false when every mention says it is not, null when not stated. */
  supported: boolean | null;
  /** Names of the providers listing it (provider listing ids where unnamed). */
  providers: string[];
  claimIds: string[];
}

/** The key facts of a commerce page. */
export interface CommerceFacts {
  projection: 'svc';
  prices: ProviderPrices[];
  priceFrom: PriceFrom | null;
  sizes: Fact<Sizes>;
  colors: ColorFact[];
  stock: ProviderStock[];
  decoration: DecorationFact[];
  /** The call to action with a web address to follow; null when the record gives no address. */
  nextStep: { label: string | null; url: string } | null;
  /** The page's call to action (`cta_label`) as written, with or without an address. */
  callToAction: string | null;
  standing: ClaimStanding;
}

/** What one fabric (material profile) is made of and how. */
export interface FabricFacts {
  id: string;
  name: string | null;
  /** The layer (`shell`, `lining`), when stated. */
  layer: string | null;
  fibres: Fact<{ name: string; percent: number | null }[]>;
  /** Whether the fibre list is complete, as the record says. */
  compositionComplete: boolean | null;
  weight: Fact<{ original: { value: number; unit: string | null } | null; gsm: number | null; basis: string | null }>;
  construction: Fact<string>;
  knitOrWoven: Fact<string>;
}

/** A point of measure and the sizes measured at it. */
export interface MeasurePoint {
  /** The measurement name (`chest_width_flat`), or a size-chart row's label. */
  name: string;
  sizes: string[];
  claimIds: string[];
}

/** An asset and what its rights allow. */
export interface AssetFact {
  id: string;
  name: string | null;
  kind: string | null;
  format: string | null;
  licenseStatus: string | null;
  rights: {
    redistribution: boolean | null;
    derivatives: boolean | null;
    training: boolean | null;
    manufacturing: boolean | null;
  };
  productionReady: boolean | null;
  claimIds: string[];
}

/** The key facts of a technical page. */
export interface TechnicalFacts {
  projection: 'tech';
  fabrics: FabricFacts[];
  sizes: Fact<Sizes>;
  measurePoints: MeasurePoint[];
  assets: AssetFact[];
  /** As on a commerce page: the call to action with a web address, and as written. */
  nextStep: { label: string | null; url: string } | null;
  callToAction: string | null;
  standing: ClaimStanding;
}

/** The key facts of a record page, by projection. */
export type KeyFacts = CommerceFacts | TechnicalFacts;

/**
 * The parts of a record its key facts are read from, and of its page the fields: keyFacts is given
 * only these (KeyFactsSource holds it to them), so a revision none of them changed has the key facts of the one before.
 */
export const KEY_FACTS_PARTS = ['projection', 'data', 'catalog', 'claims', 'conflicts', 'claim_target_base'] as const;
export const KEY_FACTS_PAGE_FIELDS = ['cta_label'] as const;

type KeyFactsOf<R extends GarmentRecord> = Pick<R, (typeof KEY_FACTS_PARTS)[number]> & {
  page: Pick<R['page'], (typeof KEY_FACTS_PAGE_FIELDS)[number]>;
};
/** A record as its key facts see it. */
export type KeyFactsSource = KeyFactsOf<CommerceRecord> | KeyFactsOf<TechnicalRecord>;

/**
 * The key facts of a record, read from its data (never from its prose), each with the claims backing it.
 * A fact the record does not state is null (or an empty list): the page says so. The garment page,
 * the record page and the search page all show them: a build reads them once per record and passes them on.
 */
export function keyFacts(record: KeyFactsSource): KeyFacts {
  return record.projection === 'svc' ? commerceFacts(record) : technicalFacts(record);
}

const BASIS_ORDER: (PriceBasis | null)[] = [
  'standard_public',
  'standard_authenticated',
  'account_plan',
  'membership_discounted',
  'promotional',
  'volume_discounted',
  'other',
  null,
];

/** The key facts of a commerce record. */
export function commerceFacts(record: KeyFactsOf<CommerceRecord>, claims: ClaimsByData = claimsByData(record)): CommerceFacts {
  const { data } = record;
  const listings = new Map(data.provider_listings.map((l) => [l.id, l]));
  const nameOf = (listingId: string | null) => {
    const listing = listingId === null ? undefined : listings.get(listingId);
    return listing ? (firstPresent(listing.provider_name, listing.catalog_title) ?? null) : null;
  };

  const prices = providerPrices(data, claims, nameOf);
  return {
    projection: 'svc',
    prices,
    priceFrom: priceFrom(prices),
    sizes: sizes(record, claims),
    colors: data.colors.map((color) => ({
      id: color.id,
      name: firstPresent(color.manufacturer_name, color.supplier_names?.[0]) ?? color.id,
      code: color.manufacturer_code,
      swatch: colorSwatch(color.color_space, color.color_values),
      claimIds: claimsOn(claims, 'colors', [color.id], ['manufacturer_name', 'manufacturer_code', 'color_values', 'supplier_names']),
    })),
    stock: stock(data, claims, nameOf),
    decoration: decoration(data, claims, nameOf),
    nextStep: nextStep(record),
    callToAction: callToAction(record),
    standing: claimStanding(record),
  };
}

function providerPrices(data: SvcData, claims: ClaimsByData, nameOf: (id: string | null) => string | null): ProviderPrices[] {
  const priced = data.offers.filter((offer): offer is Offer & { base_amount_minor: number } =>
    isAskablePrice(offer.base_amount_minor, offer.minor_unit_exponent),
  );
  // Providers in the order of their listings, then offers naming no listing (or an unknown one).
  const listingOrder = new Map(data.provider_listings.map((l, i) => [l.id, i]));
  const byProvider = new Map<string | null, (typeof priced)[number][]>();
  for (const offer of priced) {
    const key = offer.provider_listing_id !== null && listingOrder.has(offer.provider_listing_id) ? offer.provider_listing_id : null;
    const list = byProvider.get(key);
    if (list) list.push(offer);
    else byProvider.set(key, [offer]);
  }
  return [...byProvider.entries()]
    .sort(([a], [b]) => (a === null ? Infinity : listingOrder.get(a)!) - (b === null ? Infinity : listingOrder.get(b)!))
    .map(([listingId, offers]) => {
      const listing = listingId === null ? undefined : data.provider_listings[listingOrder.get(listingId)!];
      const groups = new Map<string, typeof offers>();
      for (const offer of offers) {
        const key = `${offer.price_basis}\u0000${offer.currency?.trim().toUpperCase() ?? ''}`;
        const group = groups.get(key);
        if (group) group.push(offer);
        else groups.set(key, [offer]);
      }
      const ranges = [...groups.values()].map((group): PriceRange => {
        const low = group.reduce((a, b) => (amount(b) < amount(a) ? b : a));
        const high = group.reduce((a, b) => (amount(b) > amount(a) ? b : a));
        const quantities = group.map((o) => o.quantity_min).filter((q): q is number => typeof q === 'number');
        const kinds = new Set(group.map((o) => o.offer_kind));
        return {
          basis: group[0]!.price_basis,
          kind: kinds.size === 1 ? group[0]!.offer_kind : null,
          low: money(low),
          high: money(high),
          offerIds: group.map((o) => o.id),
          quantityMin: quantities.length > 0 ? Math.min(...quantities) : null,
          observedAt: latest(group.map((o) => o.observed_at)),
          claimIds: claimsOn(
            claims,
            'offers',
            group.map((o) => o.id),
            ['base_amount_minor', 'currency', 'minor_unit_exponent', 'price_basis'],
          ),
        };
      });
      ranges.sort((a, b) => BASIS_ORDER.indexOf(a.basis) - BASIS_ORDER.indexOf(b.basis));
      const site = offers.map((o) => webUrl(o.price_url)).find(Boolean);
      return { listingId, name: nameOf(listingId), site: site ? new URL(site).host : null, platform: listing?.platform ?? null, ranges };
    });
}

/** The price's value in whole currency units, to compare prices of one currency. */
function amount(offer: Offer & { base_amount_minor: number }): number {
  return moneyAmount(offer.base_amount_minor, offer.currency, offer.minor_unit_exponent);
}

function money(offer: Offer & { base_amount_minor: number }): Money {
  return { amountMinor: offer.base_amount_minor, currency: offer.currency, exponent: offer.minor_unit_exponent };
}

function moneyValue(m: Money): number {
  return moneyAmount(m.amountMinor, m.currency, m.exponent);
}

function priceFrom(prices: ProviderPrices[]): PriceFrom | null {
  const all = prices.flatMap((provider) => provider.ranges.map((range) => ({ provider, range })));
  const publicOnes = all.filter(({ range }) => range.basis === 'standard_public');
  const pool = publicOnes.length > 0 ? publicOnes : all;
  // Prices in another currency than the first are not compared with it.
  const currency = pool[0]?.range.low.currency?.trim().toUpperCase() ?? null;
  const comparable = pool.filter(({ range }) => (range.low.currency?.trim().toUpperCase() ?? null) === currency);
  const best = comparable.reduce<(typeof comparable)[number] | null>(
    (a, b) => (a && moneyValue(a.range.low) <= moneyValue(b.range.low) ? a : b),
    null,
  );
  if (!best) return null;
  return {
    money: best.range.low,
    basis: best.range.basis,
    kind: best.range.kind,
    quantityMin: best.range.quantityMin,
    provider: best.provider.name,
    site: best.provider.site,
    listingId: best.provider.listingId,
    observedAt: best.range.observedAt,
    claimIds: best.range.claimIds,
  };
}

/** The latest of some timestamps, as written (ISO 8601 texts compare in time order when written alike). */
function latest(values: (string | null)[]): string | null {
  const present = values.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  return present.sort().at(-1) ?? null;
}

/**
 * The sizes of the size ranges (in their order), else of the variants, else of the provider listings;
 * with a size chart's web address where the record gives one.
 */
function sizes(record: KeyFactsSource, claims: ClaimsByData): Fact<Sizes> {
  const { data } = record;
  const chartUrl =
    data.size_ranges.map((r) => webUrl(r.size_chart_url)).find(Boolean) ?? webUrl(record.catalog?.size_chart_image_url) ?? null;
  const ranges = data.size_ranges.filter((r) => (r.labels ?? []).length > 0);
  if (ranges.length > 0) {
    return {
      value: {
        labels: distinct(ranges.flatMap((r) => r.labels ?? [])),
        system: distinct(ranges.map((r) => r.size_system)).join('; ') || null,
        fit: distinct(ranges.map((r) => r.manufacturer_fit_term)).join('; ') || null,
        chartUrl,
      },
      claimIds: claimsOn(
        claims,
        'size_ranges',
        ranges.map((r) => r.id),
        ['labels', 'size_system', 'manufacturer_fit_term'],
      ),
    };
  }
  const variants = data.variants.filter((v) => v.size_label);
  if (variants.length > 0) {
    return {
      value: { labels: distinct(variants.map((v) => v.size_label)), system: null, fit: null, chartUrl },
      claimIds: claimsOn(
        claims,
        'variants',
        variants.map((v) => v.id),
        ['size_label'],
      ),
    };
  }
  const listings = 'provider_listings' in data ? data.provider_listings.filter((l) => (l.available_size_labels ?? []).length > 0) : [];
  if (listings.length > 0) {
    return {
      value: { labels: distinct(listings.flatMap((l) => l.available_size_labels ?? [])), system: null, fit: null, chartUrl },
      claimIds: claimsOn(
        claims,
        'provider_listings',
        listings.map((l) => l.id),
        ['available_size_labels'],
      ),
    };
  }
  return { value: null, claimIds: [] };
}

function stock(data: SvcData, claims: ClaimsByData, nameOf: (id: string | null) => string | null): ProviderStock[] {
  const known = new Set(data.provider_listings.map((l) => l.id));
  const listingIds = distinctKeys([
    ...data.provider_listings.map((l) => l.id),
    ...data.provider_variants.map((v) => listingKey(v.provider_listing_id, known)),
  ]);
  const byListing = new Map<string | null, SvcData['provider_variants']>();
  for (const variant of data.provider_variants) {
    const key = listingKey(variant.provider_listing_id, known);
    const list = byListing.get(key);
    if (list) list.push(variant);
    else byListing.set(key, [variant]);
  }
  const listings = new Map(data.provider_listings.map((l) => [l.id, l]));
  return listingIds
    .map((listingId): ProviderStock => {
      const variants = byListing.get(listingId) ?? [];
      const listing = listingId === null ? undefined : listings.get(listingId);
      const inStock = variants.filter((v) => v.in_stock === true).length;
      const outOfStock = variants.filter((v) => v.in_stock === false).length;
      return {
        listingId,
        name: nameOf(listingId),
        inStock,
        outOfStock,
        unknown: variants.length - inStock - outOfStock,
        observedAt: latest([...variants.map((v) => v.observed_at), listing?.observed_at ?? null]),
        note: listing?.availability_note ?? null,
        claimIds: [
          ...claimsOn(
            claims,
            'provider_variants',
            variants.map((v) => v.id),
            ['in_stock', 'availability_status'],
          ),
          ...(listing ? claimsOn(claims, 'provider_listings', [listing.id], ['availability_note']) : []),
        ].filter((id, i, all) => all.indexOf(id) === i),
      };
    })
    .filter((provider) => provider.inStock + provider.outOfStock + provider.unknown > 0 || provider.note !== null);
}

function listingKey(id: string | null, known: Set<string>): string | null {
  return id !== null && known.has(id) ? id : null;
}

function decoration(data: SvcData, claims: ClaimsByData, nameOf: (id: string | null) => string | null): DecorationFact[] {
  const methods = distinctKeys(data.decoration_methods.map((m) => m.method));
  return methods.map((method) => {
    const entries = data.decoration_methods.filter((m) => m.method === method);
    const stated = entries.map((m) => m.supported).filter((s): s is boolean => s !== null);
    return {
      method,
      supported: stated.includes(true) ? true : stated.length > 0 ? false : null,
      providers: distinct(entries.map((m) => nameOf(m.provider_listing_id) ?? m.provider_listing_id)),
      claimIds: claimsOn(
        claims,
        'decoration_methods',
        entries.map((m) => m.id),
        ['method', 'supported'],
      ),
    };
  });
}

function nextStep(record: KeyFactsSource): CommerceFacts['nextStep'] {
  const url = webUrl(record.catalog?.launch_url);
  return url ? { label: callToAction(record), url } : null;
}

function callToAction(record: KeyFactsSource): string | null {
  return record.page.cta_label?.trim() ? record.page.cta_label : null;
}

/** The key facts of a technical record. */
export function technicalFacts(record: KeyFactsOf<TechnicalRecord>, claims: ClaimsByData = claimsByData(record)): TechnicalFacts {
  const { data } = record;
  return {
    projection: 'tech',
    fabrics: data.material_profiles.map((profile) => fabricFacts(profile, claims)),
    sizes: sizes(record, claims),
    measurePoints: measurePoints(record, claims),
    assets: data.assets.map((asset) => ({
      id: asset.id,
      name: asset.name,
      kind: asset.kind,
      format: asset.format,
      licenseStatus: asset.license_status,
      rights: {
        redistribution: asset.redistribution_allowed,
        derivatives: asset.derivatives_allowed,
        training: asset.training_allowed,
        manufacturing: asset.manufacturing_allowed,
      },
      productionReady: asset.production_ready,
      claimIds: claimsOn(
        claims,
        'assets',
        [asset.id],
        [
          'license_status',
          'redistribution_allowed',
          'derivatives_allowed',
          'training_allowed',
          'manufacturing_allowed',
          'production_ready',
          'format',
          'kind',
        ],
      ),
    })),
    nextStep: nextStep(record),
    callToAction: callToAction(record),
    standing: claimStanding(record),
  };
}

type MaterialProfile = TechData['material_profiles'][number];

/** One fabric's facts: fibres (names with percentages), weight in both units given, construction, knit or woven. */
function fabricFacts(profile: MaterialProfile, claims: ClaimsByData): FabricFacts {
  const on = (...fields: string[]) => claimsOn(claims, 'material_profiles', [profile.id], fields);
  const names = profile.fiber_names ?? [];
  const percentages = profile.fiber_percentages ?? [];
  const hasWeight = profile.weight_original !== null || profile.weight_gsm !== null;
  return {
    id: profile.id,
    name: profile.name,
    layer: profile.composition_layer,
    fibres: {
      value: names.length > 0 ? names.map((name, i) => ({ name, percent: percentages[i] ?? null })) : null,
      claimIds: on('fiber_names', 'fiber_percentages', 'composition_complete'),
    },
    compositionComplete: profile.composition_complete,
    weight: {
      value: hasWeight
        ? {
            original: profile.weight_original === null ? null : { value: profile.weight_original, unit: profile.weight_original_unit },
            gsm: profile.weight_gsm,
            basis: profile.weight_basis,
          }
        : null,
      claimIds: on('weight_original', 'weight_original_unit', 'weight_gsm', 'weight_basis'),
    },
    construction: { value: profile.fabric_construction, claimIds: on('fabric_construction') },
    knitOrWoven: { value: profile.knit_or_weave, claimIds: on('knit_or_weave') },
  };
}

/** The points of measure of the measurements (by name, with the sizes measured), else the size chart's rows. */
function measurePoints(record: KeyFactsSource, claims: ClaimsByData): MeasurePoint[] {
  const measured = record.data.measurements.filter((m) => m.measurement_name !== null);
  if (measured.length > 0) {
    return distinctKeys(measured.map((m) => m.measurement_name!)).map((name) => {
      const items = measured.filter((m) => m.measurement_name === name);
      return {
        name,
        sizes: distinct(items.map((m) => m.size_label)),
        claimIds: claimsOn(
          claims,
          'measurements',
          items.map((m) => m.id),
          ['value', 'normalized_value_mm', 'measurement_name'],
        ),
      };
    });
  }
  const rows = record.catalog?.measurement_tables.flatMap((table) => table.rows) ?? [];
  return distinctKeys(rows.map((row) => row.label)).map((name) => ({
    name,
    sizes: distinct(rows.filter((row) => row.label === name).flatMap((row) => row.values.map((v) => v.size))),
    claimIds: [],
  }));
}

/** The distinct present texts, in order of first appearance. */
function distinct(values: (string | null | undefined)[]): string[] {
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && v.trim() !== ''))];
}

/** The distinct values, null included, in order of first appearance. */
function distinctKeys<T>(values: T[]): T[] {
  return [...new Set(values)];
}
