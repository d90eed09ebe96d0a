// The site's search in a thread of its own (search-worker.ts), for the search page: Pagefind runs
// there in the worker's own thread, and the page is sent what it shows (the count, the garments of a
// batch, the filter counts), never every hit. With Pagefind's own worker, a word in 50,000 garments
// sent the page 50,000 hits to copy and wrap, a third of a second of its main thread.
import type { PagefindResultData } from '../query/pagefind-api.ts';
import type { ShardList } from '../query/shard-list.ts';
import type { GarmentQuery, GarmentSearch } from '../query/shard-search.ts';

/** What the page asks of the thread: to open the index a shard list names, to search it, the next hits of a search, or to load every filter file. */
export type ThreadRequest = { id: number } & (
  | { kind: 'open'; list: ShardList }
  | { kind: 'search'; query: GarmentQuery }
  | { kind: 'next'; search: number; count: number }
  | { kind: 'filters' }
);

/** A search as the thread sends it: the hits' count in place of the hits. */
export type ThreadSearch = Omit<GarmentSearch, 'hits'> & { count: number };

/** The thread's answer to the request of the same id: an error's message, or what was asked for; a batch of hits is sent hit by hit (`hit`), as each is loaded, then whole. */
export type ThreadReply = { id: number } & (
  | { error: string }
  | { search: ThreadSearch }
  | { hit: PagefindResultData }
  | { data: PagefindResultData[] }
  | { done: true }
);

/** The index opened in the thread. */
export interface ThreadIndex {
  search: (query: GarmentQuery) => Promise<GarmentSearch>;
  /** Loads every filter file, so searches can count per value. */
  filters: () => Promise<void>;
  /** Ends the thread (an index a newer shard list replaced): what was asked of it is not answered. */
  close: () => void;
}

/** Starts a search thread and opens in it the index a shard list names. */
export function openInThread(list: ShardList): ThreadIndex {
  const worker = new Worker(new URL('./search-worker.ts', import.meta.url), { type: 'module' });
  const pending = new Map<
    number,
    { resolve: (reply: ThreadReply) => void; reject: (error: Error) => void; onHit?: (data: PagefindResultData) => void }
  >();
  let last = 0;
  worker.addEventListener('message', ({ data: reply }: MessageEvent<ThreadReply>) => {
    const waiting = pending.get(reply.id);
    if ('hit' in reply) return waiting?.onHit?.(reply.hit);
    pending.delete(reply.id);
    if ('error' in reply) waiting?.reject(new Error(reply.error));
    else waiting?.resolve(reply);
  });
  const rejectPending = (reason: string) => {
    for (const waiting of pending.values()) waiting.reject(new Error(reason));
    pending.clear();
  };
  // The worker's script failed to load or run: nothing asked of it will be answered.
  worker.addEventListener('error', (event) => rejectPending(event.message || 'the search thread failed'));
  const ask = (
    request: ThreadRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never,
    onHit?: (data: PagefindResultData) => void,
  ) =>
    new Promise<ThreadReply>((resolve, reject) => {
      const id = ++last;
      pending.set(id, { resolve, reject, onHit });
      worker.postMessage({ ...request, id });
    });
  const opened = ask({ kind: 'open', list });
  opened.catch(() => {});
  return {
    async search(query) {
      await opened;
      const reply = await ask({ kind: 'search', query });
      if (!('search' in reply)) throw new Error('the search thread answered a search with no search');
      const { count, ...found } = reply.search;
      return {
        ...found,
        hits: {
          count,
          next: async (batch, onData) => {
            const answer = await ask({ kind: 'next', search: reply.id, count: batch }, onData);
            return 'data' in answer ? answer.data : [];
          },
        },
      };
    },
    async filters() {
      await opened;
      await ask({ kind: 'filters' });
    },
    close() {
      worker.terminate();
      rejectPending('the search thread was closed');
    },
  };
}
