/** Runs each event's processing once per handle, however many deliveries carry it. */
export interface EventDeduplicator {
  /**
   * Runs `process` unless this handle was already processed; a failed run is forgotten so the
   * next retry processes it. Resolves to whether the call was a duplicate.
   */
  processOnce(handle: string, process: () => unknown): Promise<{ duplicate: boolean }>;
}

/**
 * Returns an in-memory deduplicator keyed on the event's `handle` (one event per task; every
 * retry carries a new X-Svc-Delivery id), remembering the most recent `capacity` handles.
 */
export function createEventDeduplicator(options: { capacity?: number } = {}): EventDeduplicator {
  const capacity = options.capacity ?? 10_000;
  const processed = new Set<string>();
  const inFlight = new Map<string, Promise<unknown>>();

  const remember = (handle: string) => {
    processed.add(handle);
    // A Set iterates in insertion order, so the first entry is the oldest.
    for (const oldest of processed) {
      if (processed.size <= capacity) break;
      processed.delete(oldest);
    }
  };

  const processOnce: EventDeduplicator['processOnce'] = async (handle, process) => {
    if (processed.has(handle)) return { duplicate: true };
    const running = inFlight.get(handle);
    if (running !== undefined) {
      // A concurrent delivery of the same event waits for the first; if that fails, this one retries it.
      const firstSucceeded = await running.then(
        () => true,
        () => false,
      );
      if (firstSucceeded) return { duplicate: true };
      return processOnce(handle, process);
    }
    const run = Promise.resolve().then(process);
    inFlight.set(handle, run);
    try {
      await run;
      remember(handle);
      return { duplicate: false };
    } finally {
      inFlight.delete(handle);
    }
  };

  return { processOnce };
}
