import { randomBytes } from 'node:crypto';
import type { PoolClient } from 'pg';
import { migratePostgres, type PostgresDatabase, type PostgresMigration } from '../database/index.ts';
import {
  type GarmentOwners,
  type OwnerRow,
  ownershipStep,
  type PublishPermission,
  publishPermission,
  toOwner,
  unknownOrganization,
} from './garment-owners.ts';
import { createApiKey, createSigningSecret, hashApiKey } from './keys.ts';
import {
  type AccountRecords,
  type ApiKeyRow,
  type BuildRecords,
  type Clock,
  idempotencyVerdict,
  type OrganizationRow,
  type PublishStore,
  TASK_COLUMNS,
  type TaskInsertion,
  type TaskRecords,
  type TaskRow,
  toApiKeySummary,
  toOrganization,
  toTask,
  UnknownOrganizationError,
} from './store.ts';
import { PUBLISH_TOOL, STAGES, type TaskStatus } from './tasks.ts';

/** The publish tables' numbered migrations in PostgreSQL (store "publish" in garment_press_migrations). */
export const POSTGRES_PUBLISH_MIGRATIONS: readonly PostgresMigration[] = [
  `
  CREATE TABLE organizations (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    signing_secret TEXT,
    created_at BIGINT NOT NULL
  );
  CREATE TABLE api_keys (
    id BIGSERIAL PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    visible_prefix TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    revoked_at BIGINT
  );
  CREATE TABLE tasks (
    handle TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'complete', 'failed', 'superseded')),
    tool TEXT NOT NULL DEFAULT '${PUBLISH_TOOL}',
    stage TEXT NOT NULL,
    progress DOUBLE PRECISION NOT NULL,
    error TEXT NOT NULL DEFAULT '',
    resource_id TEXT NOT NULL DEFAULT '',
    page_url TEXT NOT NULL DEFAULT '',
    callback_url TEXT,
    record_text TEXT NOT NULL,
    -- Set once the record is written; replaced_text is then what the file held before (NULL: no file).
    record_file TEXT,
    replaced_text TEXT,
    written_at BIGINT,
    write_order BIGINT,
    build_id BIGINT,
    result_json TEXT,
    event_enqueued BOOLEAN NOT NULL DEFAULT false,
    superseded_by TEXT,
    idempotency_key TEXT,
    request_digest TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE SEQUENCE task_write_order;
  CREATE INDEX tasks_unfinished ON tasks (created_at) WHERE status IN ('queued', 'running');
  CREATE INDEX tasks_event_pending ON tasks (created_at) WHERE NOT event_enqueued AND callback_url IS NOT NULL AND result_json IS NOT NULL;
  CREATE UNIQUE INDEX tasks_idempotency ON tasks (organization_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
  CREATE TABLE builds (
    id BIGSERIAL PRIMARY KEY,
    task_count INTEGER NOT NULL,
    started_at BIGINT NOT NULL,
    finished_at BIGINT,
    ok BOOLEAN,
    output TEXT
  );
  CREATE TABLE garment_owners (
    slug TEXT PRIMARY KEY,
    -- NULL: nobody owns it; only an admin grant makes it publishable.
    organization_id TEXT REFERENCES organizations (id),
    origin TEXT NOT NULL CHECK (origin IN ('first_publish', 'found_in_folder', 'granted', 'transferred', 'released')),
    changed_at BIGINT NOT NULL
  );
  CREATE INDEX garment_owners_organization ON garment_owners (organization_id);
  -- Which instance holds the build lease (an advisory lock): backend_pid is its lock connection.
  CREATE TABLE build_lease (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    instance TEXT NOT NULL,
    backend_pid INTEGER NOT NULL,
    acquired_at BIGINT NOT NULL
  );
  `,
  // The lease runs out unless renewed (a hung builder loses it too); each taking counts a new term, which fences its build's swap.
  `
  ALTER TABLE build_lease ADD COLUMN term BIGINT NOT NULL DEFAULT 1, ADD COLUMN expires_at TIMESTAMPTZ NOT NULL DEFAULT now();
  COMMENT ON TABLE build_lease IS 'The build lease: held by instance until expires_at unless renewed; backend_pid is its lease connection';
  `,
];

/** Opens the publish tables in a PostgreSQL database, creating or upgrading them first. The database stays open for its other users. */
export async function openPostgresPublishStore(
  database: PostgresDatabase,
  { now = Date.now }: { now?: Clock } = {},
): Promise<PublishStore> {
  await migratePostgres(database, 'publish', POSTGRES_PUBLISH_MIGRATIONS);
  return {
    ...postgresAccountRecords(database, now),
    ...postgresTaskRecords(database, now),
    ...postgresBuildRecords(database, now),
    owners: postgresGarmentOwners(database, now),
    // The database is the composition root's to close: the outbox and the lease share it.
    async close() {},
  };
}

type Queryable = Pick<PoolClient, 'query'>;

/** The rows a query returns, on the pool unless another connection is given. */
async function rowsOf<T>(on: Queryable, sql: string, values: unknown[] = []): Promise<T[]> {
  return (await on.query(sql, values)).rows as T[];
}

/** Organizations, their API keys and signing secrets in PostgreSQL. */
function postgresAccountRecords({ pool }: PostgresDatabase, now: Clock): AccountRecords {
  const rows = <T>(sql: string, values: unknown[] = []) => rowsOf<T>(pool, sql, values);
  const changed = async (sql: string, values: unknown[]) => (await pool.query(sql, values)).rowCount ?? 0;
  const mustGetOrganization = async (id: string) => {
    const [row] = await rows<OrganizationRow>('SELECT id, name, signing_secret, created_at FROM organizations WHERE id = $1', [id]);
    if (row === undefined) throw new UnknownOrganizationError(`no organization with id ${id}`);
    return row;
  };
  const replaceSecret = async (organizationId: string, keepExisting: boolean) => {
    const [row] = await rows<{ signing_secret: string }>(
      `UPDATE organizations SET signing_secret = ${keepExisting ? 'COALESCE(signing_secret, $1)' : '$1'} WHERE id = $2 RETURNING signing_secret`,
      [createSigningSecret(), organizationId],
    );
    if (row === undefined) throw new UnknownOrganizationError(`no organization with id ${organizationId}`);
    return row.signing_secret;
  };

  return {
    async createOrganization(name) {
      const [row] = await rows<OrganizationRow>(
        'INSERT INTO organizations (id, name, created_at) VALUES ($1, $2, $3) RETURNING id, name, signing_secret, created_at',
        [`org_${randomBytes(12).toString('hex')}`, name, now()],
      );
      return toOrganization(row!);
    },

    async listOrganizations() {
      return (await rows<OrganizationRow>('SELECT id, name, signing_secret, created_at FROM organizations ORDER BY created_at, id')).map(
        toOrganization,
      );
    },

    async createApiKey(organizationId) {
      await mustGetOrganization(organizationId);
      const made = createApiKey();
      await pool.query('INSERT INTO api_keys (organization_id, visible_prefix, key_hash, created_at) VALUES ($1, $2, $3, $4)', [
        organizationId,
        made.visiblePrefix,
        made.hash,
        now(),
      ]);
      return { key: made.key, visiblePrefix: made.visiblePrefix };
    },

    async listApiKeys(organizationId) {
      await mustGetOrganization(organizationId);
      const found = await rows<ApiKeyRow>(
        'SELECT id, organization_id, visible_prefix, created_at, revoked_at FROM api_keys WHERE organization_id = $1 ORDER BY id',
        [organizationId],
      );
      return found.map(toApiKeySummary);
    },

    async revokeApiKey(organizationId, visiblePrefix) {
      await mustGetOrganization(organizationId);
      return changed('UPDATE api_keys SET revoked_at = $1 WHERE organization_id = $2 AND visible_prefix = $3 AND revoked_at IS NULL', [
        now(),
        organizationId,
        visiblePrefix,
      ]);
    },

    async organizationForKey(key) {
      const [row] = await rows<{ organization_id: string }>(
        'SELECT organization_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
        [hashApiKey(key)],
      );
      return row?.organization_id;
    },

    signingSecret: (organizationId) => replaceSecret(organizationId, true),
    rotateSigningSecret: (organizationId) => replaceSecret(organizationId, false),
  };
}

/** Publish tasks in PostgreSQL. */
function postgresTaskRecords({ pool, inTransaction }: PostgresDatabase, now: Clock): TaskRecords {
  const rows = <T>(sql: string, values: unknown[] = [], on: Queryable = pool) => rowsOf<T>(on, sql, values);
  const changed = async (sql: string, values: unknown[]) => (await pool.query(sql, values)).rowCount ?? 0;

  return {
    async insertTask({ handle, organizationId, tool, callbackUrl, recordText, idempotency }) {
      const at = now();
      return inTransaction(async (client): Promise<TaskInsertion> => {
        if (idempotency !== undefined) {
          // Two requests with one new key at once: the second waits here for the first's row.
          await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${organizationId} ${idempotency.key}`]);
          const [earlier] = await rows<TaskRow & { request_digest: string }>(
            `SELECT ${TASK_COLUMNS}, request_digest FROM tasks WHERE organization_id = $1 AND idempotency_key = $2`,
            [organizationId, idempotency.key],
            client,
          );
          const verdict = idempotencyVerdict(earlier, idempotency.requestDigest, at);
          if (typeof verdict === 'object') return verdict;
          if (verdict === 'free_then_insert')
            await client.query('UPDATE tasks SET idempotency_key = NULL WHERE handle = $1', [earlier!.handle]);
        }
        const { status, stage, progress } = STAGES.queued;
        const [row] = await rows<TaskRow>(
          `INSERT INTO tasks (handle, organization_id, tool, status, stage, progress, callback_url, record_text, idempotency_key, request_digest, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) RETURNING ${TASK_COLUMNS}`,
          [
            handle,
            organizationId,
            tool,
            status,
            stage,
            progress,
            callbackUrl,
            recordText,
            idempotency?.key ?? null,
            idempotency?.requestDigest ?? null,
            at,
          ],
          client,
        );
        return { kind: 'created', task: toTask(row!) };
      });
    },

    async getTask(handle) {
      const [row] = await rows<TaskRow>(`SELECT ${TASK_COLUMNS} FROM tasks WHERE handle = $1`, [handle]);
      return row === undefined ? undefined : toTask(row);
    },

    async setStage(handle, stageName, fields = {}) {
      const { status, stage, progress } = STAGES[stageName];
      const count = await changed(
        `UPDATE tasks SET status = $1, stage = $2, progress = $3, resource_id = COALESCE($4, resource_id), build_id = COALESCE($5, build_id), updated_at = $6
         WHERE handle = $7 AND status IN ('queued', 'running')`,
        [status, stage, progress, fields.resourceId ?? null, fields.buildId ?? null, now(), handle],
      );
      return count === 1;
    },

    async noteWrite({ handle, file, replacedText }) {
      await pool.query(
        `UPDATE tasks SET record_file = $1, replaced_text = $2, written_at = $3, write_order = nextval('task_write_order')
         WHERE handle = $4 AND written_at IS NULL`,
        [file, replacedText, now(), handle],
      );
    },

    async writtenRecords(handles) {
      if (handles.length === 0) return [];
      const found = await rows<{ handle: string; record_file: string; replaced_text: string | null }>(
        `SELECT handle, record_file, replaced_text FROM tasks WHERE written_at IS NOT NULL AND handle = ANY($1) ORDER BY write_order DESC`,
        [handles],
      );
      return found.map((row) => ({ handle: row.handle, file: row.record_file, replacedText: row.replaced_text }));
    },

    async finishTask(handle, outcome) {
      const { stage, progress } = STAGES[outcome.status];
      const count = await changed(
        `UPDATE tasks SET status = $1, stage = $2, progress = $3, error = $4, resource_id = $5, page_url = $6, superseded_by = $7, result_json = $8, updated_at = $9
         WHERE handle = $10 AND status IN ('queued', 'running')`,
        [
          outcome.status,
          stage,
          progress,
          outcome.error,
          outcome.resourceId,
          outcome.pageUrl,
          outcome.supersededBy,
          outcome.resultJson,
          now(),
          handle,
        ],
      );
      return count === 1;
    },

    async markEventEnqueued(handle) {
      await pool.query('UPDATE tasks SET event_enqueued = true WHERE handle = $1', [handle]);
    },

    async unfinishedTasks() {
      return (
        await rows<TaskRow>(`SELECT ${TASK_COLUMNS} FROM tasks WHERE status IN ('queued', 'running') ORDER BY created_at, handle`)
      ).map(toTask);
    },

    async tasksAwaitingEvent() {
      const found = await rows<TaskRow>(
        `SELECT ${TASK_COLUMNS} FROM tasks WHERE NOT event_enqueued AND callback_url IS NOT NULL AND result_json IS NOT NULL ORDER BY created_at`,
      );
      return found.map(toTask);
    },

    async taskCounts() {
      const counts: Record<TaskStatus, number> = { queued: 0, running: 0, complete: 0, failed: 0, superseded: 0 };
      for (const row of await rows<{ status: TaskStatus; n: number }>('SELECT status, COUNT(*) AS n FROM tasks GROUP BY status')) {
        counts[row.status] = row.n;
      }
      return counts;
    },
  };
}

/** Site builds in PostgreSQL. */
function postgresBuildRecords({ pool }: PostgresDatabase, now: Clock): BuildRecords {
  const rows = <T>(sql: string, values: unknown[] = []) => rowsOf<T>(pool, sql, values);

  return {
    async startBuild(taskCount) {
      const [row] = await rows<{ id: number }>('INSERT INTO builds (task_count, started_at) VALUES ($1, $2) RETURNING id', [
        taskCount,
        now(),
      ]);
      return row!.id;
    },

    async finishBuild(id, ok, output) {
      await pool.query('UPDATE builds SET finished_at = $1, ok = $2, output = $3 WHERE id = $4', [now(), ok, output, id]);
    },

    async buildCounts() {
      const [row] = await rows<{ started: number; succeeded: number; failed: number }>(
        'SELECT COUNT(*) AS started, COUNT(*) FILTER (WHERE ok) AS succeeded, COUNT(*) FILTER (WHERE NOT ok) AS failed FROM builds',
      );
      return row!;
    },
  };
}

/** Garment ownership in PostgreSQL; each change reads and writes under the row's lock. */
function postgresGarmentOwners({ pool, inTransaction }: PostgresDatabase, now: Clock): GarmentOwners {
  const ownerRow = async (on: Pick<PoolClient, 'query'>, slug: string, forUpdate = false) =>
    (
      await on.query<OwnerRow>(
        `SELECT slug, organization_id, origin, changed_at FROM garment_owners WHERE slug = $1${forUpdate ? ' FOR UPDATE' : ''}`,
        [slug],
      )
    ).rows[0];
  const change = (kind: 'grant' | 'transfer' | 'release', slug: string, organizationId: string | null) =>
    inTransaction(async (client) => {
      if (organizationId !== null && (await client.query('SELECT 1 FROM organizations WHERE id = $1', [organizationId])).rowCount === 0) {
        throw unknownOrganization(organizationId);
      }
      const step = ownershipStep(kind, slug, await ownerRow(client, slug, true), organizationId);
      if ('keep' in step) return toOwner(step.keep);
      const { rows } = await client.query<OwnerRow>(
        `INSERT INTO garment_owners (slug, organization_id, origin, changed_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (slug) DO UPDATE SET organization_id = excluded.organization_id, origin = excluded.origin, changed_at = excluded.changed_at
         RETURNING slug, organization_id, origin, changed_at`,
        [slug, step.set.organizationId, step.set.origin, now()],
      );
      return toOwner(rows[0]!);
    });

  return {
    async claimForPublish(slug, organizationId): Promise<PublishPermission> {
      const permission = publishPermission(await ownerRow(pool, slug), organizationId);
      if (permission !== 'claim') return permission;
      await pool.query(
        "INSERT INTO garment_owners (slug, organization_id, origin, changed_at) VALUES ($1, $2, 'first_publish', $3) ON CONFLICT (slug) DO NOTHING",
        [slug, organizationId, now()],
      );
      // Another instance may have claimed it in between: decide on the row as it now stands.
      const settled = publishPermission(await ownerRow(pool, slug), organizationId);
      return settled === 'claim' ? { allowed: false, reason: 'unowned' } : settled;
    },

    async noteFound(slugs) {
      const unique = [...new Set(slugs)];
      const { rows } = await pool.query<{ slug: string }>(
        `INSERT INTO garment_owners (slug, organization_id, origin, changed_at) SELECT slug, NULL, 'found_in_folder', $2 FROM unnest($1::text[]) AS slug
         ON CONFLICT (slug) DO NOTHING RETURNING slug`,
        [unique, now()],
      );
      const added = new Set(rows.map((row) => row.slug));
      return unique.filter((slug) => added.has(slug));
    },

    async ownerOf(slug) {
      const current = await ownerRow(pool, slug);
      return current === undefined ? undefined : toOwner(current);
    },

    async list({ organizationId, unowned = false } = {}) {
      const where = unowned ? 'WHERE organization_id IS NULL' : organizationId === undefined ? '' : 'WHERE organization_id = $1';
      const values = unowned || organizationId === undefined ? [] : [organizationId];
      const { rows } = await pool.query<OwnerRow>(
        `SELECT slug, organization_id, origin, changed_at FROM garment_owners ${where} ORDER BY slug`,
        values,
      );
      return rows.map(toOwner);
    },

    grant: (slug, organizationId) => change('grant', slug, organizationId),
    transfer: (slug, organizationId) => change('transfer', slug, organizationId),
    release: (slug) => change('release', slug, null),
  };
}
