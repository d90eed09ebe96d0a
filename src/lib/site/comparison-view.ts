import type { GarmentRecord, SvcData } from '../record/types.ts';
import { itemAnchor } from './anchors.ts';
import { colorSwatch } from './color-swatch.ts';
import type { ClaimLink } from './data-view.ts';
import { enumLabel, formatDate, formatMoney, formatRange } from './format.ts';
import type { ItemNamer } from './item-names.ts';
import { t, tCount } from './strings.ts';

/** An offer as a row of the offers table. */
export interface OfferRow {
  id: string;
  /** Fragment id `offers-<id>`; empty for a repeated id. */
  anchor: string;
  provider: string;
  size: string | null;
  color: string | null;
  price: string;
  basis: string;
  /** The order quantity it holds for, when stated. */
  quantity: string | null;
  /** What the price includes and leaves out, in words. */
  included: string;
  observed: string | null;
  claims: ClaimLink[];
}

/** The offers table's columns after the provider, by their strings' keys (its last column is the claims). */
export const OFFER_COLUMNS = [
  'offers.provider',
  'offers.size',
  'offers.color',
  'offers.price',
  'offers.basis',
  'offers.quantity',
  'offers.included',
  'offers.observed',
] as const;

/** An offer's row as the table shows it, a text per column of OFFER_COLUMNS. */
export function offerCells(row: OfferRow): string[] {
  const notStated = t('value.notStated');
  return [
    row.provider,
    row.size ?? t('offers.anyVariant'),
    row.color ?? t('offers.anyVariant'),
    row.price,
    row.basis,
    row.quantity ?? notStated,
    row.included,
    row.observed ?? notStated,
  ];
}

/** A cell of the variant grid: one variant's stock across the providers listing it. */
export interface VariantCell {
  id: string;
  /** Fragment id `variants-<id>`; empty for a repeated id. */
  anchor: string;
  stock: string;
  /** For the cell's style: all in stock, some, none, or not stated. */
  state: 'in' | 'some' | 'out' | 'unknown';
  claims: ClaimLink[];
}

/** Variants as a grid: a row per colour, a column per size. */
export interface VariantGrid {
  sizes: string[];
  rows: { color: string; swatch: string | null; cells: (VariantCell | null)[] }[];
}

/** The comparison tables of a commerce page; null where the record has nothing to compare or it does not fit. */
export interface ComparisonViews {
  offers: OfferRow[] | null;
  variants: VariantGrid | null;
}

/** Offers as a table, and variants as a size × colour grid with stock, for a commerce record. */
export function comparisonViews(
  record: GarmentRecord,
  context: { claimsByAnchor: Map<string, ClaimLink[]>; nameOf: ItemNamer },
): ComparisonViews {
  if (record.projection !== 'svc') return { offers: null, variants: null };
  const { data } = record;
  return { offers: offerRows(data, context), variants: variantGrid(data, context) };
}

/** Anchors of a collection's items: the first of an id keeps it, a repeat gets none. */
function anchorsOf(collection: string, items: { id: string }[]): string[] {
  const seen = new Set<string>();
  return items.map((item) => {
    const anchor = seen.has(item.id) ? '' : itemAnchor(collection, item.id);
    seen.add(item.id);
    return anchor;
  });
}

function offerRows(
  data: SvcData,
  { claimsByAnchor, nameOf }: { claimsByAnchor: Map<string, ClaimLink[]>; nameOf: ItemNamer },
): OfferRow[] | null {
  if (data.offers.length === 0) return null;
  const anchors = anchorsOf('offers', data.offers);
  const listings = new Map(data.provider_listings.map((l) => [l.id, l]));
  const variants = new Map(data.variants.map((v) => [v.id, v]));
  const providerVariants = new Map(data.provider_variants.map((v) => [v.id, v]));
  const colors = new Map(data.colors.map((c) => [c.id, c]));
  return data.offers.map((offer, i) => {
    const listing = offer.provider_listing_id ? listings.get(offer.provider_listing_id) : undefined;
    const providerVariant = offer.provider_variant_id ? providerVariants.get(offer.provider_variant_id) : undefined;
    const variant = variants.get(offer.variant_id ?? providerVariant?.variant_id ?? '');
    const color = variant?.color_id ? colors.get(variant.color_id) : undefined;
    return {
      id: offer.id,
      anchor: anchors[i]!,
      provider: listing
        ? nameOf('provider_listings', listing as unknown as Record<string, unknown>)
        : (offer.provider_listing_id ?? t('keyFacts.providerNotStated')),
      size: variant?.size_label ?? providerVariant?.raw_size_label ?? null,
      color: color?.manufacturer_name ?? variant?.color_id ?? providerVariant?.raw_color_name ?? null,
      price: formatMoney(offer.base_amount_minor, offer.currency, offer.minor_unit_exponent) ?? t('value.notStated'),
      basis: [enumLabel('price_basis', offer.price_basis), offer.offer_kind && enumLabel('offer_kind', offer.offer_kind)]
        .filter(Boolean)
        .join(', '),
      quantity: formatRange(offer.quantity_min, offer.quantity_max),
      included: includedText(offer),
      observed: offer.observed_at ? formatDate(offer.observed_at) : null,
      claims: anchors[i] ? (claimsByAnchor.get(anchors[i]!) ?? []) : [],
    };
  });
}

/** What an offer's price includes, then what it leaves out: "Blank, decoration (1 placement); not shipping, tax". */
function includedText(offer: SvcData['offers'][number]): string {
  const parts: [string, boolean | null][] = [
    [t('offers.blank'), offer.includes_blank],
    [
      offer.included_placement_count ? tCount('offers.placements', offer.included_placement_count) : t('offers.decoration'),
      offer.includes_decoration,
    ],
    [t('offers.shipping'), offer.includes_shipping],
    [t('offers.tax'), offer.includes_tax],
  ];
  const included = parts.filter(([, value]) => value === true).map(([name]) => name);
  const excluded = parts.filter(([, value]) => value === false).map(([name]) => name);
  const text = [
    included.length > 0 ? included.join(', ') : null,
    excluded.length > 0 ? t('offers.excluded', { items: excluded.join(', ') }) : null,
  ]
    .filter(Boolean)
    .join('; ');
  return text || t('value.notStated');
}

function variantGrid(data: SvcData, { claimsByAnchor }: { claimsByAnchor: Map<string, ClaimLink[]> }): VariantGrid | null {
  const { variants } = data;
  // A grid needs every variant placed in one cell of its own.
  if (variants.length < 2 || variants.some((v) => !v.color_id || !v.size_label)) return null;
  const cells = new Set(variants.map((v) => `${v.color_id}\u0000${v.size_label}`));
  if (cells.size !== variants.length) return null;
  const rangeSizes = data.size_ranges.flatMap((r) => r.labels ?? []);
  const variantSizes = new Set(variants.map((v) => v.size_label!));
  const variantColors = new Set(variants.map((v) => v.color_id!));
  const sizes = [...new Set([...rangeSizes.filter((size) => variantSizes.has(size)), ...variantSizes])];
  const colorOrder = [...new Set([...data.colors.map((c) => c.id).filter((id) => variantColors.has(id)), ...variantColors])];
  const colors = new Map(data.colors.map((c) => [c.id, c]));
  const byCell = new Map(variants.map((v) => [`${v.color_id}\u0000${v.size_label}`, v]));
  const listedBy = new Map<string, SvcData['provider_variants']>();
  for (const pv of data.provider_variants) {
    if (pv.variant_id === null) continue;
    const list = listedBy.get(pv.variant_id);
    if (list) list.push(pv);
    else listedBy.set(pv.variant_id, [pv]);
  }
  const variantAnchors = anchorsOf('variants', variants);
  const anchors = new Map(variants.map((v, i) => [v, variantAnchors[i]!]));
  return {
    sizes,
    rows: colorOrder.map((colorId) => {
      const color = colors.get(colorId);
      return {
        color: color?.manufacturer_name ?? colorId,
        swatch: color ? colorSwatch(color.color_space, color.color_values) : null,
        cells: sizes.map((size) => {
          const variant = byCell.get(`${colorId}\u0000${size}`);
          if (!variant) return null;
          const listed = listedBy.get(variant.id) ?? [];
          const inStock = listed.filter((pv) => pv.in_stock === true).length;
          const stated = listed.filter((pv) => pv.in_stock !== null).length;
          const state: VariantCell['state'] =
            stated === 0 ? 'unknown' : inStock === listed.length ? 'in' : inStock === 0 && stated === listed.length ? 'out' : 'some';
          const stock =
            listed.length === 0
              ? t('variants.notListed')
              : state === 'in'
                ? tCount('variants.inStock', listed.length)
                : state === 'out'
                  ? t('variants.outOfStock')
                  : state === 'unknown'
                    ? t('variants.stockNotStated')
                    : t('variants.inStockSome', { inStock, total: listed.length });
          const anchor = anchors.get(variant)!;
          return { id: variant.id, anchor, stock, state, claims: anchor ? (claimsByAnchor.get(anchor) ?? []) : [] };
        }),
      };
    }),
  };
}
