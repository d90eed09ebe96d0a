import { randomBytes } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { openMigratedSqlite, type SqliteMigration } from '../database/index.ts';
import {
  type GarmentOwners,
  type OwnerRow,
  type OwnershipOrigin,
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
  type BuildCounts,
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

const TABLES = `
  CREATE TABLE IF NOT EXISTS organizations (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    signing_secret TEXT,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE TABLE IF NOT EXISTS api_keys (
    id INTEGER PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    visible_prefix TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
  ) STRICT;
  CREATE TABLE IF NOT EXISTS tasks (
    handle TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'complete', 'failed', 'superseded')),
    tool TEXT NOT NULL DEFAULT '${PUBLISH_TOOL}',
    stage TEXT NOT NULL,
    progress REAL NOT NULL,
    error TEXT NOT NULL DEFAULT '',
    resource_id TEXT NOT NULL DEFAULT '',
    page_url TEXT NOT NULL DEFAULT '',
    callback_url TEXT,
    record_text TEXT NOT NULL,
    -- Set once the record is written; replaced_text is then what the file held before (NULL: no file).
    record_file TEXT,
    replaced_text TEXT,
    written_at INTEGER,
    write_order INTEGER,
    build_id INTEGER,
    result_json TEXT,
    event_enqueued INTEGER NOT NULL DEFAULT 0,
    superseded_by TEXT,
    idempotency_key TEXT,
    request_digest TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT;
  CREATE TABLE IF NOT EXISTS builds (
    id INTEGER PRIMARY KEY,
    task_count INTEGER NOT NULL,
    started_at INTEGER NOT NULL,
    finished_at INTEGER,
    ok INTEGER,
    output TEXT
  ) STRICT;
  CREATE TABLE IF NOT EXISTS garment_owners (
    slug TEXT PRIMARY KEY,
    -- NULL: nobody owns it; only an admin grant makes it publishable.
    organization_id TEXT REFERENCES organizations (id),
    origin TEXT NOT NULL CHECK (origin IN ('first_publish', 'found_in_folder', 'granted', 'transferred', 'released')),
    changed_at INTEGER NOT NULL
  ) STRICT;
`;

const INDEXES = `
  CREATE INDEX IF NOT EXISTS tasks_unfinished ON tasks (created_at) WHERE status IN ('queued', 'running');
  CREATE INDEX IF NOT EXISTS tasks_event_pending ON tasks (created_at) WHERE event_enqueued = 0 AND callback_url IS NOT NULL AND result_json IS NOT NULL;
  CREATE UNIQUE INDEX IF NOT EXISTS tasks_idempotency ON tasks (organization_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
  CREATE INDEX IF NOT EXISTS garment_owners_organization ON garment_owners (organization_id);
`;

/** Columns a task table made before issue 25 lacks; such a table is rebuilt (SQLite cannot change a CHECK in place). */
const ADDED_TASK_COLUMNS = ['tool', 'superseded_by', 'idempotency_key', 'request_digest'];

/**
 * The publish database's numbered migrations (user_version). 1 is the schema as it stood before
 * numbered migrations, written so a folder made by that code (user_version 0) upgrades in place.
 */
export const SQLITE_PUBLISH_MIGRATIONS: readonly SqliteMigration[] = [
  (db) => {
    db.exec(TABLES);
    rebuildTasksBeforeIssue25(db);
    db.exec(INDEXES);
  },
];

/** Opens (creating or upgrading if needed) the publish database at `path`: WAL, full sync (a task's stage changes excepted), foreign keys. */
export function openSqlitePublishStore(path: string, { now = Date.now }: { now?: Clock } = {}): PublishStore {
  const { db, inTransaction, unsynced } = openMigratedSqlite(path, SQLITE_PUBLISH_MIGRATIONS);
  return {
    ...sqliteAccountRecords(db, inTransaction, now),
    ...sqliteTaskRecords(db, inTransaction, unsynced, now),
    ...sqliteBuildRecords(db, now),
    owners: sqliteGarmentOwners(db, inTransaction, now),
    async close() {
      db.close();
    },
  };
}

type InTransaction = <T>(work: () => T) => T;

/** Organizations, their API keys and signing secrets in the publish database. */
function sqliteAccountRecords(db: DatabaseSync, inTransaction: InTransaction, now: Clock): AccountRecords {
  const selectOrganization = db.prepare('SELECT id, name, signing_secret, created_at FROM organizations WHERE id = ?');
  const mustGetOrganization = (id: string) => {
    const row = selectOrganization.get(id) as OrganizationRow | undefined;
    if (row === undefined) throw new UnknownOrganizationError(`no organization with id ${id}`);
    return row;
  };
  const replaceSecret = (organizationId: string, keepExisting: boolean) =>
    inTransaction(() => {
      mustGetOrganization(organizationId);
      const row = db
        .prepare(
          `UPDATE organizations SET signing_secret = ${keepExisting ? 'COALESCE(signing_secret, ?)' : '?'} WHERE id = ? RETURNING signing_secret`,
        )
        .get(createSigningSecret(), organizationId) as { signing_secret: string };
      return row.signing_secret;
    });

  return {
    async createOrganization(name) {
      const id = `org_${randomBytes(12).toString('hex')}`;
      db.prepare('INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)').run(id, name, now());
      return toOrganization(mustGetOrganization(id));
    },

    async listOrganizations() {
      const rows = db.prepare('SELECT id, name, signing_secret, created_at FROM organizations ORDER BY created_at, id').all();
      return (rows as unknown as OrganizationRow[]).map(toOrganization);
    },

    async createApiKey(organizationId) {
      mustGetOrganization(organizationId);
      const made = createApiKey();
      db.prepare('INSERT INTO api_keys (organization_id, visible_prefix, key_hash, created_at) VALUES (?, ?, ?, ?)').run(
        organizationId,
        made.visiblePrefix,
        made.hash,
        now(),
      );
      return { key: made.key, visiblePrefix: made.visiblePrefix };
    },

    async listApiKeys(organizationId) {
      mustGetOrganization(organizationId);
      const rows = db
        .prepare('SELECT id, organization_id, visible_prefix, created_at, revoked_at FROM api_keys WHERE organization_id = ? ORDER BY id')
        .all(organizationId);
      return (rows as unknown as ApiKeyRow[]).map(toApiKeySummary);
    },

    async revokeApiKey(organizationId, visiblePrefix) {
      mustGetOrganization(organizationId);
      const { changes } = db
        .prepare('UPDATE api_keys SET revoked_at = ? WHERE organization_id = ? AND visible_prefix = ? AND revoked_at IS NULL')
        .run(now(), organizationId, visiblePrefix);
      return Number(changes);
    },

    async organizationForKey(key) {
      const row = db.prepare('SELECT organization_id FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL').get(hashApiKey(key)) as
        | { organization_id: string }
        | undefined;
      return row?.organization_id;
    },

    signingSecret: async (organizationId) => replaceSecret(organizationId, true),
    rotateSigningSecret: async (organizationId) => replaceSecret(organizationId, false),
  };
}

/** Publish tasks in the publish database. */
function sqliteTaskRecords(db: DatabaseSync, inTransaction: InTransaction, unsynced: InTransaction, now: Clock): TaskRecords {
  const selectTask = db.prepare(`SELECT ${TASK_COLUMNS} FROM tasks WHERE handle = ?`);

  return {
    async insertTask({ handle, organizationId, tool, callbackUrl, recordText, idempotency }) {
      const at = now();
      return inTransaction((): TaskInsertion => {
        if (idempotency !== undefined) {
          const earlier = db
            .prepare(`SELECT ${TASK_COLUMNS}, request_digest FROM tasks WHERE organization_id = ? AND idempotency_key = ?`)
            .get(organizationId, idempotency.key) as (TaskRow & { request_digest: string }) | undefined;
          const verdict = idempotencyVerdict(earlier, idempotency.requestDigest, at);
          if (typeof verdict === 'object') return verdict;
          if (verdict === 'free_then_insert') db.prepare('UPDATE tasks SET idempotency_key = NULL WHERE handle = ?').run(earlier!.handle);
        }
        const { status, stage, progress } = STAGES.queued;
        db.prepare(`
          INSERT INTO tasks (handle, organization_id, tool, status, stage, progress, callback_url, record_text, idempotency_key, request_digest, created_at, updated_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
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
          at,
        );
        return { kind: 'created', task: toTask(selectTask.get(handle) as unknown as TaskRow) };
      });
    },

    async getTask(handle) {
      const row = selectTask.get(handle) as TaskRow | undefined;
      return row === undefined ? undefined : toTask(row);
    },

    async setStage(handle, stageName, fields = {}) {
      const { status, stage, progress } = STAGES[stageName];
      // A stage lost in a power failure is an earlier stage of a task still unfinished, which the next start resumes.
      const { changes } = unsynced(() =>
        db
          .prepare(`
        UPDATE tasks SET status = :status, stage = :stage, progress = :progress,
          resource_id = COALESCE(:resourceId, resource_id), build_id = COALESCE(:buildId, build_id), updated_at = :now
        WHERE handle = :handle AND status IN ('queued', 'running')`)
          .run({ status, stage, progress, resourceId: fields.resourceId ?? null, buildId: fields.buildId ?? null, now: now(), handle }),
      );
      return changes === 1;
    },

    async noteWrite({ handle, file, replacedText }) {
      inTransaction(() => {
        const order = (db.prepare('SELECT COALESCE(MAX(write_order), 0) + 1 AS next FROM tasks').get() as { next: number }).next;
        db.prepare(`
          UPDATE tasks SET record_file = ?, replaced_text = ?, written_at = ?, write_order = ?
          WHERE handle = ? AND written_at IS NULL`).run(file, replacedText, now(), order, handle);
      });
    },

    async writtenRecords(handles) {
      if (handles.length === 0) return [];
      const rows = db
        .prepare(`
        SELECT handle, record_file, replaced_text FROM tasks
        WHERE written_at IS NOT NULL AND handle IN (${handles.map(() => '?').join(', ')})
        ORDER BY write_order DESC`)
        .all(...handles) as unknown as Array<{ handle: string; record_file: string; replaced_text: string | null }>;
      return rows.map((row) => ({ handle: row.handle, file: row.record_file, replacedText: row.replaced_text }));
    },

    async finishTask(handle, outcome) {
      const { stage, progress } = STAGES[outcome.status];
      const { changes } = db
        .prepare(`
        UPDATE tasks SET status = :status, stage = :stage, progress = :progress, error = :error,
          resource_id = :resourceId, page_url = :pageUrl, superseded_by = :supersededBy, result_json = :resultJson, updated_at = :now
        WHERE handle = :handle AND status IN ('queued', 'running')`)
        .run({ ...outcome, stage, progress, now: now(), handle });
      return changes === 1;
    },

    async markEventEnqueued(handle) {
      db.prepare('UPDATE tasks SET event_enqueued = 1 WHERE handle = ?').run(handle);
    },

    async unfinishedTasks() {
      const rows = db.prepare(`SELECT ${TASK_COLUMNS} FROM tasks WHERE status IN ('queued', 'running') ORDER BY created_at, handle`).all();
      return (rows as unknown as TaskRow[]).map(toTask);
    },

    async tasksAwaitingEvent() {
      const rows = db
        .prepare(`
        SELECT ${TASK_COLUMNS} FROM tasks
        WHERE event_enqueued = 0 AND callback_url IS NOT NULL AND result_json IS NOT NULL ORDER BY created_at`)
        .all();
      return (rows as unknown as TaskRow[]).map(toTask);
    },

    async taskCounts() {
      const counts: Record<TaskStatus, number> = { queued: 0, running: 0, complete: 0, failed: 0, superseded: 0 };
      const rows = db.prepare('SELECT status, COUNT(*) AS n FROM tasks GROUP BY status').all() as unknown as Array<{
        status: TaskStatus;
        n: number;
      }>;
      for (const row of rows) counts[row.status] = row.n;
      return counts;
    },
  };
}

/** Site builds in the publish database. */
function sqliteBuildRecords(db: DatabaseSync, now: Clock): BuildRecords {
  return {
    async startBuild(taskCount) {
      const { lastInsertRowid } = db.prepare('INSERT INTO builds (task_count, started_at) VALUES (?, ?)').run(taskCount, now());
      return Number(lastInsertRowid);
    },

    async finishBuild(id, ok, output) {
      db.prepare('UPDATE builds SET finished_at = ?, ok = ?, output = ? WHERE id = ?').run(now(), ok ? 1 : 0, output, id);
    },

    async buildCounts() {
      const row = db
        .prepare('SELECT COUNT(*) AS started, COALESCE(SUM(ok = 1), 0) AS succeeded, COALESCE(SUM(ok = 0), 0) AS failed FROM builds')
        .get() as unknown as BuildCounts;
      return { started: row.started, succeeded: row.succeeded, failed: row.failed };
    },
  };
}

/** Garment ownership in the publish database. */
function sqliteGarmentOwners(db: DatabaseSync, inTransaction: InTransaction, now: Clock): GarmentOwners {
  const select = db.prepare('SELECT slug, organization_id, origin, changed_at FROM garment_owners WHERE slug = ?');
  const upsert = db.prepare(`
    INSERT INTO garment_owners (slug, organization_id, origin, changed_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (slug) DO UPDATE SET organization_id = excluded.organization_id, origin = excluded.origin, changed_at = excluded.changed_at`);
  const insertNew = db.prepare(
    'INSERT INTO garment_owners (slug, organization_id, origin, changed_at) VALUES (?, ?, ?, ?) ON CONFLICT (slug) DO NOTHING',
  );
  const row = (slug: string) => select.get(slug) as OwnerRow | undefined;
  const change = (kind: 'grant' | 'transfer' | 'release', slug: string, organizationId: string | null) =>
    inTransaction(() => {
      if (organizationId !== null && db.prepare('SELECT 1 FROM organizations WHERE id = ?').get(organizationId) === undefined) {
        throw unknownOrganization(organizationId);
      }
      const step = ownershipStep(kind, slug, row(slug), organizationId);
      if ('keep' in step) return toOwner(step.keep);
      upsert.run(slug, step.set.organizationId, step.set.origin satisfies OwnershipOrigin, now());
      return toOwner(row(slug)!);
    });

  return {
    async claimForPublish(slug, organizationId) {
      return inTransaction((): PublishPermission => {
        const permission = publishPermission(row(slug), organizationId);
        if (permission !== 'claim') return permission;
        insertNew.run(slug, organizationId, 'first_publish', now());
        return { allowed: true };
      });
    },

    async noteFound(slugs) {
      const at = now();
      return inTransaction(() => [...new Set(slugs)].filter((slug) => insertNew.run(slug, null, 'found_in_folder', at).changes === 1));
    },

    async ownerOf(slug) {
      const current = row(slug);
      return current === undefined ? undefined : toOwner(current);
    },

    async list({ organizationId, unowned = false } = {}) {
      const where = unowned ? 'WHERE organization_id IS NULL' : organizationId === undefined ? '' : 'WHERE organization_id = ?';
      const statement = db.prepare(`SELECT slug, organization_id, origin, changed_at FROM garment_owners ${where} ORDER BY slug`);
      const rows = (unowned || organizationId === undefined ? statement.all() : statement.all(organizationId)) as unknown as OwnerRow[];
      return rows.map(toOwner);
    },

    grant: async (slug, organizationId) => change('grant', slug, organizationId),
    transfer: async (slug, organizationId) => change('transfer', slug, organizationId),
    release: async (slug) => change('release', slug, null),
  };
}

/** Rebuilds a task table made before issue 25 with today's columns and CHECK, keeping every row (inside the migration's transaction). */
function rebuildTasksBeforeIssue25(db: DatabaseSync): void {
  const columns = (db.prepare('PRAGMA table_info(tasks)').all() as Array<{ name: string }>).map((column) => column.name);
  if (ADDED_TASK_COLUMNS.every((name) => columns.includes(name))) return;
  db.exec(
    'DROP INDEX IF EXISTS tasks_unfinished; DROP INDEX IF EXISTS tasks_event_pending; ALTER TABLE tasks RENAME TO tasks_before_issue_25',
  );
  db.exec(TABLES);
  db.exec(
    `INSERT INTO tasks (${columns.join(', ')}) SELECT ${columns.join(', ')} FROM tasks_before_issue_25; DROP TABLE tasks_before_issue_25`,
  );
}
