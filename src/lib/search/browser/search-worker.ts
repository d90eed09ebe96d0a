// The search thread's script (search-thread.ts starts it): opens the site's index with Pagefind
// running in this thread (Pagefind starts no worker of its own where there is no window), searches
// it, and sends the page what it shows.
import type { PagefindApi } from '../query/pagefind-api.ts';
import { entryFiles } from '../query/shard-list.ts';
import type { ThreadReply, ThreadRequest } from './search-thread.ts';
import { NO_HITS, openSearchIndex, searchGarments, type SearchIndex, type ShardHits } from '../query/shard-search.ts';
import { errorMessage } from '../../errors.ts';

/** Searches whose hits can still be read on: the page reads on the one it shows, and counts with others. */
const KEPT_SEARCHES = 8;

let index: Promise<SearchIndex> | null = null;
const searches = new Map<number, ShardHits>();

self.addEventListener('message', ({ data: request }: MessageEvent<ThreadRequest>) => {
  void answer(request).then(
    (reply) => self.postMessage(reply),
    (error: unknown) => self.postMessage({ id: request.id, error: errorMessage(error) } satisfies ThreadReply),
  );
});

async function answer(request: ThreadRequest): Promise<ThreadReply> {
  const { id } = request;
  switch (request.kind) {
    case 'open':
      answerEntryFiles(entryFiles(request.list));
      index = openSearchIndex(request.list, {
        pagefind: (bundle) => import(/* @vite-ignore */ `${bundle}pagefind.js`) as Promise<PagefindApi>,
        json: async (path) => {
          const response = await fetch(path);
          if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
          return response.json();
        },
      });
      await index;
      return { id, done: true };
    case 'search': {
      const { hits, ...found } = await searchGarments(await opened(), request.query);
      searches.set(id, hits);
      for (const old of searches.keys()) if (searches.size > KEPT_SEARCHES) searches.delete(old);
      return { id, search: { ...found, count: hits.count } };
    }
    case 'next': {
      // Each hit as soon as it and those before it are loaded, so the page shows the first without waiting for the batch.
      const data = await (searches.get(request.search) ?? NO_HITS).next(request.count, (hit) =>
        self.postMessage({ id, hit } satisfies ThreadReply),
      );
      return { id, data };
    }
    case 'filters':
      await (await opened()).pagefind?.filters();
      return { id, done: true };
  }
}

/** Pagefind's requests for the entry files it is given, answered here: a round trip less before each shard's metadata. */
function answerEntryFiles(entries: Map<string, string>): void {
  const siteFetch = self.fetch.bind(self);
  self.fetch = (input, init) => {
    const entry = typeof input === 'string' ? entries.get(input) : undefined;
    return entry === undefined
      ? siteFetch(input, init)
      : Promise.resolve(new Response(entry, { headers: { 'Content-Type': 'application/json' } }));
  };
}

function opened(): Promise<SearchIndex> {
  if (!index) throw new Error('the search thread was asked to search before it was given an index');
  return index;
}
