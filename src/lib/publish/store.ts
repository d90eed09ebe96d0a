import { GarmentPressError } from '../errors.ts';
import type { GarmentOwners } from './garment-owners.ts';
import type { StageName, Task, TaskStatus, TerminalStatus } from './tasks.ts';

/** How long an Idempotency-Key is remembered: 24 hours, as Stripe does. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Thrown when an admin command names an organization or key that does not exist. */
export class UnknownOrganizationError extends GarmentPressError {}

/** The current time in epoch milliseconds; stores take it injected so tests choose it. */
export type Clock = () => number;

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

/** How many builds this database has run. */
export interface BuildCounts {
  started: number;
  succeeded: number;
  failed: number;
}

/** Organizations, keys, secrets, tasks, builds and garment owners, in parts by what they store; SQLite or PostgreSQL behind it. */
export interface PublishStore extends AccountRecords, TaskRecords, BuildRecords {
  /** Who owns which garment. */
  readonly owners: GarmentOwners;
  close(): Promise<void>;
}

/** Organizations, their API keys (hashes only) and their signing secrets. */
export interface AccountRecords {
  /** Creates an organization; returns it. */
  createOrganization(name: string): Promise<Organization>;
  listOrganizations(): Promise<Organization[]>;
  /** Makes a new API key for an organization; the key is returned once and only its hash is kept. */
  createApiKey(organizationId: string): Promise<{ key: string; visiblePrefix: string }>;
  listApiKeys(organizationId: string): Promise<ApiKeySummary[]>;
  /** Revokes the organization's active key with this visible prefix; returns how many were revoked (0 or 1). */
  revokeApiKey(organizationId: string, visiblePrefix: string): Promise<number>;
  /** The organization a key belongs to, or undefined for an unknown or revoked key. */
  organizationForKey(key: string): Promise<string | undefined>;
  /** The organization's signing secret, created the first time it is asked for. */
  signingSecret(organizationId: string): Promise<string>;
  /** Replaces the signing secret; the old one stops verifying at once. Returns the new one. */
  rotateSigningSecret(organizationId: string): Promise<string>;
}

/** Publish tasks: their stages, what they wrote into the records folder, their outcomes. */
export interface TaskRecords {
  /**
   * Stores a new task, queued, unless its Idempotency-Key was used in the last 24 hours: then the
   * earlier task is returned (same request) or the reuse reported (another request).
   */
  insertTask(task: NewTask): Promise<TaskInsertion>;
  getTask(handle: string): Promise<Task | undefined>;
  /** Moves an unfinished task to a stage; `resourceId` and `buildId` are set when given. Returns false if it had already ended. */
  setStage(handle: string, stage: StageName, fields?: { resourceId?: string; buildId?: number }): Promise<boolean>;
  /** Notes what a task is about to write; the first note wins, so a resumed task keeps the original backup. */
  noteWrite(record: WrittenRecord): Promise<void>;
  /** What the given tasks wrote, latest write first: the order to restore in. */
  writtenRecords(handles: string[]): Promise<WrittenRecord[]>;
  /** Ends an unfinished task; returns false (and changes nothing) if it had already ended. */
  finishTask(handle: string, outcome: TaskOutcome): Promise<boolean>;
  /** Notes that the task's event is in the outbox. */
  markEventEnqueued(handle: string): Promise<void>;
  /** Unfinished tasks, oldest first: what a restart (or a new builder) resumes. */
  unfinishedTasks(): Promise<Task[]>;
  /** Ended tasks with a callback whose event never reached the outbox (a crash in between). */
  tasksAwaitingEvent(): Promise<Task[]>;
  /** Counts tasks by status. */
  taskCounts(): Promise<Record<TaskStatus, number>>;
}

/** Site builds run for tasks, with their output for the operator. */
export interface BuildRecords {
  /** Records a build's start; returns its number. */
  startBuild(taskCount: number): Promise<number>;
  finishBuild(id: number, ok: boolean, output: string): Promise<void>;
  buildCounts(): Promise<BuildCounts>;
}

/** A task row as both adapters select it (TASK_COLUMNS). */
export interface TaskRow {
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

/** The task columns both adapters select, in TaskRow's names. */
export const TASK_COLUMNS =
  'handle, organization_id, tool, status, stage, progress, error, resource_id, page_url, superseded_by, callback_url, record_text, result_json, created_at';

/** An organization row as both adapters select it. */
export interface OrganizationRow {
  id: string;
  name: string;
  signing_secret: string | null;
  created_at: number;
}

/** An API key row as both adapters list it. */
export interface ApiKeyRow {
  id: number;
  organization_id: string;
  visible_prefix: string;
  created_at: number;
  revoked_at: number | null;
}

/**
 * What an Idempotency-Key found earlier means for a new request at `now`: nothing (insert),
 * a replay or a reuse within 24 hours, or an expired key to free before inserting.
 */
export function idempotencyVerdict(
  earlier: (TaskRow & { request_digest: string }) | undefined,
  requestDigest: string,
  now: number,
): TaskInsertion | 'insert' | 'free_then_insert' {
  if (earlier === undefined) return 'insert';
  if (earlier.created_at <= now - IDEMPOTENCY_WINDOW_MS) return 'free_then_insert';
  return earlier.request_digest === requestDigest
    ? { kind: 'replayed', task: toTask(earlier) }
    : { kind: 'key_reused', handle: earlier.handle };
}

export function toOrganization(row: OrganizationRow): Organization {
  return { id: row.id, name: row.name, createdAt: new Date(row.created_at).toISOString(), hasSigningSecret: row.signing_secret !== null };
}

export function toApiKeySummary(row: ApiKeyRow): ApiKeySummary {
  return {
    id: row.id,
    organizationId: row.organization_id,
    visiblePrefix: row.visible_prefix,
    createdAt: new Date(row.created_at).toISOString(),
    revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at).toISOString(),
  };
}

export function toTask(row: TaskRow): Task {
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
