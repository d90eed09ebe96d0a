import { openDurableDatabase } from '../sqlite-database.ts';
import { MAX_ATTEMPTS, nextAttemptAfter, parseRetryAfter } from './retry-schedule.ts';
import type { CompletionEvent } from './event-body.ts';

/** Where an outbox entry stands: still being attempted, accepted by the receiver, or given up. */
export type EntryState = 'pending' | 'accepted' | 'given_up';

/** How an attempt ended; `in_flight` while sent and unanswered, `interrupted` when its worker died. */
export type AttemptOutcome = 'in_flight' | 'accepted' | 'failed' | 'interrupted';

/** One event waiting for, or done with, delivery. */
export interface OutboxEntry {
  id: number;
  organizationId: string;
  callbackUrl: string;
  event: string;
  handle: string;
  tool: string;
  state: EntryState;
  attemptsMade: number;
  /** ISO time the next attempt is due; null once accepted or given up. */
  nextAttemptAt: string | null;
  /** Attempts of the current round (the first, or since the last resend) before giving up: 5, or 1 for a test event. */
  attemptLimit: number;
  createdAt: string;
}

/** An entry with every attempt made at it, oldest first: one event's delivery state. */
export interface DeliveryRecord extends OutboxEntry {
  attempts: AttemptRecord[];
}

/** Which deliveries to list. */
export interface DeliveryFilter {
  handle?: string;
  event?: string;
  state?: EntryState;
}

/** Why a resend was not scheduled, or the entry as rescheduled. */
export type ResendResult = { ok: true; entry: OutboxEntry } | { ok: false; reason: 'not_found' | 'in_flight' };

/** One recorded attempt, as the dashboard lists it. */
export interface AttemptRecord {
  id: number;
  entryId: number;
  /** 1 to 5. */
  attemptNumber: number;
  /** The X-Svc-Delivery id sent. */
  deliveryId: string;
  organizationId: string;
  event: string;
  handle: string;
  callbackUrl: string;
  /** Headers sent, with the signature's `v1` redacted. */
  requestHeaders: Record<string, string>;
  requestBody: string;
  outcome: AttemptOutcome;
  status: number | null;
  error: string | null;
  /** The first bytes of the receiver's answer. */
  responseBodyStart: string | null;
  /** The receiver's Retry-After on a 429 or 503, as sent. */
  retryAfter: string | null;
  /** Whether that Retry-After set the next attempt's time (it asked for less than twice the scheduled delay). */
  retryAfterHonoured: boolean;
  durationMs: number | null;
  startedAt: string;
  finishedAt: string | null;
}

/** What is known about an attempt when it is recorded before sending. */
export interface AttemptStart {
  deliveryId: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
  startedAt: number;
}

/** An attempt's result when it is recorded after sending. */
export interface AttemptFinish {
  accepted: boolean;
  status: number | null;
  error: string | null;
  responseBodyStart: string;
  durationMs: number;
  finishedAt: number;
  retryAfter: string | null;
}

interface EntryRow {
  id: number;
  organization_id: string;
  callback_url: string;
  event: string;
  handle: string;
  tool: string;
  data_json: string;
  state: EntryState;
  attempts_made: number;
  next_attempt_at: number | null;
  leased_attempt_id: number | null;
  schedule_base: number;
  attempt_limit: number;
  lease_until: number | null;
  created_at: number;
}

interface AttemptRow {
  id: number;
  entry_id: number;
  attempt_number: number;
  delivery_id: string;
  organization_id: string;
  event: string;
  handle: string;
  callback_url: string;
  request_headers: string;
  request_body: string;
  outcome: AttemptOutcome;
  status: number | null;
  error: string | null;
  response_body_start: string | null;
  duration_ms: number | null;
  started_at: number;
  finished_at: number | null;
  retry_after: string | null;
  retry_after_honoured: number | null;
}

interface ExpiredLeaseRow {
  id: number;
  leased_attempt_id: number | null;
  attempt_number: number | null;
  started_at: number | null;
}

const INTERRUPTED = 'interrupted: the worker stopped before the answer was recorded';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS webhook_outbox (
    id INTEGER PRIMARY KEY,
    organization_id TEXT NOT NULL,
    callback_url TEXT NOT NULL,
    event TEXT NOT NULL,
    handle TEXT NOT NULL UNIQUE,
    tool TEXT NOT NULL,
    data_json TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'accepted', 'given_up')),
    attempts_made INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER,
    lease_owner TEXT,
    lease_until INTEGER,
    leased_attempt_id INTEGER,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX IF NOT EXISTS webhook_outbox_due ON webhook_outbox (state, next_attempt_at);
  CREATE INDEX IF NOT EXISTS webhook_outbox_organization ON webhook_outbox (organization_id);
  CREATE TABLE IF NOT EXISTS webhook_attempts (
    id INTEGER PRIMARY KEY,
    entry_id INTEGER NOT NULL REFERENCES webhook_outbox (id),
    attempt_number INTEGER NOT NULL,
    delivery_id TEXT NOT NULL,
    request_headers TEXT NOT NULL,
    request_body TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('in_flight', 'accepted', 'failed', 'interrupted')),
    status INTEGER,
    error TEXT,
    response_body_start TEXT,
    duration_ms INTEGER,
    started_at INTEGER NOT NULL,
    finished_at INTEGER,
    UNIQUE (entry_id, attempt_number)
  ) STRICT;
`;

/** Columns added after the tables were first made, added to older databases on open. */
const ADDED_COLUMNS: Record<string, Record<string, string>> = {
  webhook_outbox: {
    // Attempts before the current round (a resend starts a new one), and the round's length.
    schedule_base: 'INTEGER NOT NULL DEFAULT 0',
    attempt_limit: `INTEGER NOT NULL DEFAULT ${MAX_ATTEMPTS}`,
  },
  webhook_attempts: {
    retry_after: 'TEXT',
    retry_after_honoured: 'INTEGER',
  },
};

const ENTRY_COLUMNS =
  'id, organization_id, callback_url, event, handle, tool, data_json, state, attempts_made, next_attempt_at, leased_attempt_id, schedule_base, attempt_limit, lease_until, created_at';

/** SQLite persistence of the outbox; every state change is one transaction. */
export interface OutboxStore {
  /** Inserts a pending entry due at `now` unless its handle exists; returns the entry and whether it is new. */
  insertEntry(
    event: CompletionEvent & { callbackUrl: string },
    now: number,
    attemptLimit?: number,
  ): { entry: OutboxEntry; created: boolean };
  /** Makes an organization's entry due at `now` for a new round of attempts, unless an attempt is in flight. */
  resend(organizationId: string, handle: string, now: number): ResendResult;
  /** Lists an organization's deliveries (entries with their attempts), newest first, filtered. */
  listDeliveries(organizationId: string, filter: DeliveryFilter, limit: number, beforeId: number | undefined): DeliveryRecord[];
  /** Returns the entry for a handle. */
  findEntry(handle: string): OutboxEntry | undefined;
  /** Settles leases that ran out: an unanswered attempt becomes interrupted and the entry is rescheduled. */
  recoverExpiredLeases(now: number): void;
  /** Leases up to `limit` due entries to `owner` until `leaseUntil`; returns them with their stored data. */
  claimDue(now: number, leaseUntil: number, owner: string, limit: number): Array<OutboxEntry & { dataJson: string }>;
  /** Records an attempt as in flight before it is sent; returns its id and number, or undefined if the lease was lost. */
  startAttempt(entryId: number, owner: string, start: AttemptStart): { attemptId: number; attemptNumber: number } | undefined;
  /** Records an attempt's result and, in the same transaction, accepts, reschedules or gives up its entry. */
  finishAttempt(attemptId: number, finish: AttemptFinish): void;
  /** Hands a leased entry back unsent, no attempt counted, due again at `next`. */
  postpone(entryId: number, owner: string, next: number): void;
  /** Lists an organization's attempts, newest first. */
  listAttempts(organizationId: string, limit: number, beforeId: number | undefined): AttemptRecord[];
  close(): void;
}

/** Opens (creating if needed) the outbox database at `path` in WAL mode with full sync. */
export function openOutboxStore(path: string): OutboxStore {
  const { db, inTransaction } = openDurableDatabase(path, SCHEMA);
  for (const [table, columns] of Object.entries(ADDED_COLUMNS)) {
    const present = new Set((db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((column) => column.name));
    for (const [name, definition] of Object.entries(columns))
      if (!present.has(name)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${name} ${definition}`);
  }

  const sql = {
    insertEntry: db.prepare(`
      INSERT INTO webhook_outbox (organization_id, callback_url, event, handle, tool, data_json, next_attempt_at, attempt_limit, created_at)
      VALUES (:organizationId, :callbackUrl, :event, :handle, :tool, :dataJson, :now, :attemptLimit, :now)
      ON CONFLICT (handle) DO NOTHING`),
    selectEntryByHandle: db.prepare(`SELECT ${ENTRY_COLUMNS} FROM webhook_outbox WHERE handle = ?`),
    selectExpiredLeases: db.prepare(`
      SELECT o.id, o.leased_attempt_id, a.attempt_number, a.started_at
      FROM webhook_outbox o LEFT JOIN webhook_attempts a ON a.id = o.leased_attempt_id
      WHERE o.state = 'pending' AND o.lease_until <= ?`),
    releaseLease: db.prepare('UPDATE webhook_outbox SET lease_owner = NULL, lease_until = NULL WHERE id = ?'),
    markInterrupted: db.prepare(`
      UPDATE webhook_attempts SET outcome = 'interrupted', error = ?, finished_at = ? WHERE id = ? AND outcome = 'in_flight'`),
    selectDue: db.prepare(`
      SELECT ${ENTRY_COLUMNS} FROM webhook_outbox
      WHERE state = 'pending' AND next_attempt_at <= ? AND lease_until IS NULL
      ORDER BY next_attempt_at, id LIMIT ?`),
    takeLease: db.prepare('UPDATE webhook_outbox SET lease_owner = ?, lease_until = ? WHERE id = ?'),
    postpone: db.prepare(`
      UPDATE webhook_outbox SET next_attempt_at = ?, lease_owner = NULL, lease_until = NULL
      WHERE id = ? AND lease_owner = ? AND state = 'pending' AND leased_attempt_id IS NULL`),
    selectLeasedEntry: db.prepare(`SELECT attempts_made FROM webhook_outbox WHERE id = ? AND lease_owner = ? AND state = 'pending'`),
    insertAttempt: db.prepare(`
      INSERT INTO webhook_attempts (entry_id, attempt_number, delivery_id, request_headers, request_body, outcome, started_at)
      VALUES (?, ?, ?, ?, ?, 'in_flight', ?)`),
    countAttempt: db.prepare('UPDATE webhook_outbox SET attempts_made = ?, leased_attempt_id = ? WHERE id = ?'),
    selectAttempt: db.prepare('SELECT entry_id, attempt_number FROM webhook_attempts WHERE id = ?'),
    recordOutcome: db.prepare(`
      UPDATE webhook_attempts
      SET outcome = :outcome, status = :status, error = :error, response_body_start = :responseBodyStart,
          duration_ms = :durationMs, finished_at = :finishedAt, retry_after = :retryAfter
      WHERE id = :attemptId`),
    markRetryAfterHonoured: db.prepare('UPDATE webhook_attempts SET retry_after_honoured = ? WHERE id = ?'),
    selectSchedule: db.prepare('SELECT schedule_base, attempt_limit FROM webhook_outbox WHERE id = ?'),
    selectLeaseOfAttempt: db.prepare('SELECT 1 FROM webhook_outbox WHERE id = ? AND leased_attempt_id = ?'),
    updateSchedule: db.prepare(`
      UPDATE webhook_outbox
      SET state = :state, next_attempt_at = :next, lease_owner = NULL, lease_until = NULL, leased_attempt_id = NULL
      WHERE id = :entryId`),
    selectAttempts: db.prepare(`
      SELECT a.*, o.organization_id, o.event, o.handle, o.callback_url
      FROM webhook_attempts a JOIN webhook_outbox o ON o.id = a.entry_id
      WHERE o.organization_id = :organizationId AND a.id < :beforeId
      ORDER BY a.id DESC LIMIT :limit`),
  };

  /** Schedules the entry's next attempt after a failed one, or gives up at the end of its round. */
  const rescheduleAfterFailure = (
    entryId: number,
    attemptNumber: number,
    failedAt: number,
    retryAfterMs: number | null = null,
    attemptId?: number,
  ) => {
    const { schedule_base: base, attempt_limit: limit } = sql.selectSchedule.get(entryId) as {
      schedule_base: number;
      attempt_limit: number;
    };
    const inRound = attemptNumber - base;
    const next = inRound >= limit ? null : nextAttemptAfter(inRound, failedAt, retryAfterMs);
    if (attemptId !== undefined && retryAfterMs !== null)
      sql.markRetryAfterHonoured.run(next?.retryAfterHonoured === true ? 1 : 0, attemptId);
    sql.updateSchedule.run({ state: next === null ? 'given_up' : 'pending', next: next?.at ?? null, entryId });
  };

  return {
    insertEntry(event, now, attemptLimit = MAX_ATTEMPTS) {
      return inTransaction(() => {
        const { changes } = sql.insertEntry.run({
          attemptLimit,
          organizationId: event.organizationId,
          callbackUrl: event.callbackUrl,
          event: event.event,
          handle: event.handle,
          tool: event.tool,
          dataJson: event.dataJson,
          now,
        });
        return { entry: toEntry(sql.selectEntryByHandle.get(event.handle) as unknown as EntryRow), created: changes === 1 };
      });
    },

    findEntry(handle) {
      const row = sql.selectEntryByHandle.get(handle) as unknown as EntryRow | undefined;
      return row === undefined ? undefined : toEntry(row);
    },

    recoverExpiredLeases(now) {
      inTransaction(() => {
        const expired = sql.selectExpiredLeases.all(now) as unknown as ExpiredLeaseRow[];
        for (const lease of expired) {
          if (lease.leased_attempt_id === null || lease.attempt_number === null || lease.started_at === null) {
            // Claimed but never sent: hand it back unchanged.
            sql.releaseLease.run(lease.id);
            continue;
          }
          sql.markInterrupted.run(INTERRUPTED, now, lease.leased_attempt_id);
          rescheduleAfterFailure(lease.id, lease.attempt_number, lease.started_at);
        }
      });
    },

    claimDue(now, leaseUntil, owner, limit) {
      return inTransaction(() => {
        const rows = sql.selectDue.all(now, limit) as unknown as EntryRow[];
        for (const row of rows) sql.takeLease.run(owner, leaseUntil, row.id);
        return rows.map((row) => ({ ...toEntry(row), dataJson: row.data_json }));
      });
    },

    startAttempt(entryId, owner, start) {
      return inTransaction(() => {
        const entry = sql.selectLeasedEntry.get(entryId, owner) as { attempts_made: number } | undefined;
        if (entry === undefined) return undefined;
        const attemptNumber = entry.attempts_made + 1;
        const { lastInsertRowid } = sql.insertAttempt.run(
          entryId,
          attemptNumber,
          start.deliveryId,
          JSON.stringify(start.requestHeaders),
          start.requestBody,
          start.startedAt,
        );
        const attemptId = Number(lastInsertRowid);
        sql.countAttempt.run(attemptNumber, attemptId, entryId);
        return { attemptId, attemptNumber };
      });
    },

    postpone(entryId, owner, next) {
      sql.postpone.run(next, entryId, owner);
    },

    finishAttempt(attemptId, finish) {
      inTransaction(() => {
        const attempt = sql.selectAttempt.get(attemptId) as { entry_id: number; attempt_number: number };
        sql.recordOutcome.run({
          outcome: finish.accepted ? 'accepted' : 'failed',
          status: finish.status,
          error: finish.error,
          responseBodyStart: finish.responseBodyStart,
          durationMs: finish.durationMs,
          finishedAt: finish.finishedAt,
          retryAfter: finish.retryAfter,
          attemptId,
        });
        if (finish.accepted) {
          // Accepted wins even over a lease that ran out meanwhile: the receiver has the event.
          sql.updateSchedule.run({ state: 'accepted', next: null, entryId: attempt.entry_id });
          return;
        }
        // If the lease moved on, recovery has already counted this attempt and rescheduled the entry.
        if (sql.selectLeaseOfAttempt.get(attempt.entry_id, attemptId) !== undefined) {
          rescheduleAfterFailure(
            attempt.entry_id,
            attempt.attempt_number,
            finish.finishedAt,
            parseRetryAfter(finish.retryAfter ?? undefined, finish.finishedAt),
            attemptId,
          );
        }
      });
    },

    resend(organizationId, handle, now) {
      return inTransaction((): ResendResult => {
        const row = sql.selectEntryByHandle.get(handle) as unknown as EntryRow | undefined;
        if (row === undefined || row.organization_id !== organizationId) return { ok: false, reason: 'not_found' };
        if (row.lease_until !== null) return { ok: false, reason: 'in_flight' };
        db.prepare(`UPDATE webhook_outbox SET state = 'pending', next_attempt_at = ?, schedule_base = attempts_made WHERE id = ?`).run(
          now,
          row.id,
        );
        return { ok: true, entry: toEntry(sql.selectEntryByHandle.get(handle) as unknown as EntryRow) };
      });
    },

    listDeliveries(organizationId, filter, limit, beforeId) {
      const conditions = ['organization_id = :organizationId', 'id < :beforeId'];
      if (filter.handle !== undefined) conditions.push('handle = :handle');
      if (filter.event !== undefined) conditions.push('event = :event');
      if (filter.state !== undefined) conditions.push('state = :state');
      const rows = db
        .prepare(`SELECT ${ENTRY_COLUMNS} FROM webhook_outbox WHERE ${conditions.join(' AND ')} ORDER BY id DESC LIMIT :limit`)
        .all({
          organizationId,
          beforeId: beforeId ?? Number.MAX_SAFE_INTEGER,
          limit,
          ...(filter.handle === undefined ? {} : { handle: filter.handle }),
          ...(filter.event === undefined ? {} : { event: filter.event }),
          ...(filter.state === undefined ? {} : { state: filter.state }),
        }) as unknown as EntryRow[];
      const attemptsOf = db.prepare(`
        SELECT a.*, o.organization_id, o.event, o.handle, o.callback_url
        FROM webhook_attempts a JOIN webhook_outbox o ON o.id = a.entry_id WHERE a.entry_id = ? ORDER BY a.attempt_number`);
      return rows.map((row) => ({ ...toEntry(row), attempts: (attemptsOf.all(row.id) as unknown as AttemptRow[]).map(toAttempt) }));
    },

    listAttempts(organizationId, limit, beforeId) {
      const rows = sql.selectAttempts.all({
        organizationId,
        limit,
        beforeId: beforeId ?? Number.MAX_SAFE_INTEGER,
      }) as unknown as AttemptRow[];
      return rows.map(toAttempt);
    },

    close() {
      db.close();
    },
  };
}

function toEntry(row: EntryRow): OutboxEntry {
  return {
    id: row.id,
    organizationId: row.organization_id,
    callbackUrl: row.callback_url,
    event: row.event,
    handle: row.handle,
    tool: row.tool,
    state: row.state,
    attemptsMade: row.attempts_made,
    nextAttemptAt: toIso(row.next_attempt_at),
    attemptLimit: row.attempt_limit,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

function toAttempt(row: AttemptRow): AttemptRecord {
  return {
    id: row.id,
    entryId: row.entry_id,
    attemptNumber: row.attempt_number,
    deliveryId: row.delivery_id,
    organizationId: row.organization_id,
    event: row.event,
    handle: row.handle,
    callbackUrl: row.callback_url,
    requestHeaders: JSON.parse(row.request_headers) as Record<string, string>,
    requestBody: row.request_body,
    outcome: row.outcome,
    status: row.status,
    error: row.error,
    responseBodyStart: row.response_body_start,
    retryAfter: row.retry_after,
    retryAfterHonoured: row.retry_after_honoured === 1,
    durationMs: row.duration_ms,
    startedAt: new Date(row.started_at).toISOString(),
    finishedAt: toIso(row.finished_at),
  };
}

function toIso(epochMs: number | null): string | null {
  return epochMs === null ? null : new Date(epochMs).toISOString();
}
