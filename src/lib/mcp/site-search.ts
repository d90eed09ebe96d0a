// The site's own search, run in Node over the built Pagefind index: the shards are opened and
// searched by the very functions the search box uses (shard-search.ts), with Pagefind's own browser
// script (`/pagefind/<n>/pagefind.js`). That script fetches its index files by URL, which Node's
// fetch cannot do from a folder, so a static server on loopback serves them to it.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { staticFilesHandler } from '../serve/static-files.ts';
import type { FilterCounts, PagefindApi } from '../search/pagefind-api.ts';
import { plainExcerpt, resultView } from '../search/result-view.ts';
import { SEARCH_BUNDLE_PATH } from '../search/search-keys.ts';
import { SHARD_LIST_PATH, type ShardList } from '../search/search-shards.ts';
import { searchTerm, selectedFilters, SORT_ORDERS, type SearchState } from '../search/search-state.ts';
import { openShards, searchShards, type ShardInstance } from '../search/shard-search.ts';
import { SiteUnavailableError } from './published-site.ts';

/** One hit as the search box shows it, in text. */
export interface SiteSearchHit {
  /** The page's path on the site. */
  path: string;
  title: string;
  /** The projection's name (Commerce, Technical) and code (svc, tech). */
  projection: string;
  projectionCode: string;
  /** The research status as the page words it. */
  status: string;
  /** Words around the match, as plain text. */
  excerpt: string;
}

/** What a search found: how many hits in all, the first `limit` of them, and per filter value how many hits it would leave. */
export interface SiteSearchAnswer {
  total: number;
  hits: SiteSearchHit[];
  filterCounts: FilterCounts;
}

/** Searches a built site as its search page does. */
export interface SiteSearch {
  /** Searches for a state with words or a filter (isSearchable). */
  search(state: SearchState, limit: number): Promise<SiteSearchAnswer>;
  /** Stops the loopback server. */
  close(): Promise<void>;
}

/** A shard bundle's address as shards.json lists it. */
const SHARD_BUNDLE = /^\/pagefind\/\d+\/$/;

/** The search of the site built into `outDir`; its index is read again whenever a build changed it. */
export function openSiteSearch(outDir: string): SiteSearch {
  let server: Promise<{ server: Server; origin: string }> | undefined;
  let closed = false;
  let opened: { version: string; shards: Promise<ShardInstance[]> } | undefined;

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

  /** The index's version: the shard list and each shard's entry file, which name every index file by its hash. */
  const indexVersion = async (): Promise<{ version: string; bundles: string[] }> => {
    const list = await readFile(path.join(outDir, SHARD_LIST_PATH), 'utf8').catch(() => {
      throw new SiteUnavailableError(`the site has no search index yet (no ${SHARD_LIST_PATH}): build it with npm run build`);
    });
    const bundles = (JSON.parse(list) as ShardList).shards.filter((bundle) => SHARD_BUNDLE.test(bundle));
    const entries = await Promise.all(bundles.map((bundle) => readFile(path.join(outDir, bundle, 'pagefind-entry.json'), 'utf8')));
    return { version: JSON.stringify([list, entries]), bundles };
  };

  const shardsNow = async (): Promise<ShardInstance[]> => {
    const { version, bundles } = await indexVersion();
    if (opened?.version !== version) {
      const shards = (async () => {
        if (bundles.length === 0) return [];
        const { origin } = await serveIndex();
        // Every shard's script is the same Pagefind; the first one's is used for all, as in the browser.
        const api = (await import(pathToFileURL(path.join(outDir, bundles[0]!, 'pagefind.js')).href)) as PagefindApi;
        return openShards(api, bundles.map((bundle) => `${origin}${bundle}`));
      })();
      opened = { version, shards };
      // A failed opening is not kept: the next search tries again.
      shards.catch(() => {
        if (opened?.shards === shards) opened = undefined;
      });
      return shards;
    }
    return opened.shards;
  };

  const searchOnce = async (state: SearchState, limit: number): Promise<SiteSearchAnswer> => {
    const sort = state.sort ? { key: state.sort, direction: SORT_ORDERS[state.sort] } : null;
    const found = await searchShards(await shardsNow(), searchTerm(state.query), selectedFilters(state), sort);
    const data = await found.hits.next(limit);
    const hits = data.flatMap((hit) => {
      const view = resultView(hit);
      return view === null
        ? []
        : [{ path: view.href, title: view.title, projection: view.projection, projectionCode: view.projectionCode, status: view.status, excerpt: plainExcerpt(hit.excerpt) }];
    });
    return { total: found.hits.count, hits, filterCounts: found.filters };
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
