/** Runs submitted items in batches, one batch at a time. */
export interface CoalescingQueue<T> {
  /**
   * Adds an item to the next batch. Resolves true once the batch carrying it has run, false if
   * the queue closed first; rejects with the batch's error if the batch threw.
   */
  submit(item: T): Promise<boolean>;
  /** Stops starting batches, parks the items still waiting (their submit resolves false) and waits for the running batch. */
  close(): Promise<void>;
  /** Batches started so far. */
  readonly batchesStarted: number;
  /** True while a batch runs. */
  readonly busy: boolean;
}

/** How batches are run and gathered. */
export interface CoalescingQueueOptions<T> {
  /** Runs one batch; items arrive in submission order. */
  run: (items: T[]) => Promise<void>;
  /**
   * How long an idle queue waits for more items before starting: each new item restarts the
   * wait, so items arriving together share one batch. Items that arrive while a batch runs all
   * go into the next one, which starts as soon as the running batch ends. Default 100 ms.
   */
  gatherMs?: number;
  /** The longest an idle queue keeps gathering after its first item, however busy. Default 1000 ms. */
  maxGatherMs?: number;
}

interface Waiting<T> {
  item: T;
  resolve: (ran: boolean) => void;
  reject: (error: unknown) => void;
}

/**
 * Returns a queue that coalesces work: everything submitted while a batch runs (or within the
 * gathering window of an idle queue) shares the next batch. Used for site rebuilds.
 */
export function createCoalescingQueue<T>({ run, gatherMs = 100, maxGatherMs = 1000 }: CoalescingQueueOptions<T>): CoalescingQueue<T> {
  let waiting: Waiting<T>[] = [];
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let gatherDeadline = 0;
  let closed = false;
  let batchesStarted = 0;

  const startBatch = () => {
    timer = undefined;
    if (closed || running !== undefined || waiting.length === 0) return;
    const batch = waiting;
    waiting = [];
    batchesStarted += 1;
    running = (async () => {
      try {
        await run(batch.map((entry) => entry.item));
        for (const entry of batch) entry.resolve(true);
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      } finally {
        running = undefined;
        // Whatever arrived meanwhile has waited long enough: start it now.
        startBatch();
      }
    })();
  };

  return {
    submit(item) {
      if (closed) return Promise.resolve(false);
      return new Promise<boolean>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        if (running !== undefined) return;
        if (timer === undefined) gatherDeadline = performance.now() + maxGatherMs;
        clearTimeout(timer);
        timer = setTimeout(startBatch, Math.max(0, Math.min(gatherMs, gatherDeadline - performance.now())));
      });
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      const parked = waiting;
      waiting = [];
      for (const entry of parked) entry.resolve(false);
      await running;
    },
    get batchesStarted() {
      return batchesStarted;
    },
    get busy() {
      return running !== undefined;
    },
  };
}
