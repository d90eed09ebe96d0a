// The site's own search, run in Node over the built Pagefind index: opened and searched by the very
// functions the search box uses (shard-search.ts), with Pagefind's own browser script
// (`/pagefind/<n>.<tag>/pagefind.js`). That script fetches its index files by URL, which Node's
// fetch cannot do from a folder, so a static server on loopback serves them to it.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { resolveRequestPath, staticFilesHandler } from '../serve/static-files.ts';
import type { FilterCounts, PagefindApi } from '../search/query/pagefind-api.ts';
import { plainExcerpt, resultView, type ResultView } from '../search/query/result-view.ts';
import { SEARCH_BUNDLE_PATH } from '../search/query/search-keys.ts';
import { SHARD_LIST_PATH, type ShardList } from '../search/query/shard-list.ts';
import { garmentQuery, type SearchState } from '../search/query/search-state.ts';
import { openSearchIndex, searchGarments, type SearchIndex } from '../search/query/shard-search.ts';
import { SiteUnavailableError } from './published-site.ts';

/** A garment found, as the search page shows it: its view (paths on the site) and its excerpt as plain text. */
export interface SiteSearchGarment {
  view: ResultView;
  excerpt: string;
}

/** What a search found, as the search page reports it. */
export interface SiteSearchAnswer {
  /** Garments found in all, of which `garments` holds the first `limit`. */
  total: number;
  garments: SiteSearchGarment[];
  /** The words searched for, and whether a word among those asked was replaced or left out (shard-search.ts). */
  searched: string;
  corrected: boolean;
  /** Words asked that no garment says, left out of a search that had other words (shard-search.ts). */
  dropped: string[];
  /** When nothing is found: searches that would find garments. */
  suggestions: string[];
  /** Per filter value, how many garments it would leave under the other filters' selections. */
  filterCounts: FilterCounts;
}

/** Searches a built site as its search page does. */
export interface SiteSearch {
  /** Searches for a state with words or a filter (isSearchable). */
  search(state: SearchState, limit: number): Promise<SiteSearchAnswer>;
  /** Stops the loopback server. */
  close(): Promise<void>;
}

/** The search of the site built into `outDir`; its index is opened again whenever a build changed it. */
export function openSiteSearch(outDir: string): SiteSearch {
  let server: Promise<{ server: Server; origin: string }> | undefined;
  let closed = false;
  let opened: { version: string; index: Promise<SearchIndex> } | undefined;

  const serveIndex = () =>
    (server ??= (async () => {
      if (closed) throw new Error('the search is closed');
      const serveFile = staticFilesHandler(outDir);
      const indexServer = createServer((request, response) => {
        if (!(request.url ?? '').startsWith(SEARCH_BUNDLE_PATH)) {
          response.writeHead(404).end();
          return;
        }
        serveFile(request, response).catch(() => response.destroy());
      });
      await new Promise<void>((resolve) => indexServer.listen(0, '127.0.0.1', resolve));
      return { server: indexServer, origin: `http://127.0.0.1:${(indexServer.address() as AddressInfo).port}` };
    })());

  /** A file of the site's index by its path on the site; never one outside the index. */
  const indexFile = (sitePath: string): string => {
    const file = sitePath.startsWith(SEARCH_BUNDLE_PATH) ? resolveRequestPath(outDir, sitePath) : null;
    if (file === null) throw new Error(`${sitePath} is not a file of the search index`);
    return file;
  };

  /** Opens the index as the search page does, its shards served on loopback (Pagefind's script fetches them); every filter file loaded, for the counts. */
  const openIndex = async (list: ShardList): Promise<SearchIndex> => {
    const origin = list.shards.length > 0 ? (await serveIndex()).origin : '';
    const index = await openSearchIndex(
      { ...list, shards: list.shards.map((bundle) => `${origin}${bundle}`) },
      {
        pagefind: (bundle) => import(pathToFileURL(indexFile(`${new URL(bundle).pathname}pagefind.js`)).href) as Promise<PagefindApi>,
        json: async (file) => JSON.parse(await readFile(indexFile(file), 'utf8')) as unknown,
      },
    );
    await index.pagefind?.filters();
    return index;
  };

  /** The index as built now: the shard list names every shard and word list by its content, so an unchanged list is an unchanged index. */
  const indexNow = async (): Promise<SearchIndex> => {
    const version = await readFile(indexFile(SHARD_LIST_PATH), 'utf8').catch(() => {
      throw new SiteUnavailableError(`the site has no search index yet (no ${SHARD_LIST_PATH}): build it with npm run build`);
    });
    if (opened?.version !== version) {
      const index = openIndex(JSON.parse(version) as ShardList);
      opened = { version, index };
      // A failed opening is not kept: the next search tries again.
      index.catch(() => {
        if (opened?.index === index) opened = undefined;
      });
    }
    return opened.index;
  };

  const searchOnce = async (state: SearchState, limit: number): Promise<SiteSearchAnswer> => {
    const found = await searchGarments(await indexNow(), garmentQuery(state, true));
    const data = await found.hits.next(limit);
    const garments = data.flatMap((hit) => {
      const view = resultView(hit);
      return view === null ? [] : [{ view, excerpt: plainExcerpt(hit.excerpt) }];
    });
    return {
      total: found.hits.count,
      garments,
      searched: found.searched,
      corrected: found.corrected,
      dropped: found.dropped,
      suggestions: found.suggestions,
      filterCounts: found.filters ?? {},
    };
  };

  return {
    async search(state, limit) {
      try {
        return await searchOnce(state, limit);
      } catch (error) {
        if (error instanceof SiteUnavailableError) throw error;
        // A build swapped a new index in while this one was read: its old files are gone. Once more, on the new one.
        opened = undefined;
        return searchOnce(state, limit);
      }
    },
    async close() {
      closed = true;
      if (server === undefined) return;
      const { server: indexServer } = await server;
      indexServer.closeAllConnections();
      await new Promise<void>((resolve) => indexServer.close(() => resolve()));
    },
  };
}
