import path from 'node:path';
import * as pagefind from 'pagefind';
import { GarmentPressError } from '../errors.ts';
import { SEARCH_BUNDLE_PATH } from './search-keys.ts';

/** Pagefind could not index a built site; the site being built must not be published. */
export class SearchIndexError extends GarmentPressError {}


/** Only record pages carry `data-pagefind-body`; reading just them keeps a large site quick to index. */
const RECORD_PAGES = 'garments/*/*/index.html';

/** How indexing went. */
export interface SearchIndexSummary {
  /** Pages in the index. */
  pages: number;
  seconds: number;
}

/**
 * Indexes the record pages of a built site, once, with Pagefind's Node API, and writes the
 * index into `<siteDir>/pagefind/`. Any error Pagefind reports, or an index that does not hold
 * `expectedPages` pages (one per record), becomes a SearchIndexError.
 */
export async function indexSite(siteDir: string, { expectedPages }: { expectedPages?: number } = {}): Promise<SearchIndexSummary> {
  const started = performance.now();
  const failed = (step: string, detail: string, cause?: unknown) =>
    new SearchIndexError(`search index: Pagefind failed while ${step} ${siteDir}: ${detail}`, { cause });
  try {
    const created = await pagefind.createIndex({});
    if (!created.index || created.errors.length > 0) throw failed('starting to index', created.errors.join('; ') || 'no index was created');
    const { index } = created;

    const added = await index.addDirectory({ path: siteDir, glob: RECORD_PAGES });
    if (added.errors.length > 0) throw failed('reading', added.errors.join('; '));
    if (expectedPages !== undefined && added.page_count !== expectedPages) {
      throw failed('reading', `indexed ${added.page_count} pages, expected ${expectedPages} (one per record); is data-pagefind-body missing from a record page?`);
    }

    const written = await index.writeFiles({ outputPath: path.join(siteDir, SEARCH_BUNDLE_PATH) });
    if (written.errors.length > 0) throw failed('writing the index into', written.errors.join('; '));

    return { pages: added.page_count, seconds: (performance.now() - started) / 1000 };
  } catch (error) {
    if (error instanceof SearchIndexError) throw error;
    // The service itself broke (binary missing, process crashed): say so, keep the cause.
    throw failed('indexing', (error as Error).message ?? String(error), error);
  } finally {
    await pagefind.close();
  }
}
