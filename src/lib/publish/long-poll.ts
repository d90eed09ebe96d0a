/** The longest a get_generation call may wait (spec section 8). */
export const LONG_POLL_CAP_SECONDS = 50;

/** A `wait` query value read: milliseconds to wait, or why the value is refused. */
export type WaitParameter = { ok: true; waitMs: number } | { ok: false; message: string };

/**
 * Reads the `wait` query parameter: absent means 0; a non-negative number of seconds,
 * fractions allowed, is capped at `capSeconds`.
 * @example parseWait('120', 50) → { ok: true, waitMs: 50000 }; parseWait('-1', 50) → { ok: false, … }
 */
export function parseWait(raw: string | null, capSeconds: number = LONG_POLL_CAP_SECONDS): WaitParameter {
  if (raw === null) return { ok: true, waitMs: 0 };
  if (!/^\d+(\.\d+)?$/.test(raw)) {
    return {
      ok: false,
      message: `wait: expected a number of seconds, 0 or more (a wait over ${capSeconds} is capped), got ${JSON.stringify(raw.slice(0, 40))}`,
    };
  }
  return { ok: true, waitMs: Math.round(Math.min(Number(raw), capSeconds) * 1000) };
}

/** Lets requests wait for a task to end, and wakes them when it does. */
export interface TaskWatchers {
  /**
   * Resolves when `notify(handle)` is called, `waitMs` has passed, `signal` aborts or
   * `releaseAll` is called, whichever comes first.
   */
  wait(handle: string, waitMs: number, signal?: AbortSignal): Promise<void>;
  /** Wakes everyone waiting on a handle. */
  notify(handle: string): void;
  /** Wakes everyone (shutdown). */
  releaseAll(): void;
  /** How many requests are waiting. */
  readonly waiting: number;
}

/** Returns an in-memory set of waiters; enough because one process runs every task. */
export function createTaskWatchers(): TaskWatchers {
  const byHandle = new Map<string, Set<() => void>>();
  let waiting = 0;
  const wakeAll = (wakers: Set<() => void> | undefined) => {
    for (const wake of [...(wakers ?? [])]) wake();
  };
  return {
    wait(handle, waitMs, signal) {
      if (waitMs <= 0 || signal?.aborted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const wakers = byHandle.get(handle) ?? new Set<() => void>();
        byHandle.set(handle, wakers);
        waiting += 1;
        let woken = false;
        const wake = () => {
          if (woken) return;
          woken = true;
          clearTimeout(timer);
          signal?.removeEventListener('abort', wake);
          wakers.delete(wake);
          if (wakers.size === 0 && byHandle.get(handle) === wakers) byHandle.delete(handle);
          waiting -= 1;
          resolve();
        };
        const timer = setTimeout(wake, waitMs);
        signal?.addEventListener('abort', wake, { once: true });
        wakers.add(wake);
      });
    },
    notify(handle) {
      wakeAll(byHandle.get(handle));
    },
    releaseAll() {
      for (const wakers of [...byHandle.values()]) wakeAll(wakers);
    },
    get waiting() {
      return waiting;
    },
  };
}
