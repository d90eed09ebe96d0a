// Which data a claim is about: its targets read as record parts, and the claims indexed by the data they target.
// Free of the site's words, so the compare page's script reads claims as the build does.
import type { GarmentRecord } from '../record/types.ts';
import { itemIdsOf } from './item-ids.ts';

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
