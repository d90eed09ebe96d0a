import type { Claim, GarmentRecord } from '../record/types.ts';
import { fieldValueText } from './data-view.ts';
import { fieldLabel, formatValue } from './format.ts';
import { itemIdsOf, type ItemIds } from './item-ids.ts';

/** Where a claim's (or conflict's, gap's) target points in the record, as segments. */
export interface TargetPath {
  /** The record part or data collection: `offers`, `identity`, `sources`, `page`… */
  head: string;
  /** The item's id or index within a collection, or the next segment. */
  item: string | undefined;
  /** The field (or the segment after the item). */
  field: string | undefined;
}

/**
 * A target split into its parts. Accepts the usual spellings: `offers/o1`, `offers/o1/base_amount_minor`,
 * `data/offers/o1`, `/data/offers/0` (JSON pointer), `data.offers.o1`, `offers[o1]`, and any of these
 * after the record's `claim_target_base`; null when nothing names a part.
 * @example targetPath('data.offers[o1].currency', 'garment:x') → { head: 'offers', item: 'o1', field: 'currency' }
 */
export function targetPath(target: string, claimTargetBase: string): TargetPath | null {
  let rest = target.trim();
  const base = claimTargetBase.trim();
  if (base && rest.startsWith(base)) rest = rest.slice(base.length);
  if (rest.includes('#')) rest = rest.slice(rest.indexOf('#') + 1);
  const segments = rest
    .split(/[/.[\]:]+/)
    .filter(Boolean)
    .map(decodePointerToken);
  if (segments[0] === 'data') segments.shift();
  const [head, item, field] = segments;
  return head ? { head, item, field } : null;
}

function decodePointerToken(token: string): string {
  return token.includes('~') ? token.replace(/~1/g, '/').replace(/~0/g, '~') : token;
}

/** The ids of the claims about each data item and field, by `collection/id` and `collection/id/field` (`identity/field` for identity). */
export type ClaimsByData = Map<string, string[]>;

/**
 * Indexes a record's claims by the data they target: an item given by index is indexed under its id,
 * a claim on a whole item under `collection/id` only.
 */
export function claimsByData(record: Pick<GarmentRecord, 'data' | 'claims' | 'claim_target_base'>): ClaimsByData {
  const index: ClaimsByData = new Map();
  const data = record.data as unknown as Record<string, unknown>;
  const ids = itemIdsOf(record);
  for (const claim of record.claims) {
    for (const target of claim.targets) {
      const path = targetPath(target, record.claim_target_base);
      if (!path || !(path.head in data)) continue;
      let key: string | null;
      if (path.head === 'identity') key = path.item === undefined ? 'identity' : `identity/${path.item}`;
      else key = itemKey(data[path.head] as { id: string }[], ids.get(path.head), path);
      if (key === null) continue;
      const list = index.get(key);
      if (!list) index.set(key, [claim.id]);
      else if (!list.includes(claim.id)) list.push(claim.id);
    }
  }
  return index;
}

/** `collection/id(/field)` of a target in a collection, given the collection's items and their ids (none when it is no collection). */
function itemKey(items: { id: string }[], idsOfCollection: Map<string, number> | undefined, path: TargetPath): string | null {
  if (!idsOfCollection) return null;
  if (path.item === undefined) return path.head;
  const id = idsOfCollection.has(path.item) ? path.item : /^\d+$/.test(path.item) ? items[Number(path.item)]?.id : undefined;
  if (id === undefined) return null;
  return path.field === undefined ? `${path.head}/${id}` : `${path.head}/${id}/${path.field}`;
}

/**
 * The claims backing fields of data items: for each item, the claims on the named fields and those on the whole
 * item (identity has no items: pass no ids and its fields).
 * @example claimsOn(index, 'offers', ['o1'], ['base_amount_minor']) → ['c-price-o1']
 */
export function claimsOn(index: ClaimsByData, collection: string, ids: readonly string[], fields: readonly string[]): string[] {
  const found = new Set<string>();
  const add = (key: string) => {
    for (const id of index.get(key) ?? []) found.add(id);
  };
  if (collection === 'identity') for (const field of fields) add(`identity/${field}`);
  for (const id of ids) {
    add(`${collection}/${id}`);
    for (const field of fields) add(`${collection}/${id}/${field}`);
  }
  return [...found];
}

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
