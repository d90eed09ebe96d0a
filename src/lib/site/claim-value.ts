import type { Claim, GarmentRecord } from '../record/types.ts';
import { targetPath } from './claim-targets.ts';
import { fieldValueText } from './data-view.ts';
import { fieldLabel, formatValue } from './format.ts';
import { type ItemIds, itemIdsOf } from './item-ids.ts';

/** The item and field of the data a target names, and the item's collection (null for identity); null when it names no field of an item. */
function targetField(
  record: GarmentRecord,
  ids: ItemIds,
  target: string,
): { item: Record<string, unknown>; name: string; collection: string | null } | null {
  const path = targetPath(target, record.claim_target_base);
  const data = record.data as unknown as Record<string, unknown>;
  if (!path || !(path.head in data) || path.item === undefined) return null;
  if (path.head === 'identity') return { item: data.identity as Record<string, unknown>, name: path.item, collection: null };
  const items = data[path.head] as Record<string, unknown>[];
  const index = ids.get(path.head)?.get(path.item) ?? (/^\d+$/.test(path.item) ? Number(path.item) : undefined);
  const item = index === undefined ? undefined : items[index];
  return item && path.field !== undefined ? { item, name: path.field, collection: path.head } : null;
}

/**
 * A claim's value as the page shows the data it targets: a price in its offer's currency (`$11.95`,
 * not `1,195 USD minor units`), an enumeration's label, several fields' values each under its label,
 * a number in the claim's unit; else as formatValue says it.
 * @example claimValueText(record, { targets: ['offers/o1/base_amount_minor'], value: 1195, unit: 'USD minor units', … }) → '$11.95'
 */
export function claimValueText(
  record: GarmentRecord,
  claim: Pick<Claim, 'targets' | 'value' | 'unit'>,
  ids: ItemIds = itemIdsOf(record),
): string {
  const fields = claim.targets.map((target) => targetField(record, ids, target));
  const { value } = claim;
  if (fields.length > 0 && fields.every((field) => field !== null)) {
    const names = new Set(fields.map((field) => field.name));
    if (names.size === 1 && (typeof value !== 'object' || (Array.isArray(value) && value.every((v) => typeof v !== 'object')))) {
      const texts = new Set(fields.map(({ item, name, collection }) => fieldValueText(item, name, value, collection, claim.unit)));
      if (texts.size === 1 && !texts.has(null)) return [...texts][0]!;
    }
    // One value for each field, by its name: `{ first_item_minor: 475, additional_item_minor: 240 }`.
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && names.size === fields.length) {
      const byName = value as Record<string, unknown>;
      const texts = fields.map(
        ({ item, name, collection }) => Object.hasOwn(byName, name) && fieldValueText(item, name, byName[name], collection, claim.unit),
      );
      if (Object.keys(byName).length === fields.length && texts.every(Boolean))
        return fields.map(({ name }, i) => `${fieldLabel(name)}: ${texts[i]}`).join('; ');
    }
  }
  return formatValue(value, claim.unit);
}
