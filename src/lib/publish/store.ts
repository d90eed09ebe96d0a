import { openDurableDatabase } from '../sqlite-database.ts';
import { randomBytes } from 'node:crypto';
import { GarmentPressError } from '../errors.ts';
import { createApiKey, createSigningSecret, hashApiKey } from './keys.ts';
import { STAGES, type StageName, type Task, type TaskStatus } from './tasks.ts';

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
  status: 'complete' | 'failed';
  error: string;
  resourceId: string;
  pageUrl: string;
  resultJson: string;
}

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
    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'complete', 'failed')),
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
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX IF NOT EXISTS tasks_unfinished ON tasks (created_at) WHERE status IN ('queued', 'running');
  CREATE INDEX IF NOT EXISTS tasks_event_pending ON tasks (created_at) WHERE event_enqueued = 0 AND callback_url IS NOT NULL AND result_json IS NOT NULL;
  CREATE TABLE IF NOT EXISTS builds (
    id INTEGER PRIMARY KEY,
    task_count INTEGER NOT NULL,
    started_at INTEGER NOT NULL,
    finished_at INTEGER,
    ok INTEGER,
    output TEXT
  ) STRICT;
`;

const TASK_COLUMNS = 'handle, organization_id, status, stage, progress, error, resource_id, page_url, callback_url, record_text, result_json, created_at';

/** Organizations, keys, secrets, tasks and builds in one SQLite database. */
export interface PublishStore {
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

  /** Stores a new task, queued. */
  insertTask(task: { handle: string; organizationId: string; callbackUrl: string | null; recordText: string }): Task;
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

  /** Records a build's start; returns its number. */
  startBuild(taskCount: number): number;
  finishBuild(id: number, ok: boolean, output: string): void;
  buildCounts(): BuildCounts;
  close(): void;
}

/** Opens (creating if needed) the service database at `path`: WAL, full sync, foreign keys. */
export function openPublishStore(path: string): PublishStore {
  const { db, inTransaction } = openDurableDatabase(path, SCHEMA);

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
      const rows = db.prepare('SELECT id, name, signing_secret, created_at FROM organizations ORDER BY created_at, id').all() as unknown as OrganizationRow[];
      return rows.map(toOrganization);
    },

    createApiKey(organizationId) {
      mustGetOrganization(organizationId);
      const made = createApiKey();
      db.prepare('INSERT INTO api_keys (organization_id, visible_prefix, key_hash, created_at) VALUES (?, ?, ?, ?)')
        .run(organizationId, made.visiblePrefix, made.hash, Date.now());
      return { key: made.key, visiblePrefix: made.visiblePrefix };
    },

    listApiKeys(organizationId) {
      mustGetOrganization(organizationId);
      const rows = db.prepare('SELECT id, organization_id, visible_prefix, created_at, revoked_at FROM api_keys WHERE organization_id = ? ORDER BY id')
        .all(organizationId) as unknown as Array<{ id: number; organization_id: string; visible_prefix: string; created_at: number; revoked_at: number | null }>;
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
      const { changes } = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE organization_id = ? AND visible_prefix = ? AND revoked_at IS NULL')
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

    insertTask({ handle, organizationId, callbackUrl, recordText }) {
      const now = Date.now();
      const { status, stage, progress } = STAGES.queued;
      db.prepare(`
        INSERT INTO tasks (handle, organization_id, status, stage, progress, callback_url, record_text, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(handle, organizationId, status, stage, progress, callbackUrl, recordText, now, now);
      return toTask(selectTask.get(handle) as unknown as TaskRow);
    },

    getTask(handle) {
      const row = selectTask.get(handle) as TaskRow | undefined;
      return row === undefined ? undefined : toTask(row);
    },

    setStage(handle, stageName, fields = {}) {
      const { status, stage, progress } = STAGES[stageName];
      const { changes } = db.prepare(`
        UPDATE tasks SET status = :status, stage = :stage, progress = :progress,
          resource_id = COALESCE(:resourceId, resource_id), build_id = COALESCE(:buildId, build_id), updated_at = :now
        WHERE handle = :handle AND status IN ('queued', 'running')`,
      ).run({ status, stage, progress, resourceId: fields.resourceId ?? null, buildId: fields.buildId ?? null, now: Date.now(), handle });
      return changes === 1;
    },

    noteWrite({ handle, file, replacedText }) {
      inTransaction(() => {
        const order = (db.prepare('SELECT COALESCE(MAX(write_order), 0) + 1 AS next FROM tasks').get() as { next: number }).next;
        db.prepare(`
          UPDATE tasks SET record_file = ?, replaced_text = ?, written_at = ?, write_order = ?
          WHERE handle = ? AND written_at IS NULL`,
        ).run(file, replacedText, Date.now(), order, handle);
      });
    },

    writtenRecords(handles) {
      if (handles.length === 0) return [];
      const rows = db.prepare(`
        SELECT handle, record_file, replaced_text FROM tasks
        WHERE written_at IS NOT NULL AND handle IN (${handles.map(() => '?').join(', ')})
        ORDER BY write_order DESC`,
      ).all(...handles) as unknown as Array<{ handle: string; record_file: string; replaced_text: string | null }>;
      return rows.map((row) => ({ handle: row.handle, file: row.record_file, replacedText: row.replaced_text }));
    },

    finishTask(handle, outcome) {
      const { stage, progress } = STAGES[outcome.status];
      const { changes } = db.prepare(`
        UPDATE tasks SET status = :status, stage = :stage, progress = :progress, error = :error,
          resource_id = :resourceId, page_url = :pageUrl, result_json = :resultJson, updated_at = :now
        WHERE handle = :handle AND status IN ('queued', 'running')`,
      ).run({ ...outcome, stage, progress, now: Date.now(), handle });
      return changes === 1;
    },

    markEventEnqueued(handle) {
      db.prepare('UPDATE tasks SET event_enqueued = 1 WHERE handle = ?').run(handle);
    },

    unfinishedTasks() {
      const rows = db.prepare(`SELECT ${TASK_COLUMNS} FROM tasks WHERE status IN ('queued', 'running') ORDER BY created_at, handle`).all() as unknown as TaskRow[];
      return rows.map(toTask);
    },

    tasksAwaitingEvent() {
      const rows = db.prepare(`
        SELECT ${TASK_COLUMNS} FROM tasks
        WHERE event_enqueued = 0 AND callback_url IS NOT NULL AND result_json IS NOT NULL ORDER BY created_at`,
      ).all() as unknown as TaskRow[];
      return rows.map(toTask);
    },

    taskCounts() {
      const counts: Record<TaskStatus, number> = { queued: 0, running: 0, complete: 0, failed: 0 };
      const rows = db.prepare('SELECT status, COUNT(*) AS n FROM tasks GROUP BY status').all() as unknown as Array<{ status: TaskStatus; n: number }>;
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
      const row = db.prepare('SELECT COUNT(*) AS started, COALESCE(SUM(ok = 1), 0) AS succeeded, COALESCE(SUM(ok = 0), 0) AS failed FROM builds')
        .get() as unknown as BuildCounts;
      return { started: row.started, succeeded: row.succeeded, failed: row.failed };
    },

    close() {
      db.close();
    },
  };
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
    status: row.status,
    stage: row.stage,
    progress: row.progress,
    error: row.error,
    resourceId: row.resource_id,
    pageUrl: row.page_url,
    callbackUrl: row.callback_url,
    recordText: row.record_text,
    resultJson: row.result_json,
    createdAt: row.created_at,
  };
}
