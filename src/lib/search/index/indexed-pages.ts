import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { IndexedPage } from './search-record.ts';

/** Pagefind writes each page's data as gzipped JSON behind this signature, in `fragment/<hash>.pf_fragment`. */
const FRAGMENT_SIGNATURE = 'pagefind_dcd';

/**
 * The pages a written Pagefind index holds, by URL: the text, metadata and filters each was given. A missing
 * folder, or a file that is not a page fragment as Pagefind 1 writes them, is left out rather than
 * trusted, so its record is simply read again.
 */
export function readIndexedPages(bundleDir: string): Map<string, IndexedPage> {
  const pages = new Map<string, IndexedPage>();
  const dir = path.join(bundleDir, 'fragment');
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.pf_fragment'));
  } catch {
    return pages;
  }
  for (const name of names) {
    const page = fragmentPage(path.join(dir, name));
    if (page) pages.set(page.url, { content: page.content, filters: page.filters, meta: page.meta });
  }
  return pages;
}

function fragmentPage(file: string): (IndexedPage & { url: string }) | null {
  try {
    const bytes = gunzipSync(readFileSync(file));
    if (bytes.subarray(0, FRAGMENT_SIGNATURE.length).toString('latin1') !== FRAGMENT_SIGNATURE) return null;
    const data = JSON.parse(bytes.subarray(FRAGMENT_SIGNATURE.length).toString('utf8')) as Record<string, unknown>;
    const { url, content, filters, meta } = data;
    if (typeof url !== 'string' || typeof content !== 'string' || !isFilterMap(filters) || !isTextMap(meta)) return null;
    return { url, content, filters, meta };
  } catch {
    return null;
  }
}

function isTextMap(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((text) => typeof text === 'string')
  );
}

function isFilterMap(value: unknown): value is Record<string, string[]> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((values) => Array.isArray(values) && values.every((v) => typeof v === 'string'))
  );
}
