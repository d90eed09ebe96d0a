import type { GarmentRecord } from '../record/types.ts';
import { enumLabel, fieldLabel } from './format.ts';
import { itemTitle } from './data-view.ts';
import { targetPath } from './claim-targets.ts';
import { t } from './strings.ts';

/** Names an item of a data collection in words: `(collection, item) → 'podone, Black M'`. */
export type ItemNamer = (collection: string, item: Record<string, unknown>) => string;

/**
 * The namer of a record's items: offers, variants and provider variants by provider, colour and
 * size; measurements by what and which size; any other item by its naming field, else its id.
 * @example itemNamer(record)('variants', { id: 'var-black-m', color_id: 'black', size_label: 'M', … }) → 'Black M'
 */
export function itemNamer(record: GarmentRecord): ItemNamer {
  const data = record.data as unknown as Record<string, Record<string, unknown>[] | undefined>;
  const byId = (collection: string) => new Map((data[collection] ?? []).map((item) => [String(item.id), item]));
  const colors = byId('colors');
  const variants = byId('variants');
  const listings = byId('provider_listings');
  const providerVariants = byId('provider_variants');
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : null);
  const colorName = (id: unknown) => {
    const color = typeof id === 'string' ? colors.get(id) : undefined;
    return color ? (text(color.manufacturer_name) ?? String(color.id)) : text(id);
  };
  const variantName = (variant: Record<string, unknown> | undefined) =>
    variant ? [colorName(variant.color_id), text(variant.size_label)].filter(Boolean).join(' ') || String(variant.id) : null;
  const providerName = (listingId: unknown) => {
    const listing = typeof listingId === 'string' ? listings.get(listingId) : undefined;
    return listing ? (text(listing.provider_name) ?? text(listing.catalog_title) ?? String(listing.id)) : null;
  };
  const providerVariantName = (item: Record<string, unknown>) =>
    [text(item.raw_color_name), text(item.raw_size_label)].filter(Boolean).join(' ') || variantName(variants.get(String(item.variant_id))) || null;

  return (collection, item) => {
    switch (collection) {
      case 'variants':
        return variantName(item) ?? String(item.id);
      case 'provider_variants':
        return joined(providerName(item.provider_listing_id), providerVariantName(item)) ?? String(item.id);
      case 'offers': {
        const providerVariant = typeof item.provider_variant_id === 'string' ? providerVariants.get(item.provider_variant_id) : undefined;
        const which = (providerVariant && providerVariantName(providerVariant)) ?? variantName(variants.get(String(item.variant_id)))
          ?? (item.offer_kind ? enumLabel('offer_kind', String(item.offer_kind)) : null);
        return joined(providerName(item.provider_listing_id) ?? t('keyFacts.providerNotStated'), which) ?? String(item.id);
      }
      case 'measurements': {
        const what = text(item.measurement_name) ? enumLabel('measurement_name', String(item.measurement_name)) : null;
        return [what, text(item.size_label)].filter(Boolean).join(', ') || String(item.id);
      }
      default:
        return itemTitle(item, collection).title;
    }
  };
}

function joined(first: string | null, second: string | null): string | null {
  if (first && second) return `${first}, ${second}`;
  return first ?? second;
}

/** Fields that hold an item's value itself: a claim on one is about the item, named alone. */
const VALUE_FIELDS = new Set(['value', 'value_text', 'value_number', 'value_boolean', 'value_list', 'normalized_value_mm', 'supported', 'status']);

/** How many of a claim's subjects are named before "and N more". */
const SUBJECTS_NAMED = 2;

/**
 * What a claim (or conflict, or gap) is about, in words, from its targets: the item's name and
 * the field's label, `identity` fields by label; a target outside the data as written.
 * @example subjectOf(['additional_facts/af-drawcord/value_boolean'], …) → 'Drawcord'
 * @example subjectOf(['material_profiles/mp-twill/weight_gsm'], …) → 'Poly/cotton twill shell: weight (g/m²)'
 */
export function subjectOf(targets: readonly string[], record: GarmentRecord, nameOf: ItemNamer): string {
  const data = record.data as unknown as Record<string, unknown>;
  const subjects: string[] = [];
  for (const target of targets) {
    const path = targetPath(target, record.claim_target_base);
    let subject: string | null = null;
    if (path && path.head === 'identity') subject = path.item ? fieldLabel(path.item) : t('collection.identity');
    else if (path && Array.isArray(data[path.head])) {
      const items = data[path.head] as Record<string, unknown>[];
      const item = path.item === undefined ? undefined
        : (items.find((i) => i.id === path.item) ?? (/^\d+$/.test(path.item) ? items[Number(path.item)] : undefined));
      if (path.item === undefined) subject = fieldLabel(path.head);
      else if (item) {
        // Claims on several sizes of one measurement are about the measurement.
        const name = path.head === 'measurements' && targets.length > 1 && item.measurement_name
          ? enumLabel('measurement_name', String(item.measurement_name))
          : nameOf(path.head, item);
        subject = path.field === undefined || VALUE_FIELDS.has(path.field) ? name : `${name}: ${fieldLabel(path.field).toLowerCase()}`;
      }
    }
    subject ??= target;
    if (!subjects.includes(subject)) subjects.push(subject);
  }
  if (subjects.length <= SUBJECTS_NAMED + 1) return subjects.join('; ');
  return t('claim.subjectMore', { subjects: subjects.slice(0, SUBJECTS_NAMED).join('; '), count: subjects.length - SUBJECTS_NAMED });
}
