import { randomUUID } from 'node:crypto';
import { GarmentPressError } from '../errors.ts';
import { checkCallbackUrlForm, CallbackUrlError } from './callback-url.ts';
import type { CallbackUrlPolicy } from './callback-url.ts';
import { prepareDelivery, sendDelivery, DELIVERY_TIMEOUT_MS, type StartTimer } from './delivery.ts';
import { assertCompletionEvent } from './event-body.ts';
import type { CompletionEvent } from './event-body.ts';
import { openOutboxStore } from './outbox-store.ts';
import type { AttemptRecord, DeliveryFilter, DeliveryRecord, OutboxEntry, ResendResult } from './outbox-store.ts';

/** How long an event waits when its organization has no signing secret yet, before the secret is looked up again. */
export const SECRET_WAIT_MS = 60_000;

/** How an outbox finds secrets, reaches receivers and keeps time. */
export interface OutboxOptions {
  /** The organization's current signing secret, looked up at send time so a rotation applies to pending deliveries. */
  secretFor: (organizationId: string) => string | Promise<string>;
  /** Which callback addresses may be reached; loopback only when a test says so. */
  policy?: CallbackUrlPolicy;
  /** Extra certificate authority to trust, for tests with a self-signed receiver. */
  trustedCa?: string | Buffer;
  /** Per-attempt limit in milliseconds; default 10 000. */
  timeoutMs?: number;
  /** Starts each attempt's timeout; tests pass their own so a timeout fires when they choose, not by the wall clock. */
  startTimer?: StartTimer;
  /** Current time in epoch milliseconds; decides what is due. Default `Date.now`. */
  now?: () => number;
  /** How long a claimed entry stays with its worker before another may recover it; must exceed the timeout. Default 60 s, or twice a longer timeout. */
  leaseMs?: number;
  /** Real milliseconds between polls of a started worker; default 1000. */
  pollIntervalMs?: number;
  /** Attempts sent at once; default 8. */
  concurrency?: number;
  /** Called after each attempt is recorded. */
  onAttempt?: (attempt: AttemptSummary) => void;
  /** Called when a polling round fails (a database error); default writes one line to stderr. */
  onError?: (error: unknown) => void;
}

/** A short account of one attempt, free of secrets and signatures, for logs. */
export interface AttemptSummary {
  handle: string;
  organizationId: string;
  attemptNumber: number;
  deliveryId: string;
  accepted: boolean;
  status: number | null;
  error: string | null;
  /** The receiver's Retry-After on a 429 or 503. */
  retryAfter: string | null;
  durationMs: number;
}

/** The durable queue of completion events and the worker that delivers them. */
export interface Outbox {
  /**
   * Stores an event for delivery, due now; a handle already stored is left as it is (one event per
   * task). `attemptLimit` (default 5) is 1 for a test event, which is not retried.
   */
  enqueue(event: CompletionEvent & { callbackUrl: string }, options?: { attemptLimit?: number }): { entry: OutboxEntry; created: boolean };
  /** Sends an organization's event again now, with a new round of attempts; refused while an attempt is in flight. */
  resend(organizationId: string, handle: string): ResendResult;
  /** Resolves once the entry has a finished attempt numbered over `afterAttempts`, or when `timeoutMs` passes. */
  waitForAttempt(handle: string, afterAttempts: number, timeoutMs: number): Promise<void>;
  /** Lists an organization's deliveries, one per event with its attempts, newest first, for `GET /api/webhooks/deliveries`. */
  listDeliveries(organizationId: string, filter?: DeliveryFilter, page?: { limit?: number; beforeId?: number }): DeliveryRecord[];
  /** Sends every attempt due now and records each; resolves to the number of attempts made. */
  runDue(): Promise<number>;
  /** Starts polling for due attempts in the background. */
  start(): void;
  /** Stops polling and waits for attempts in progress to be recorded. */
  stop(): Promise<void>;
  /** Stops, then closes the database. */
  close(): Promise<void>;
  /** Returns the entry for a handle, or undefined. */
  getEntry(handle: string): OutboxEntry | undefined;
  /** Lists an organization's attempts, newest first, for `GET /api/webhooks/deliveries`. */
  listAttempts(organizationId: string, page?: { limit?: number; beforeId?: number }): AttemptRecord[];
}

/** Opens the outbox stored in SQLite at `path` (created if missing); nothing is sent until runDue or start. */
export function openOutbox(path: string, options: OutboxOptions): Outbox {
  const {
    secretFor,
    policy = {},
    trustedCa,
    timeoutMs = DELIVERY_TIMEOUT_MS,
    startTimer,
    now = Date.now,
    leaseMs = Math.max(60_000, 2 * timeoutMs),
    pollIntervalMs = 1000,
    concurrency = 8,
    onAttempt,
    onError = (error: unknown) => console.error(`webhook outbox: ${error instanceof Error ? error.message : String(error)}`),
  } = options;
  if (leaseMs <= timeoutMs) {
    throw new GarmentPressError(`leaseMs (${leaseMs}) must exceed timeoutMs (${timeoutMs}), or a slow attempt could be sent twice`);
  }
  const store = openOutboxStore(path);
  const owner = randomUUID();
  const clock = () => Math.round(now());
  let polling: Promise<void> | undefined;
  let running = false;
  let wake: (() => void) | undefined;
  /** Attempts being made, at most `concurrency`: a slow receiver holds one slot, never the others. */
  const sending = new Set<Promise<boolean>>();

  /** An organization's signing secret, or why there is none to sign with. */
  const lookUpSecret = async (organizationId: string): Promise<{ secret: string } | { missing: string }> => {
    try {
      const secret = await secretFor(organizationId);
      return secret ? { secret } : { missing: `no signing secret for organization ${organizationId}` };
    } catch (error) {
      return {
        missing: `the signing secret of organization ${organizationId} could not be read (${error instanceof Error ? error.message : String(error)})`,
      };
    }
  };

  /** Makes one attempt at a leased entry; false when none was made (no secret yet, or the lease was lost). */
  const attempt = async (entry: OutboxEntry & { dataJson: string }): Promise<boolean> => {
    const startedAt = clock();
    const found = await lookUpSecret(entry.organizationId);
    if ('missing' in found) {
      // Nothing unsigned is ever sent, and an attempt not made must not use up one of the five.
      store.postpone(entry.id, owner, startedAt + SECRET_WAIT_MS);
      onError(
        new GarmentPressError(`${entry.event} ${entry.handle} not sent: ${found.missing}; trying again in ${SECRET_WAIT_MS / 1000} s`),
      );
      return false;
    }
    const prepared = prepareDelivery(entry, found.secret, new Date(startedAt));
    const { deliveryId } = prepared;
    const started = store.startAttempt(entry.id, owner, {
      deliveryId,
      requestHeaders: prepared.recordedHeaders,
      requestBody: prepared.body,
      startedAt,
    });
    if (started === undefined) return false;
    const result = await sendDelivery(prepared, { policy, trustedCa, timeoutMs, ...(startTimer === undefined ? {} : { startTimer }) });
    store.finishAttempt(started.attemptId, { ...result, finishedAt: clock() });
    onAttempt?.({
      handle: entry.handle,
      organizationId: entry.organizationId,
      attemptNumber: started.attemptNumber,
      deliveryId,
      accepted: result.accepted,
      status: result.status,
      error: result.error,
      retryAfter: result.retryAfter,
      durationMs: result.durationMs,
    });
    return true;
  };

  /** Starts an attempt at as many due entries as there are free slots; each frees its slot and wakes the worker when recorded. */
  const startDue = (): Promise<boolean>[] => {
    const current = clock();
    store.recoverExpiredLeases(current);
    const free = concurrency - sending.size;
    if (free <= 0) return [];
    return store.claimDue(current, current + leaseMs, owner, free).map((entry) => {
      const sent: Promise<boolean> = attempt(entry)
        .catch((error: unknown) => (onError(error), false))
        .finally(() => {
          sending.delete(sent);
          wake?.();
        });
      sending.add(sent);
      return sent;
    });
  };

  const runDue = async (): Promise<number> => {
    let attempts = 0;
    const started = new Set<Promise<unknown>>();
    for (;;) {
      for (const sent of startDue()) {
        const counted = sent.then((made) => {
          attempts += made ? 1 : 0;
          started.delete(counted);
        });
        started.add(counted);
      }
      if (started.size === 0) return attempts;
      await Promise.race(started);
    }
  };

  const poll = async () => {
    while (running) {
      try {
        startDue();
      } catch (error) {
        onError(error);
      }
      if (!running) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollIntervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
    await Promise.all(sending);
  };

  const stop = async () => {
    running = false;
    wake?.();
    await polling;
    polling = undefined;
  };

  return {
    enqueue(event, { attemptLimit } = {}) {
      assertCompletionEvent(event);
      const formCheck = checkCallbackUrlForm(event.callbackUrl, policy);
      if (!formCheck.allowed) throw new CallbackUrlError(formCheck.reason);
      const enqueued = store.insertEntry(event, clock(), attemptLimit);
      wake?.();
      return enqueued;
    },
    resend(organizationId, handle) {
      const resent = store.resend(organizationId, handle, clock());
      wake?.();
      return resent;
    },
    async waitForAttempt(handle, afterAttempts, waitMs) {
      const deadline = performance.now() + waitMs;
      const finished = () =>
        store
          .listDeliveries(store.findEntry(handle)?.organizationId ?? '', { handle }, 1, undefined)[0]
          ?.attempts.some((made) => made.attemptNumber > afterAttempts && made.outcome !== 'in_flight') === true;
      while (!finished() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    },
    listDeliveries: (organizationId, filter = {}, page = {}) =>
      store.listDeliveries(organizationId, filter, page.limit ?? 50, page.beforeId),
    runDue,
    start() {
      if (running) return;
      running = true;
      polling = poll();
    },
    stop,
    async close() {
      await stop();
      store.close();
    },
    getEntry: (handle) => store.findEntry(handle),
    listAttempts: (organizationId, page = {}) => store.listAttempts(organizationId, page.limit ?? 100, page.beforeId),
  };
}
