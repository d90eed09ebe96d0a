// The outbox store on SQLite: one process's embedded database (WAL, synchronous FULL).
import { openMigratedSqlite, type SqliteMigration } from '../database/index.ts';
import { ATTEMPT_COLUMNS, attemptFromRow, entryColumns, entryFromRow } from './delivery-record.ts';
import type { AttemptRow, EntryRow } from './delivery-record.ts';
import type { Clock, ExpiredClaimRow, OutboxStore, ResendResult } from './outbox-store.ts';
import { expiredClaimFromRow, expiredClaimsQuery, INTERRUPTED } from './outbox-store.ts';
import { MAX_ATTEMPTS } from './retry-schedule.ts';

/**
 * The outbox file's numbered migrations (user_version). The first makes the tables if missing, so a
 * file from before numbered migrations (user_version 0, tables present) upgrades in place.
 */
export const SQLITE_OUTBOX_MIGRATIONS: readonly SqliteMigration[] = [
  `
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
  ) STRICT;`,
  // Resend rounds and Retry-After; a file from before numbered migrations may have some of these columns already.
  // retry_after_honoured (nullable) is no longer written or read; it stays because landed migrations are never edited.
  (db) => {
    const added: Record<string, Record<string, string>> = {
      webhook_outbox: { schedule_base: 'INTEGER NOT NULL DEFAULT 0', attempt_limit: `INTEGER NOT NULL DEFAULT ${MAX_ATTEMPTS}` },
      webhook_attempts: { retry_after: 'TEXT', retry_after_honoured: 'INTEGER' },
    };
    for (const [table, columns] of Object.entries(added)) {
      const present = new Set((db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((column) => column.name));
      for (const [name, definition] of Object.entries(columns))
        if (!present.has(name)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${name} ${definition}`);
    }
  },
];

/** Opens (creating if needed) the outbox database at `path`, reading the time from `clock`. */
export function openSqliteOutboxStore(path: string, clock: Clock): OutboxStore {
  const { db, inTransaction } = openMigratedSqlite(path, SQLITE_OUTBOX_MIGRATIONS);

  const sql = {
    insertEntry: db.prepare(`
      INSERT INTO webhook_outbox (organization_id, callback_url, event, handle, tool, data_json, next_attempt_at, attempt_limit, created_at)
      VALUES (:organizationId, :callbackUrl, :event, :handle, :tool, :dataJson, :now, :attemptLimit, :now)
      ON CONFLICT (handle) DO NOTHING`),
    entryByHandle: db.prepare(`SELECT ${entryColumns()} FROM webhook_outbox WHERE handle = ?`),
    resend: db.prepare(`
      UPDATE webhook_outbox SET state = 'pending', next_attempt_at = ?, schedule_base = attempts_made
      WHERE id = ? AND lease_until IS NULL`),
    due: db.prepare(`
      SELECT ${entryColumns()}, data_json FROM webhook_outbox
      WHERE state = 'pending' AND next_attempt_at <= ? AND lease_until IS NULL
      ORDER BY next_attempt_at, id LIMIT ?`),
    claim: db.prepare('UPDATE webhook_outbox SET lease_owner = ?, lease_until = ? WHERE id = ?'),
    claimedBy: db.prepare(`SELECT attempts_made FROM webhook_outbox WHERE id = ? AND lease_owner = ? AND state = 'pending'`),
    insertAttempt: db.prepare(`
      INSERT INTO webhook_attempts (entry_id, attempt_number, delivery_id, request_headers, request_body, outcome, started_at)
      VALUES (?, ?, ?, ?, ?, 'in_flight', ?)`),
    countAttempt: db.prepare('UPDATE webhook_outbox SET attempts_made = ?, leased_attempt_id = ? WHERE id = ?'),
    entryOfAttempt: db.prepare(`
      SELECT a.entry_id, o.leased_attempt_id FROM webhook_attempts a JOIN webhook_outbox o ON o.id = a.entry_id WHERE a.id = ?`),
    recordAnswer: db.prepare(`
      UPDATE webhook_attempts
      SET outcome = :outcome, status = :status, error = :error, response_body_start = :responseBodyStart,
          duration_ms = :durationMs, finished_at = :finishedAt, retry_after = :retryAfter
      WHERE id = :attemptId`),
    persistDecision: db.prepare(`
      UPDATE webhook_outbox
      SET state = :state, next_attempt_at = :nextAttemptAt, lease_owner = NULL, lease_until = NULL, leased_attempt_id = NULL
      WHERE id = :entryId`),
    postpone: db.prepare(`
      UPDATE webhook_outbox SET next_attempt_at = ?, lease_owner = NULL, lease_until = NULL
      WHERE id = ? AND lease_owner = ? AND state = 'pending' AND leased_attempt_id IS NULL`),
    expired: db.prepare(expiredClaimsQuery('?')),
    release: db.prepare(
      'UPDATE webhook_outbox SET lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_until <= ? AND leased_attempt_id IS NULL',
    ),
    stillExpired: db.prepare(`SELECT 1 FROM webhook_outbox WHERE id = ? AND lease_until <= ? AND leased_attempt_id = ?`),
    markInterrupted: db.prepare(
      `UPDATE webhook_attempts SET outcome = 'interrupted', error = ?, finished_at = ? WHERE id = ? AND outcome = 'in_flight'`,
    ),
    attemptById: db.prepare(`SELECT ${ATTEMPT_COLUMNS} FROM webhook_attempts a JOIN webhook_outbox o ON o.id = a.entry_id WHERE a.id = ?`),
    attemptsOfEntry: db.prepare(`
      SELECT ${ATTEMPT_COLUMNS} FROM webhook_attempts a JOIN webhook_outbox o ON o.id = a.entry_id
      WHERE a.entry_id = ? ORDER BY a.attempt_number`),
    attemptsOfOrganization: db.prepare(`
      SELECT ${ATTEMPT_COLUMNS} FROM webhook_attempts a JOIN webhook_outbox o ON o.id = a.entry_id
      WHERE o.organization_id = ? AND a.id < ? ORDER BY a.id DESC LIMIT ?`),
  };

  const findEntry = (handle: string) => sql.entryByHandle.get(handle) as unknown as EntryRow | undefined;

  return {
    async insertEntry(event, attemptLimit) {
      return inTransaction(() => {
        const { changes } = sql.insertEntry.run({
          organizationId: event.organizationId,
          callbackUrl: event.callbackUrl,
          event: event.event,
          handle: event.handle,
          tool: event.tool,
          dataJson: event.dataJson,
          now: clock(),
          attemptLimit,
        });
        return { entry: entryFromRow(findEntry(event.handle)!), created: changes === 1 };
      });
    },

    async resend(organizationId, handle) {
      return inTransaction((): ResendResult => {
        const row = findEntry(handle);
        if (row === undefined || row.organization_id !== organizationId) return { ok: false, reason: 'not_found' };
        if (sql.resend.run(clock(), row.id).changes === 0) return { ok: false, reason: 'in_flight' };
        return { ok: true, entry: entryFromRow(findEntry(handle)!) };
      });
    },

    async findEntry(handle) {
      const row = findEntry(handle);
      return row === undefined ? undefined : entryFromRow(row);
    },

    async listDeliveries(organizationId, filter, page) {
      const conditions = ['organization_id = :organizationId', 'id < :beforeId'];
      for (const field of ['handle', 'event', 'state'] as const) if (filter[field] !== undefined) conditions.push(`${field} = :${field}`);
      const rows = db
        .prepare(`SELECT ${entryColumns()} FROM webhook_outbox WHERE ${conditions.join(' AND ')} ORDER BY id DESC LIMIT :limit`)
        .all({
          organizationId,
          beforeId: page.beforeId ?? Number.MAX_SAFE_INTEGER,
          limit: page.limit,
          ...Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined)),
        }) as unknown as EntryRow[];
      return rows.map((row) => ({
        ...entryFromRow(row),
        attempts: (sql.attemptsOfEntry.all(row.id) as unknown as AttemptRow[]).map(attemptFromRow),
      }));
    },

    async listAttempts(organizationId, page) {
      const rows = sql.attemptsOfOrganization.all(organizationId, page.beforeId ?? Number.MAX_SAFE_INTEGER, page.limit);
      return (rows as unknown as AttemptRow[]).map(attemptFromRow);
    },

    async claimDue(owner, leaseMs, limit) {
      return inTransaction(() => {
        const now = clock();
        const rows = sql.due.all(now, limit) as unknown as Array<EntryRow & { data_json: string }>;
        for (const row of rows) sql.claim.run(owner, now + leaseMs, row.id);
        return rows.map((row) => ({ ...entryFromRow(row), dataJson: row.data_json }));
      });
    },

    async startAttempt(entryId, owner, request) {
      return inTransaction(() => {
        const entry = sql.claimedBy.get(entryId, owner) as { attempts_made: number } | undefined;
        if (entry === undefined) return undefined;
        const attemptNumber = entry.attempts_made + 1;
        const { lastInsertRowid } = sql.insertAttempt.run(
          entryId,
          attemptNumber,
          request.deliveryId,
          JSON.stringify(request.requestHeaders),
          request.requestBody,
          clock(),
        );
        const attemptId = Number(lastInsertRowid);
        sql.countAttempt.run(attemptNumber, attemptId, entryId);
        return { attemptId, attemptNumber };
      });
    },

    async finishAttempt(attemptId, result, decision) {
      return inTransaction(() => {
        const { entry_id: entryId, leased_attempt_id: claimedBy } = sql.entryOfAttempt.get(attemptId) as {
          entry_id: number;
          leased_attempt_id: number | null;
        };
        // Accepted wins even over a claim that ran out meanwhile: the receiver has the event.
        const persisted = result.accepted || claimedBy === attemptId;
        sql.recordAnswer.run({
          outcome: result.accepted ? 'accepted' : 'failed',
          status: result.status,
          error: result.error,
          responseBodyStart: result.responseBodyStart,
          durationMs: result.durationMs,
          finishedAt: clock(),
          retryAfter: result.retryAfter,
          attemptId,
        });
        // A claim that moved on was settled by whoever recovered it, this attempt counted there.
        if (persisted) sql.persistDecision.run({ state: decision.state, nextAttemptAt: decision.nextAttemptAt, entryId });
        return attemptFromRow(sql.attemptById.get(attemptId) as unknown as AttemptRow);
      });
    },

    async postpone(entryId, owner, dueAt) {
      sql.postpone.run(dueAt, entryId, owner);
    },

    async expiredClaims() {
      return (sql.expired.all(clock()) as unknown as ExpiredClaimRow[]).map(expiredClaimFromRow);
    },

    async settleExpiredClaim(claim, decision) {
      inTransaction(() => {
        const now = clock();
        if (claim.attempt === null || decision === null) {
          sql.release.run(claim.entry.id, now);
          return;
        }
        if (sql.stillExpired.get(claim.entry.id, now, claim.attempt.id) === undefined) return;
        sql.markInterrupted.run(INTERRUPTED, now, claim.attempt.id);
        sql.persistDecision.run({ state: decision.state, nextAttemptAt: decision.nextAttemptAt, entryId: claim.entry.id });
      });
    },

    async close() {
      db.close();
    },
  };
}
