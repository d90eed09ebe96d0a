import { openDurableDatabase, type DurableDatabase } from '../sqlite-database.ts';
import { randomBytes } from 'node:crypto';
import { GarmentPressError } from '../errors.ts';
import { createApiKey, createSigningSecret, hashApiKey } from './keys.ts';
import { openGarmentOwners, type GarmentOwners } from './garment-owners.ts';
import { PUBLISH_TOOL, STAGES, type StageName, type Task, type TaskStatus, type TerminalStatus } from './tasks.ts';

/** How long an Idempotency-Key is remembered: 24 hours, as Stripe does. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Thrown when an admin command names an organization or key that does not exist. */
export class UnknownOrganizationError extends GarmentPressError {}

/** An organization: the owner of keys, tasks and one signing secret. */
export interface Organization {
  id: string;
  name: string;
  createdAt: string;
  /** Whether its signing secret has been created yet. */
  hasSigningSecret: boolean;
}

/** An API key as listed: never the key itself, only its visible prefix. */
export interface ApiKeySummary {
  id: number;
  organizationId: string;
  visiblePrefix: string;
  createdAt: string;
  revokedAt: string | null;
}

/** The terminal fields of a task, with the projection text served from then on. */
export interface TaskOutcome {
  status: TerminalStatus;
  error: string;
  resourceId: string;
  pageUrl: string;
  supersededBy: string | null;
  resultJson: string;
}

/** A new task, with the Idempotency-Key it came with (and a digest of its request) if any. */
export interface NewTask {
  handle: string;
  organizationId: string;
  tool: string;
  callbackUrl: string | null;
  recordText: string;
  idempotency?: { key: string; requestDigest: string };
}

/**
 * What inserting a task did: stored it, found the task an earlier request with the same
 * Idempotency-Key and request made (within 24 h), or found that key used for another request.
 */
export type TaskInsertion = { kind: 'created'; task: Task } | { kind: 'replayed'; task: Task } | { kind: 'key_reused'; handle: string };

/** What a task wrote into the records folder, so a failed build can put it back. */
export interface WrittenRecord {
  handle: string;
  /** The file written, as a path. */
  file: string;
  /** The file's text before the task wrote it; null when it did not exist. */
  replacedText: string | null;
}

/** How many builds this data folder has run. */
export interface BuildCounts {
  started: number;
  succeeded: number;
  failed: number;
}

interface TaskRow {
  handle: string;
  organization_id: string;
  status: TaskStatus;
  stage: string;
  progress: number;
  error: string;
  resource_id: string;
  page_url: string;
  callback_url: string | null;
  record_text: string;
  result_json: string | null;
  created_at: number;
  tool: string;
  superseded_by: string | null;
}

const SCHEMA = `
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
`;

const INDEXES = `
  CREATE INDEX IF NOT EXISTS tasks_unfinished ON tasks (created_at) WHERE status IN ('queued', 'running');
  CREATE INDEX IF NOT EXISTS tasks_event_pending ON tasks (created_at) WHERE event_enqueued = 0 AND callback_url IS NOT NULL AND result_json IS NOT NULL;
  CREATE UNIQUE INDEX IF NOT EXISTS tasks_idempotency ON tasks (organization_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
`;

/** Columns a task table made before issue 25 lacks; such a table is rebuilt (SQLite cannot change a CHECK in place). */
const ADDED_TASK_COLUMNS = ['tool', 'superseded_by', 'idempotency_key', 'request_digest'];

const TASK_COLUMNS =
  'handle, organization_id, tool, status, stage, progress, error, resource_id, page_url, superseded_by, callback_url, record_text, result_json, created_at';

/** Organizations, keys, secrets, tasks, builds and garment owners in one SQLite database, in parts by what they store. */
export interface PublishStore extends AccountRecords, TaskRecords, BuildRecords {
  /** Who owns which garment. */
  readonly owners: GarmentOwners;
  close(): void;
}

/** Organizations, their API keys (hashes only) and their signing secrets. */
export interface AccountRecords {
  /** Creates an organization; returns it. */
  createOrganization(name: string): Organization;
  listOrganizations(): Organization[];
  /** Makes a new API key for an organization; the key is returned once and only its hash is kept. */
  createApiKey(organizationId: string): { key: string; visiblePrefix: string };
  listApiKeys(organizationId: string): ApiKeySummary[];
  /** Revokes the organization's active key with this visible prefix; returns how many were revoked (0 or 1). */
  revokeApiKey(organizationId: string, visiblePrefix: string): number;
  /** The organization a key belongs to, or undefined for an unknown or revoked key. */
  organizationForKey(key: string): string | undefined;
  /** The organization's signing secret, created the first time it is asked for. */
  signingSecret(organizationId: string): string;
  /** Replaces the signing secret; the old one stops verifying at once. Returns the new one. */
  rotateSigningSecret(organizationId: string): string;
}

/** Publish tasks: their stages, what they wrote into the records folder, their outcomes. */
export interface TaskRecords {
  /**
   * Stores a new task, queued, unless its Idempotency-Key was used in the last 24 hours: then the
   * earlier task is returned (same request) or the reuse reported (another request).
   */
  insertTask(task: NewTask, now?: number): TaskInsertion;
  getTask(handle: string): Task | undefined;
  /** Moves an unfinished task to a stage; `resourceId` and `buildId` are set when given. Returns false if it had already ended. */
  setStage(handle: string, stage: StageName, fields?: { resourceId?: string; buildId?: number }): boolean;
  /** Notes what a task is about to write; the first note wins, so a resumed task keeps the original backup. */
  noteWrite(record: WrittenRecord): void;
  /** What the given tasks wrote, latest write first: the order to restore in. */
  writtenRecords(handles: string[]): WrittenRecord[];
  /** Ends an unfinished task; returns false (and changes nothing) if it had already ended. */
  finishTask(handle: string, outcome: TaskOutcome): boolean;
  /** Notes that the task's event is in the outbox. */
  markEventEnqueued(handle: string): void;
  /** Unfinished tasks, oldest first: what a restart resumes. */
  unfinishedTasks(): Task[];
  /** Ended tasks with a callback whose event never reached the outbox (a crash in between). */
  tasksAwaitingEvent(): Task[];
  /** Counts tasks by status. */
  taskCounts(): Record<TaskStatus, number>;
}

/** Site builds run for tasks, with their output for the operator. */
export interface BuildRecords {
  /** Records a build's start; returns its number. */
  startBuild(taskCount: number): number;
  finishBuild(id: number, ok: boolean, output: string): void;
  buildCounts(): BuildCounts;
}

/** Opens (creating if needed) the service database at `path`: WAL, full sync, foreign keys. */
export function openPublishStore(path: string): PublishStore {
  const database = openDurableDatabase(path, SCHEMA);
  const { db, inTransaction } = database;
  migrateTasks(database);
  db.exec(INDEXES);
  const owners = openGarmentOwners(database);

  const selectOrganization = db.prepare('SELECT id, name, signing_secret, created_at FROM organizations WHERE id = ?');
  const selectTask = db.prepare(`SELECT ${TASK_COLUMNS} FROM tasks WHERE handle = ?`);
  const mustGetOrganization = (id: string) => {
    const row = selectOrganization.get(id) as OrganizationRow | undefined;
    if (row === undefined) throw new UnknownOrganizationError(`no organization with id ${id}`);
    return row;
  };

  return {
    createOrganization(name) {
      const id = `org_${randomBytes(12).toString('hex')}`;
      const now = Date.now();
      db.prepare('INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)').run(id, name, now);
      return toOrganization(mustGetOrganization(id));
    },

    listOrganizations() {
      const rows = db
        .prepare('SELECT id, name, signing_secret, created_at FROM organizations ORDER BY created_at, id')
        .all() as unknown as OrganizationRow[];
      return rows.map(toOrganization);
    },

    createApiKey(organizationId) {
      mustGetOrganization(organizationId);
      const made = createApiKey();
      db.prepare('INSERT INTO api_keys (organization_id, visible_prefix, key_hash, created_at) VALUES (?, ?, ?, ?)').run(
        organizationId,
        made.visiblePrefix,
        made.hash,
        Date.now(),
      );
      return { key: made.key, visiblePrefix: made.visiblePrefix };
    },

    listApiKeys(organizationId) {
      mustGetOrganization(organizationId);
      const rows = db
        .prepare('SELECT id, organization_id, visible_prefix, created_at, revoked_at FROM api_keys WHERE organization_id = ? ORDER BY id')
        .all(organizationId) as unknown as Array<{
        id: number;
        organization_id: string;
        visible_prefix: string;
        created_at: number;
        revoked_at: number | null;
      }>;
      return rows.map((row) => ({
        id: row.id,
        organizationId: row.organization_id,
        visiblePrefix: row.visible_prefix,
        createdAt: new Date(row.created_at).toISOString(),
        revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at).toISOString(),
      }));
    },

    revokeApiKey(organizationId, visiblePrefix) {
      mustGetOrganization(organizationId);
      const { changes } = db
        .prepare('UPDATE api_keys SET revoked_at = ? WHERE organization_id = ? AND visible_prefix = ? AND revoked_at IS NULL')
        .run(Date.now(), organizationId, visiblePrefix);
      return Number(changes);
    },

    organizationForKey(key) {
      const row = db.prepare('SELECT organization_id FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL').get(hashApiKey(key)) as
        | { organization_id: string }
        | undefined;
      return row?.organization_id;
    },

    signingSecret(organizationId) {
      return inTransaction(() => {
        const row = mustGetOrganization(organizationId);
        if (row.signing_secret !== null) return row.signing_secret;
        const secret = createSigningSecret();
        db.prepare('UPDATE organizations SET signing_secret = ? WHERE id = ?').run(secret, organizationId);
        return secret;
      });
    },

    rotateSigningSecret(organizationId) {
      return inTransaction(() => {
        mustGetOrganization(organizationId);
        const secret = createSigningSecret();
        db.prepare('UPDATE organizations SET signing_secret = ? WHERE id = ?').run(secret, organizationId);
        return secret;
      });
    },

    insertTask({ handle, organizationId, tool, callbackUrl, recordText, idempotency }, now = Date.now()) {
      return inTransaction((): TaskInsertion => {
        if (idempotency !== undefined) {
          const earlier = db
            .prepare(`SELECT ${TASK_COLUMNS}, request_digest FROM tasks WHERE organization_id = ? AND idempotency_key = ?`)
            .get(organizationId, idempotency.key) as (TaskRow & { request_digest: string }) | undefined;
          if (earlier !== undefined && earlier.created_at > now - IDEMPOTENCY_WINDOW_MS) {
            return earlier.request_digest === idempotency.requestDigest
              ? { kind: 'replayed', task: toTask(earlier) }
              : { kind: 'key_reused', handle: earlier.handle };
          }
          // Past its 24 hours the key is free again.
          if (earlier !== undefined) db.prepare('UPDATE tasks SET idempotency_key = NULL WHERE handle = ?').run(earlier.handle);
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
          now,
          now,
        );
        return { kind: 'created', task: toTask(selectTask.get(handle) as unknown as TaskRow) };
      });
    },

    getTask(handle) {
      const row = selectTask.get(handle) as TaskRow | undefined;
      return row === undefined ? undefined : toTask(row);
    },

    setStage(handle, stageName, fields = {}) {
      const { status, stage, progress } = STAGES[stageName];
      const { changes } = db
        .prepare(`
        UPDATE tasks SET status = :status, stage = :stage, progress = :progress,
          resource_id = COALESCE(:resourceId, resource_id), build_id = COALESCE(:buildId, build_id), updated_at = :now
        WHERE handle = :handle AND status IN ('queued', 'running')`)
        .run({ status, stage, progress, resourceId: fields.resourceId ?? null, buildId: fields.buildId ?? null, now: Date.now(), handle });
      return changes === 1;
    },

    noteWrite({ handle, file, replacedText }) {
      inTransaction(() => {
        const order = (db.prepare('SELECT COALESCE(MAX(write_order), 0) + 1 AS next FROM tasks').get() as { next: number }).next;
        db.prepare(`
          UPDATE tasks SET record_file = ?, replaced_text = ?, written_at = ?, write_order = ?
          WHERE handle = ? AND written_at IS NULL`).run(file, replacedText, Date.now(), order, handle);
      });
    },

    writtenRecords(handles) {
      if (handles.length === 0) return [];
      const rows = db
        .prepare(`
        SELECT handle, record_file, replaced_text FROM tasks
        WHERE written_at IS NOT NULL AND handle IN (${handles.map(() => '?').join(', ')})
        ORDER BY write_order DESC`)
        .all(...handles) as unknown as Array<{ handle: string; record_file: string; replaced_text: string | null }>;
      return rows.map((row) => ({ handle: row.handle, file: row.record_file, replacedText: row.replaced_text }));
    },

    finishTask(handle, outcome) {
      const { stage, progress } = STAGES[outcome.status];
      const { changes } = db
        .prepare(`
        UPDATE tasks SET status = :status, stage = :stage, progress = :progress, error = :error,
          resource_id = :resourceId, page_url = :pageUrl, superseded_by = :supersededBy, result_json = :resultJson, updated_at = :now
        WHERE handle = :handle AND status IN ('queued', 'running')`)
        .run({ ...outcome, stage, progress, now: Date.now(), handle });
      return changes === 1;
    },

    markEventEnqueued(handle) {
      db.prepare('UPDATE tasks SET event_enqueued = 1 WHERE handle = ?').run(handle);
    },

    unfinishedTasks() {
      const rows = db
        .prepare(`SELECT ${TASK_COLUMNS} FROM tasks WHERE status IN ('queued', 'running') ORDER BY created_at, handle`)
        .all() as unknown as TaskRow[];
      return rows.map(toTask);
    },

    tasksAwaitingEvent() {
      const rows = db
        .prepare(`
        SELECT ${TASK_COLUMNS} FROM tasks
        WHERE event_enqueued = 0 AND callback_url IS NOT NULL AND result_json IS NOT NULL ORDER BY created_at`)
        .all() as unknown as TaskRow[];
      return rows.map(toTask);
    },

    taskCounts() {
      const counts: Record<TaskStatus, number> = { queued: 0, running: 0, complete: 0, failed: 0, superseded: 0 };
      const rows = db.prepare('SELECT status, COUNT(*) AS n FROM tasks GROUP BY status').all() as unknown as Array<{
        status: TaskStatus;
        n: number;
      }>;
      for (const row of rows) counts[row.status] = row.n;
      return counts;
    },

    startBuild(taskCount) {
      const { lastInsertRowid } = db.prepare('INSERT INTO builds (task_count, started_at) VALUES (?, ?)').run(taskCount, Date.now());
      return Number(lastInsertRowid);
    },

    finishBuild(id, ok, output) {
      db.prepare('UPDATE builds SET finished_at = ?, ok = ?, output = ? WHERE id = ?').run(Date.now(), ok ? 1 : 0, output, id);
    },

    buildCounts() {
      const row = db
        .prepare('SELECT COUNT(*) AS started, COALESCE(SUM(ok = 1), 0) AS succeeded, COALESCE(SUM(ok = 0), 0) AS failed FROM builds')
        .get() as unknown as BuildCounts;
      return { started: row.started, succeeded: row.succeeded, failed: row.failed };
    },

    owners,

    close() {
      db.close();
    },
  };
}

/** Rebuilds a task table made before issue 25 with today's columns and CHECK, keeping every row. */
function migrateTasks({ db, inTransaction }: DurableDatabase): void {
  const columns = (db.prepare('PRAGMA table_info(tasks)').all() as Array<{ name: string }>).map((column) => column.name);
  if (ADDED_TASK_COLUMNS.every((name) => columns.includes(name))) return;
  inTransaction(() => {
    db.exec(
      'DROP INDEX IF EXISTS tasks_unfinished; DROP INDEX IF EXISTS tasks_event_pending; ALTER TABLE tasks RENAME TO tasks_before_issue_25',
    );
    db.exec(SCHEMA);
    db.exec(
      `INSERT INTO tasks (${columns.join(', ')}) SELECT ${columns.join(', ')} FROM tasks_before_issue_25; DROP TABLE tasks_before_issue_25`,
    );
  });
}

interface OrganizationRow {
  id: string;
  name: string;
  signing_secret: string | null;
  created_at: number;
}

function toOrganization(row: OrganizationRow): Organization {
  return { id: row.id, name: row.name, createdAt: new Date(row.created_at).toISOString(), hasSigningSecret: row.signing_secret !== null };
}

function toTask(row: TaskRow): Task {
  return {
    handle: row.handle,
    organizationId: row.organization_id,
    tool: row.tool,
    status: row.status,
    stage: row.stage,
    progress: row.progress,
    error: row.error,
    resourceId: row.resource_id,
    pageUrl: row.page_url,
    supersededBy: row.superseded_by,
    callbackUrl: row.callback_url,
    recordText: row.record_text,
    resultJson: row.result_json,
    createdAt: row.created_at,
  };
}
