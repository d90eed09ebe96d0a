// The outbox store on PostgreSQL, shared by every instance: due entries are claimed with
// FOR UPDATE SKIP LOCKED, so each is claimed by exactly one instance and none waits on another.
import type { PoolClient } from 'pg';
import { migratePostgres, type PostgresDatabase, type PostgresMigration } from '../database/index.ts';
import { ATTEMPT_COLUMNS, attemptFromRow, entryColumns, entryFromRow } from './delivery-record.ts';
import type { AttemptRow, Delivery, DeliveryFilter, EntryRow } from './delivery-record.ts';
import type { Clock, ExpiredClaimRow, OutboxStore, Page } from './outbox-store.ts';
import { expiredClaimFromRow, expiredClaimsQuery, INTERRUPTED } from './outbox-store.ts';
import { MAX_ATTEMPTS, type RetryDecision } from './retry-schedule.ts';

/**
 * The outbox tables' numbered migrations, recorded under the store name `webhooks`. Times are epoch milliseconds.
 * retry_after_honoured (nullable) is no longer written or read; it stays, as landed migrations are never edited and
 * dropping it would break an older instance still running on the same database.
 */
export const POSTGRES_OUTBOX_MIGRATIONS: readonly PostgresMigration[] = [
  `
  CREATE TABLE webhook_outbox (
    id BIGSERIAL PRIMARY KEY,
    organization_id TEXT NOT NULL,
    callback_url TEXT NOT NULL,
    event TEXT NOT NULL,
    handle TEXT NOT NULL UNIQUE,
    tool TEXT NOT NULL,
    data_json TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'accepted', 'given_up')),
    attempts_made INTEGER NOT NULL DEFAULT 0,
    schedule_base INTEGER NOT NULL DEFAULT 0,
    attempt_limit INTEGER NOT NULL DEFAULT ${MAX_ATTEMPTS},
    next_attempt_at BIGINT,
    lease_owner TEXT,
    lease_until BIGINT,
    leased_attempt_id BIGINT,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX webhook_outbox_due ON webhook_outbox (state, next_attempt_at);
  CREATE INDEX webhook_outbox_organization ON webhook_outbox (organization_id);
  CREATE TABLE webhook_attempts (
    id BIGSERIAL PRIMARY KEY,
    entry_id BIGINT NOT NULL REFERENCES webhook_outbox (id),
    attempt_number INTEGER NOT NULL,
    delivery_id TEXT NOT NULL,
    request_headers TEXT NOT NULL,
    request_body TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('in_flight', 'accepted', 'failed', 'interrupted')),
    status INTEGER,
    error TEXT,
    response_body_start TEXT,
    duration_ms INTEGER,
    started_at BIGINT NOT NULL,
    finished_at BIGINT,
    retry_after TEXT,
    retry_after_honoured SMALLINT,
    UNIQUE (entry_id, attempt_number)
  );`,
];

const ATTEMPTS_FROM = 'webhook_attempts a JOIN webhook_outbox o ON o.id = a.entry_id';

/** An organization's deliveries, newest first, with their attempts: a page of them, narrowed by the filter. */
async function listDeliveries(
  pool: PostgresDatabase['pool'],
  organizationId: string,
  filter: DeliveryFilter,
  page: Page,
): Promise<Delivery[]> {
  const values: unknown[] = [organizationId, page.beforeId ?? Number.MAX_SAFE_INTEGER, page.limit];
  const conditions = ['organization_id = $1', 'id < $2'];
  for (const field of ['handle', 'event', 'state'] as const) {
    const value = filter[field];
    if (value === undefined) continue;
    values.push(value);
    conditions.push(`${field} = $${values.length}`);
  }
  const entries = (
    await pool.query<EntryRow>(
      `SELECT ${entryColumns()} FROM webhook_outbox WHERE ${conditions.join(' AND ')} ORDER BY id DESC LIMIT $3`,
      values,
    )
  ).rows;
  const attempts = (
    await pool.query<AttemptRow>(
      `SELECT ${ATTEMPT_COLUMNS} FROM ${ATTEMPTS_FROM} WHERE a.entry_id = ANY($1) ORDER BY a.entry_id, a.attempt_number`,
      [entries.map((row) => row.id)],
    )
  ).rows.map(attemptFromRow);
  return entries.map((row) => {
    const entry = entryFromRow(row);
    return { ...entry, attempts: attempts.filter((attempt) => attempt.entryId === entry.id) };
  });
}

/**
 * Opens the outbox tables in `database` (migrating them), reading the time from `clock`. The pool
 * stays its opener's: closing the store leaves it open for the other stores sharing it.
 */
export async function openPostgresOutboxStore(database: PostgresDatabase, clock: Clock): Promise<OutboxStore> {
  await migratePostgres(database, 'webhooks', POSTGRES_OUTBOX_MIGRATIONS);
  const { pool, inTransaction } = database;

  const findEntry = async (handle: string) =>
    (await pool.query<EntryRow>(`SELECT ${entryColumns()} FROM webhook_outbox WHERE handle = $1`, [handle])).rows[0];

  const attemptById = async (client: PoolClient, attemptId: number) =>
    attemptFromRow(
      (await client.query<AttemptRow>(`SELECT ${ATTEMPT_COLUMNS} FROM ${ATTEMPTS_FROM} WHERE a.id = $1`, [attemptId])).rows[0]!,
    );

  const persistDecision = (client: PoolClient, entryId: number, decision: RetryDecision) =>
    client.query(
      `UPDATE webhook_outbox SET state = $2, next_attempt_at = $3, lease_owner = NULL, lease_until = NULL, leased_attempt_id = NULL
       WHERE id = $1`,
      [entryId, decision.state, decision.nextAttemptAt],
    );

  return {
    async insertEntry(event, attemptLimit) {
      const now = clock();
      const inserted = await pool.query<EntryRow>(
        `INSERT INTO webhook_outbox (organization_id, callback_url, event, handle, tool, data_json, next_attempt_at, attempt_limit, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $7)
         ON CONFLICT (handle) DO NOTHING RETURNING ${entryColumns()}`,
        [event.organizationId, event.callbackUrl, event.event, event.handle, event.tool, event.dataJson, now, attemptLimit],
      );
      const row = inserted.rows[0] ?? (await findEntry(event.handle))!;
      return { entry: entryFromRow(row), created: inserted.rows.length === 1 };
    },

    async resend(organizationId, handle) {
      const resent = await pool.query<EntryRow>(
        `UPDATE webhook_outbox SET state = 'pending', next_attempt_at = $3, schedule_base = attempts_made
         WHERE handle = $1 AND organization_id = $2 AND lease_until IS NULL RETURNING ${entryColumns()}`,
        [handle, organizationId, clock()],
      );
      if (resent.rows[0] !== undefined) return { ok: true, entry: entryFromRow(resent.rows[0]) };
      const existing = await findEntry(handle);
      return { ok: false, reason: existing === undefined || existing.organization_id !== organizationId ? 'not_found' : 'in_flight' };
    },

    async findEntry(handle) {
      const row = await findEntry(handle);
      return row === undefined ? undefined : entryFromRow(row);
    },

    listDeliveries: (organizationId, filter, page) => listDeliveries(pool, organizationId, filter, page),

    async listAttempts(organizationId, page) {
      const { rows } = await pool.query<AttemptRow>(
        `SELECT ${ATTEMPT_COLUMNS} FROM ${ATTEMPTS_FROM} WHERE o.organization_id = $1 AND a.id < $2 ORDER BY a.id DESC LIMIT $3`,
        [organizationId, page.beforeId ?? Number.MAX_SAFE_INTEGER, page.limit],
      );
      return rows.map(attemptFromRow);
    },

    async claimDue(owner, leaseMs, limit) {
      const now = clock();
      // Rows another instance is claiming right now are skipped, not waited for; what it claims is leased to it alone.
      const { rows } = await pool.query<EntryRow & { data_json: string }>(
        `UPDATE webhook_outbox o SET lease_owner = $1, lease_until = $2
         FROM (SELECT id FROM webhook_outbox WHERE state = 'pending' AND next_attempt_at <= $3 AND lease_until IS NULL
               ORDER BY next_attempt_at, id LIMIT $4 FOR UPDATE SKIP LOCKED) due
         WHERE o.id = due.id
         RETURNING ${entryColumns('o')}, o.data_json`,
        [owner, now + leaseMs, now, limit],
      );
      return rows
        .map((row) => ({ ...entryFromRow(row), dataJson: row.data_json }))
        .sort((a, b) => Date.parse(a.nextAttemptAt!) - Date.parse(b.nextAttemptAt!) || a.id - b.id);
    },

    async startAttempt(entryId, owner, request) {
      return inTransaction(async (client) => {
        const claimed = await client.query<{ attempts_made: number }>(
          `SELECT attempts_made FROM webhook_outbox WHERE id = $1 AND lease_owner = $2 AND state = 'pending' FOR UPDATE`,
          [entryId, owner],
        );
        if (claimed.rows[0] === undefined) return undefined;
        const attemptNumber = claimed.rows[0].attempts_made + 1;
        const inserted = await client.query<{ id: number }>(
          `INSERT INTO webhook_attempts (entry_id, attempt_number, delivery_id, request_headers, request_body, outcome, started_at)
           VALUES ($1, $2, $3, $4, $5, 'in_flight', $6) RETURNING id`,
          [entryId, attemptNumber, request.deliveryId, JSON.stringify(request.requestHeaders), request.requestBody, clock()],
        );
        const attemptId = inserted.rows[0]!.id;
        await client.query('UPDATE webhook_outbox SET attempts_made = $2, leased_attempt_id = $3 WHERE id = $1', [
          entryId,
          attemptNumber,
          attemptId,
        ]);
        return { attemptId, attemptNumber };
      });
    },

    async finishAttempt(attemptId, result, decision) {
      return inTransaction(async (client) => {
        const { entry_id: entryId, leased_attempt_id: claimedBy } = (
          await client.query<{ entry_id: number; leased_attempt_id: number | null }>(
            `SELECT a.entry_id, o.leased_attempt_id FROM ${ATTEMPTS_FROM} WHERE a.id = $1 FOR UPDATE OF o`,
            [attemptId],
          )
        ).rows[0]!;
        // Accepted wins even over a claim that ran out meanwhile: the receiver has the event.
        const persisted = result.accepted || claimedBy === attemptId;
        await client.query(
          `UPDATE webhook_attempts
           SET outcome = $2, status = $3, error = $4, response_body_start = $5, duration_ms = $6, finished_at = $7, retry_after = $8
           WHERE id = $1`,
          [
            attemptId,
            result.accepted ? 'accepted' : 'failed',
            result.status,
            result.error,
            result.responseBodyStart,
            result.durationMs,
            clock(),
            result.retryAfter,
          ],
        );
        // A claim that moved on was settled by whoever recovered it, this attempt counted there.
        if (persisted) await persistDecision(client, entryId, decision);
        return attemptById(client, attemptId);
      });
    },

    async postpone(entryId, owner, dueAt) {
      await pool.query(
        `UPDATE webhook_outbox SET next_attempt_at = $3, lease_owner = NULL, lease_until = NULL
         WHERE id = $1 AND lease_owner = $2 AND state = 'pending' AND leased_attempt_id IS NULL`,
        [entryId, owner, dueAt],
      );
    },

    async expiredClaims() {
      return (await pool.query<ExpiredClaimRow>(expiredClaimsQuery('$1'), [clock()])).rows.map(expiredClaimFromRow);
    },

    async settleExpiredClaim(claim, decision) {
      await inTransaction(async (client) => {
        const now = clock();
        if (claim.attempt === null || decision === null) {
          await client.query(
            'UPDATE webhook_outbox SET lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_until <= $2 AND leased_attempt_id IS NULL',
            [claim.entry.id, now],
          );
          return;
        }
        // Locking the row makes a second instance settling the same claim wait, then find it settled.
        const still = await client.query(
          'SELECT 1 FROM webhook_outbox WHERE id = $1 AND lease_until <= $2 AND leased_attempt_id = $3 FOR UPDATE',
          [claim.entry.id, now, claim.attempt.id],
        );
        if (still.rows.length === 0) return;
        await client.query(
          `UPDATE webhook_attempts SET outcome = 'interrupted', error = $2, finished_at = $3 WHERE id = $1 AND outcome = 'in_flight'`,
          [claim.attempt.id, INTERRUPTED, now],
        );
        await persistDecision(client, claim.entry.id, decision);
      });
    },

    async close() {},
  };
}
