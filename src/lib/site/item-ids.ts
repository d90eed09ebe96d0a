import type { GarmentRecord } from '../record/types.ts';

/** Each data collection's item ids, with the position of the first item of each id. */
export type ItemIds = Map<string, Map<string, number>>;

/** The item ids of every data collection of a record, for resolving references. */
export function itemIdsOf(record: Pick<GarmentRecord, 'data'>): ItemIds {
  const ids: ItemIds = new Map();
  for (const [name, items] of Object.entries(record.data)) {
    if (!Array.isArray(items)) continue;
    const byId = new Map<string, number>();
    (items as { id: string }[]).forEach((item, i) => {
      if (!byId.has(item.id)) byId.set(item.id, i);
    });
    ids.set(name, byId);
  }
  return ids;
}
