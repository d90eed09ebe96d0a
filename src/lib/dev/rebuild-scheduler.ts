/** The clock a scheduler waits on: the global timers, or a test's own. */
export interface Timers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

/** What starts rebuilds, and stops starting them. */
export interface RebuildScheduler<C> {
  /** Takes a change; a rebuild starts once no change has come for the quiet time. */
  notice(change: C): void;
  /** Rebuilds now with the changes noticed so far (none, for a first build), unless a rebuild runs; resolves when that one is done. */
  rebuildNow(): Promise<void>;
  /** Starts no more rebuilds and resolves when the running one, if any, is done. */
  close(): Promise<void>;
}

/**
 * Turns bursts of file changes into rebuilds, one at a time: a rebuild starts `quietMs` after the
 * last change of a burst, with every change since the last rebuild; changes noticed while one runs
 * make one more rebuild after it. `rebuild` must not reject.
 */
export function rebuildScheduler<C>({
  quietMs,
  timers,
  rebuild,
}: {
  quietMs: number;
  timers: Timers;
  rebuild: (changes: C[]) => Promise<void>;
}): RebuildScheduler<C> {
  let noticed: C[] = [];
  let quietTimer: unknown;
  let running: Promise<void> | undefined;
  let closed = false;

  const start = (): Promise<void> => {
    if (running || closed) return running ?? Promise.resolve();
    const changes = noticed;
    noticed = [];
    running = rebuild(changes).finally(() => {
      running = undefined;
      // Changes that came during the rebuild and whose quiet time has passed already.
      if (noticed.length > 0 && quietTimer === undefined) void start();
    });
    return running;
  };

  return {
    notice(change) {
      if (closed) return;
      noticed.push(change);
      if (quietTimer !== undefined) timers.clearTimeout(quietTimer);
      quietTimer = timers.setTimeout(() => {
        quietTimer = undefined;
        void start();
      }, quietMs);
    },
    rebuildNow: start,
    async close() {
      closed = true;
      if (quietTimer !== undefined) timers.clearTimeout(quietTimer);
      quietTimer = undefined;
      await running;
    },
  };
}
