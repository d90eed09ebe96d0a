import type { RecordKey } from '../../record/index.ts';
import type { FilterCounts } from '../query/pagefind-api.ts';
import { SEARCH_BUNDLE_PATH } from '../query/search-keys.ts';
import type { WordCounts } from '../query/search-words.ts';

/**
 * Records per shard of the search index, aimed at (a garment's records are one page of it).
 * Pagefind holds a whole index in memory while it writes it (1.7 GB for one of 10,000 records here,
 * about 0.45 GB for 2,500: PERFORMANCE.md, issue 38), and
 * must rebuild an index to change one page, so a large site's index is split: shards are built one
 * after another, and a rebuild rebuilds only the shards holding a changed garment. The browser
 * searches every shard, fetching three files of each before the first hit: more shards cost a
 * phone more round trips than bigger ones cost it work (PERFORMANCE.md, Search).
 */
export const SHARD_PAGES = 4000;

/** How many shards an index of `pages` pages has: one per `shardPages` pages, at least one. */
function shardCount(pages: number, shardPages = SHARD_PAGES): number {
  return Math.max(1, Math.ceil(pages / shardPages));
}

/** The shard a garment's pages go to: fixed by its slug, so a rebuild finds it where it was. */
export function shardOf(slug: string, shards: number): number {
  // FNV-1a, then MurmurHash3's finaliser so similar slugs spread evenly; the same on every run and machine.
  let hash = 0x811c9dc5;
  for (let i = 0; i < slug.length; i++) hash = Math.imul(hash ^ slug.charCodeAt(i), 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return ((hash ^ (hash >>> 16)) >>> 0) % shards;
}

/**
 * The records of a site grouped by the shard their pages go to, shards in order and each sorted
 * by slug and projection: the order the index asks for pages in, whatever order they came in.
 */
export function indexingOrder<Entry extends RecordKey>(entries: readonly Entry[], shardPages?: number): Entry[][] {
  const shards = shardCount(entries.length, shardPages);
  const byShard = Array.from({ length: shards }, (): Entry[] => []);
  for (const entry of entries) byShard[shardOf(entry.slug, shards)]!.push(entry);
  const byPage = (a: Entry, b: Entry) =>
    a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : a.projection < b.projection ? -1 : a.projection > b.projection ? 1 : 0;
  return byShard.map((shard) => shard.sort(byPage));
}

/**
 * A shard's Pagefind bundle, on the site: `/pagefind/<n>.<tag>/`, named by its content (the hash
 * Pagefind gives its index), so every file in it, Pagefind's script included, can be cached for good.
 * @example shardFolder(3, 'en_9d5a863ff1') → '3.en_9d5a863ff1'
 */
export function shardFolder(shard: number, tag: string): string {
  return `${shard}.${tag}`;
}

/** A shard's bundle on the site, from its folder's name. */
export function shardPath(folder: string): string {
  return `${SEARCH_BUNDLE_PATH}${folder}/`;
}

/** The shard number of a bundle folder's name, or null when it is not one shardFolder makes. */
export function shardNumber(folder: string): number | null {
  const match = /^(\d+)\.[\w-]+$/.exec(folder);
  return match ? Number(match[1]) : null;
}

/** Where the site's words are, one file per first character (search-words.ts). */
export const WORDS_PATH = `${SEARCH_BUNDLE_PATH}words/`;

/** What the build keeps beside each shard's bundle, for the site's word lists and filter values. */
export const SHARD_SUMMARY_FILE = 'garment-press.json';

/** A shard's words and filter values, each with the garments of the shard that have it. */
export interface ShardSummary {
  words: WordCounts;
  filters: FilterCounts;
}
