import type { GarmentRecord } from '../record/types.ts';
import { enumLabel, fieldLabel } from './format.ts';
import { itemTitle } from './data-view.ts';
import { type ItemIds, itemIdsOf } from './item-ids.ts';
import { targetPath } from './claim-targets.ts';
import { t } from './strings.ts';

/** Names an item of a data collection in words: `(collection, item) → 'podone, Black M'`. */
export type ItemNamer = (collection: string, item: Record<string, unknown>) => string;

/** The collections whose items itemNamer names otherwise than by their own naming field. */
export const NAMED_IN_WORDS = new Set(['variants', 'provider_variants', 'offers', 'measurements']);

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
    [text(item.raw_color_name), text(item.raw_size_label)].filter(Boolean).join(' ') ||
    variantName(variants.get(String(item.variant_id))) ||
    null;

  return (collection, item) => {
    switch (collection) {
      case 'variants':
        return variantName(item) ?? String(item.id);
      case 'provider_variants':
        return joined(providerName(item.provider_listing_id), providerVariantName(item)) ?? String(item.id);
      case 'offers': {
        const providerVariant = typeof item.provider_variant_id === 'string' ? providerVariants.get(item.provider_variant_id) : undefined;
        const which =
          (providerVariant && providerVariantName(providerVariant)) ??
          variantName(variants.get(String(item.variant_id))) ??
          (item.offer_kind ? enumLabel('offer_kind', String(item.offer_kind)) : null);
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
const VALUE_FIELDS = new Set([
  'value',
  'value_text',
  'value_number',
  'value_boolean',
  'value_list',
  'normalized_value_mm',
  'supported',
  'status',
]);

/** How many of a claim's subjects are named before "and N more". */
const SUBJECTS_NAMED = 2;

/** Says what a claim (or conflict, or gap) is about, in words, from its targets. */
export type SubjectNamer = (targets: readonly string[]) => string;

/**
 * The subject namer of a record's claims, conflicts and gaps: the item's name and the field's label,
 * `identity` fields by label; a target outside the data as written. Made once per page: it keeps
 * what it has worked out, as a record's claims, conflicts and gaps name the same targets again and again.
 * @example subjectNamer(record, nameOf)(['additional_facts/af-drawcord/value_boolean']) → 'Drawcord'
 * @example subjectNamer(record, nameOf)(['material_profiles/mp-twill/weight_gsm']) → 'Poly/cotton twill shell: weight (g/m²)'
 */
export function subjectNamer(record: GarmentRecord, nameOf: ItemNamer, ids: ItemIds = itemIdsOf(record)): SubjectNamer {
  // What each target names alone, and as one of several: keyed by the target as written, whose hash V8 keeps.
  const said = { alone: new Map<string, string>(), several: new Map<string, string>() };
  return (targets) => {
    const subjects: string[] = [];
    const several = targets.length > 1;
    const known = several ? said.several : said.alone;
    for (const target of targets) {
      let subject = known.get(target);
      if (subject === undefined) known.set(target, (subject = targetSubject(target, several, record, nameOf, ids)));
      if (!subjects.includes(subject)) subjects.push(subject);
    }
    if (subjects.length <= SUBJECTS_NAMED + 1) return subjects.join('; ');
    return t('claim.subjectMore', { subjects: subjects.slice(0, SUBJECTS_NAMED).join('; '), count: subjects.length - SUBJECTS_NAMED });
  };
}

/** What one target names, in words; `several` when it is one of a claim's several targets. */
function targetSubject(target: string, several: boolean, record: GarmentRecord, nameOf: ItemNamer, ids: ItemIds): string {
  const data = record.data as unknown as Record<string, unknown>;
  const path = targetPath(target, record.claim_target_base);
  if (!path) return target;
  if (path.head === 'identity') return path.item ? fieldLabel(path.item) : t('collection.identity');
  if (!Array.isArray(data[path.head])) return target;
  if (path.item === undefined) return fieldLabel(path.head);
  const items = data[path.head] as Record<string, unknown>[];
  const position = ids.get(path.head)?.get(path.item) ?? (/^\d+$/.test(path.item) ? Number(path.item) : undefined);
  const item = position === undefined ? undefined : items[position];
  if (!item) return target;
  // Claims on several sizes of one measurement are about the measurement.
  const name =
    path.head === 'measurements' && several && item.measurement_name
      ? enumLabel('measurement_name', String(item.measurement_name))
      : nameOf(path.head, item);
  return path.field === undefined || VALUE_FIELDS.has(path.field) ? name : `${name}: ${fieldLabel(path.field).toLowerCase()}`;
}
