import { randomUUID } from 'node:crypto';
import type { PostgresDatabase } from '../database/index.ts';
import { errorMessage, GarmentPressError } from '../errors.ts';
import { checkCallbackUrlForm, CallbackUrlError } from './callback-url.ts';
import type { CallbackUrlPolicy } from './callback-url.ts';
import type { Attempt, Delivery, DeliveryFilter, OutboxEntry } from './delivery-record.ts';
import { prepareDelivery, sendDelivery, DELIVERY_TIMEOUT_MS, type StartTimer } from './delivery.ts';
import { assertCompletionEvent } from './event-body.ts';
import type { ClaimedEntry, Clock, OutboxEvent, OutboxStore, ResendResult } from './outbox-store.ts';
import { openPostgresOutboxStore } from './outbox-postgres.ts';
import { openSqliteOutboxStore } from './outbox-sqlite.ts';
import { decideAfterAttempt, MAX_ATTEMPTS } from './retry-schedule.ts';

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
  /** Current time in epoch milliseconds; decides what is due, and the store reads it too. Default `Date.now`. */
  now?: Clock;
  /** How long a claimed entry stays with its worker before another may recover it; must exceed the timeout. Default 60 s, or twice a longer timeout. */
  leaseMs?: number;
  /** Real milliseconds between polls of a started worker; default 1000. */
  pollIntervalMs?: number;
  /** Attempts sent at once; default 8. */
  concurrency?: number;
  /** Called after each attempt this instance made is recorded. */
  onAttempt?: (attempt: Attempt) => void;
  /** Called when a polling round fails (a database error); default writes one line to stderr. */
  onError?: (error: unknown) => void;
}

/** The durable queue of completion events and the worker that delivers them; any number of instances may share one store. */
export interface Outbox {
  /**
   * Stores an event for delivery, due now; a handle already stored is left as it is (one event per
   * task). `attemptLimit` (default 5) is 1 for a test event, which is not retried.
   */
  enqueue(event: OutboxEvent, options?: { attemptLimit?: number }): Promise<{ entry: OutboxEntry; created: boolean }>;
  /** Sends an organization's event again now, with a new round of attempts; refused while an attempt is in flight. */
  resend(organizationId: string, handle: string): Promise<ResendResult>;
  /** Resolves once the entry has a finished attempt numbered over `afterAttempts` (made by any instance), or when `waitMs` passes. */
  waitForAttempt(handle: string, afterAttempts: number, waitMs: number): Promise<void>;
  /** Lists an organization's deliveries, one per event with its attempts, newest first, for `GET /api/webhooks/deliveries`. */
  listDeliveries(organizationId: string, filter?: DeliveryFilter, page?: { limit?: number; beforeId?: number }): Promise<Delivery[]>;
  /** Lists an organization's attempts, newest first. */
  listAttempts(organizationId: string, page?: { limit?: number; beforeId?: number }): Promise<Attempt[]>;
  /** Returns the entry for a handle, or undefined. */
  getEntry(handle: string): Promise<OutboxEntry | undefined>;
  /** Sends every attempt due now and records each; resolves to the number of attempts this instance made. */
  runDue(): Promise<number>;
  /** Starts polling for due attempts in the background. */
  start(): void;
  /** Stops polling and waits for attempts in progress to be recorded. */
  stop(): Promise<void>;
  /** Stops, then closes the store. */
  close(): Promise<void>;
}

/**
 * Where an outbox keeps its state: the path of its SQLite file (one instance), or an opened
 * PostgreSQL database that every instance shares (the outbox uses its pool and leaves it open).
 */
export type OutboxDatabase = string | PostgresDatabase;

/** Opens the outbox stored in `database`, creating or migrating its tables; nothing is sent until runDue or start. */
export async function openOutbox(database: OutboxDatabase, options: OutboxOptions): Promise<Outbox> {
  const { now = Date.now } = options;
  const clock = () => Math.round(now());
  const store = typeof database === 'string' ? openSqliteOutboxStore(database, clock) : await openPostgresOutboxStore(database, clock);
  try {
    return createOutbox(store, { ...options, now: clock });
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** An organization's signing secret, or why there is none to sign with. */
async function lookUpSecret(
  secretFor: OutboxOptions['secretFor'],
  organizationId: string,
): Promise<{ secret: string } | { missing: string }> {
  try {
    const secret = await secretFor(organizationId);
    return secret ? { secret } : { missing: `no signing secret for organization ${organizationId}` };
  } catch (error) {
    return {
      missing: `the signing secret of organization ${organizationId} could not be read (${errorMessage(error)})`,
    };
  }
}

/** Settles claims whose instance stopped: an unanswered attempt counts as failed, from when it started. */
async function recoverExpiredClaims(store: OutboxStore): Promise<void> {
  for (const claim of await store.expiredClaims()) {
    const decision =
      claim.attempt === null
        ? null
        : decideAfterAttempt(
            {
              numberInRound: claim.attempt.attemptNumber - claim.entry.attemptsBeforeRound,
              attemptLimit: claim.entry.attemptLimit,
              endedAt: Date.parse(claim.attempt.startedAt),
            },
            { outcome: 'interrupted' },
          );
    await store.settleExpiredClaim(claim, decision);
  }
}

/** Returns an outbox over an opened store whose clock is `options.now`. */
function createOutbox(store: OutboxStore, options: OutboxOptions): Outbox {
  const {
    secretFor,
    policy = {},
    trustedCa,
    timeoutMs = DELIVERY_TIMEOUT_MS,
    startTimer,
    now: clock = Date.now,
    leaseMs = Math.max(60_000, 2 * timeoutMs),
    pollIntervalMs = 1000,
    concurrency = 8,
    onAttempt,
    onError = (error: unknown) => console.error(`webhook outbox: ${errorMessage(error)}`),
  } = options;
  if (leaseMs <= timeoutMs) {
    throw new GarmentPressError(`leaseMs (${leaseMs}) must exceed timeoutMs (${timeoutMs}), or a slow attempt could be sent twice`);
  }
  const owner = randomUUID();
  let polling: Promise<void> | undefined;
  let running = false;
  let wake: (() => void) | undefined;
  /** Attempts being made, at most `concurrency`: a slow receiver holds one slot, never the others. */
  const sending = new Set<Promise<boolean>>();
  /** Called whenever this instance records an attempt, for waitForAttempt. */
  const attemptListeners = new Set<() => void>();

  /** Makes one attempt at a claimed entry; false when none was made (no secret yet, or the claim was lost). */
  const attempt = async (entry: ClaimedEntry): Promise<boolean> => {
    const startedAt = clock();
    const found = await lookUpSecret(secretFor, entry.organizationId);
    if ('missing' in found) {
      // Nothing unsigned is ever sent, and an attempt not made must not use up one of the five.
      await store.postpone(entry.id, owner, startedAt + SECRET_WAIT_MS);
      onError(
        new GarmentPressError(`${entry.event} ${entry.handle} not sent: ${found.missing}; trying again in ${SECRET_WAIT_MS / 1000} s`),
      );
      return false;
    }
    const prepared = prepareDelivery(entry, found.secret, new Date(startedAt));
    const started = await store.startAttempt(entry.id, owner, {
      deliveryId: prepared.deliveryId,
      requestHeaders: prepared.recordedHeaders,
      requestBody: prepared.body,
    });
    if (started === undefined) return false;
    const result = await sendDelivery(prepared, { policy, trustedCa, timeoutMs, ...(startTimer === undefined ? {} : { startTimer }) });
    const decision = decideAfterAttempt(
      { numberInRound: started.attemptNumber - entry.attemptsBeforeRound, attemptLimit: entry.attemptLimit, endedAt: clock() },
      { outcome: result.accepted ? 'accepted' : 'failed' },
    );
    const recorded = await store.finishAttempt(started.attemptId, result, decision);
    for (const listener of attemptListeners) listener();
    onAttempt?.(recorded);
    return true;
  };

  /** Starts an attempt at as many due entries as there are free slots; each frees its slot and wakes the worker when recorded. */
  const startDue = async (): Promise<Promise<boolean>[]> => {
    await recoverExpiredClaims(store);
    const free = concurrency - sending.size;
    if (free <= 0) return [];
    return (await store.claimDue(owner, leaseMs, free)).map((entry) => {
      const sent: Promise<boolean> = attempt(entry)
        .catch((error: unknown) => {
          onError(error);
          return false;
        })
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
      for (const sent of await startDue()) {
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
        await startDue();
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

  /** Whether the handle's entry has a finished attempt numbered over `afterAttempts`. */
  const hasFinishedAttempt = async (handle: string, afterAttempts: number) => {
    const entry = await store.findEntry(handle);
    if (entry === undefined) return false;
    const [delivery] = await store.listDeliveries(entry.organizationId, { handle }, { limit: 1 });
    return delivery?.attempts.some((made) => made.attemptNumber > afterAttempts && made.outcome !== 'in_flight') === true;
  };

  return {
    async enqueue(event, { attemptLimit = MAX_ATTEMPTS } = {}) {
      assertCompletionEvent(event);
      const formCheck = checkCallbackUrlForm(event.callbackUrl, policy);
      if (!formCheck.allowed) throw new CallbackUrlError(formCheck.reason);
      const enqueued = await store.insertEntry(event, attemptLimit);
      wake?.();
      return enqueued;
    },
    async resend(organizationId, handle) {
      const resent = await store.resend(organizationId, handle);
      wake?.();
      return resent;
    },
    async waitForAttempt(handle, afterAttempts, waitMs) {
      // Woken by this instance's attempts; another instance's are seen by looking again every so often.
      const deadline = performance.now() + waitMs;
      while (!(await hasFinishedAttempt(handle, afterAttempts))) {
        const left = deadline - performance.now();
        if (left <= 0) return;
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            attemptListeners.delete(done);
            resolve();
          };
          const timer = setTimeout(done, Math.min(left, WAIT_RECHECK_MS));
          attemptListeners.add(done);
        });
      }
    },
    listDeliveries: (organizationId, filter = {}, page = {}) =>
      store.listDeliveries(organizationId, filter, { limit: page.limit ?? 50, beforeId: page.beforeId }),
    listAttempts: (organizationId, page = {}) => store.listAttempts(organizationId, { limit: page.limit ?? 100, beforeId: page.beforeId }),
    getEntry: (handle) => store.findEntry(handle),
    runDue,
    start() {
      if (running) return;
      running = true;
      polling = poll();
    },
    stop,
    async close() {
      await stop();
      await store.close();
    },
  };
}

/** How often waitForAttempt looks for an attempt another instance made. */
const WAIT_RECHECK_MS = 250;
