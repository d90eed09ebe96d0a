// How a publish task is made, for every front (POST /api/publish, the MCP tool garments.publish),
// so that ownership, Idempotency-Key and the callback URL rules are one path.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DISK_FULL_ANSWER, isDiskFull } from '../disk-space.ts';
import { recordFileName } from '../record/index.ts';
import { nestingDepth } from '../json-members.ts';
import { PROJECTIONS } from '../record/projections.ts';
import { isSlug } from '../record/slug.ts';
import { decodeJsonBytes } from '../record/parse.ts';
import { formatDuration } from '../site/format.ts';
import { checkCallbackUrl, type CallbackUrlPolicy } from '../webhooks/index.ts';
import type { Publisher } from './publisher.ts';
import { IDEMPOTENCY_WINDOW_MS, type PublishStore } from './store.ts';
import { generationText, isTerminal, type Task } from './tasks.ts';

/** One request to publish a record, from any front (the HTTP API, the MCP tool). */
export interface PublishSubmission {
  organizationId: string;
  /** The record's JSON text (or its UTF-8 bytes) exactly as the client sent it: it is published byte for byte. */
  record: string | Uint8Array;
  callbackUrl: string | null;
  /** The client's Idempotency-Key, if it sent one. */
  idempotencyKey: string | null;
  /** The tool name the event carries: `garments.publish`. */
  tool: string;
}

/** Why a request was refused before any task: the HTTP status, an error code and a message for people. */
export interface Refusal {
  status: 400 | 403 | 404 | 409 | 422 | 507;
  code: string;
  message: string;
}

/**
 * A task made (or, for a repeated Idempotency-Key and request, the one made before: `replayed`)
 * with its handle and where to poll it, or a refusal.
 */
export type PublishOutcome =
  | {
      ok: true;
      task: Task;
      handle: string;
      statusUrl: string;
      replayed: boolean;
      /** Why the callback's delivery may fail, when its host did not resolve as the task was made (it is looked up again at each delivery). */
      callbackUrlWarning?: string;
    }
  | { ok: false; refusal: Refusal };

/** A generation's projection text (what get_generation answers), or why not. */
export type GenerationOutcome = { ok: true; text: string } | { ok: false; refusal: Refusal };

/** Where a task stands, as a follower is told at each change. */
export type TaskStage = Pick<Task, 'status' | 'stage' | 'progress'>;

/** A get_generation request: whose, which handle, how long to wait, and who hears each stage. */
export interface GenerationRequest {
  organizationId: string;
  handle: string;
  waitMs: number;
  signal?: AbortSignal;
  /** Told the stage the task is at, then each change until it ends or the wait is over. */
  onStage?: (stage: TaskStage) => Promise<void> | void;
}

/** What making a publish task works with. */
export interface SubmissionContext {
  store: PublishStore;
  publisher: Pick<Publisher, 'start' | 'waitUntilDone' | 'waitForStageChange'>;
  /** The records folder: a garment whose file is there but has no owner is nobody's. */
  recordsDir: string;
  /** Which callback URLs are accepted; loopback only in tests. */
  callbackPolicy: CallbackUrlPolicy;
  /** The operator's log (tasks queued, ownership refusals). */
  log?: (line: string) => void;
  /** Why no publish can be taken now for want of disk space (disk-space.ts), or undefined when there is room. */
  spaceProblem?: () => string | undefined;
}

/** What an accepted publish's callback_url_warning means, for the API's and the tools' descriptions. */
export const CALLBACK_URL_WARNING =
  "Only when the callback URL's host did not resolve as the task was made: the task is accepted and each delivery looks the host up again, so check the address for a typo.";

const CALLBACK_URL_MAX_LENGTH = 2048;
const MAX_NESTING = 256;
/** An Idempotency-Key: 1 to 255 visible ASCII characters (Stripe allows 255). */
const IDEMPOTENCY_KEY = /^[\x21-\x7E]{1,255}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Where a generation is polled over HTTP. @example statusUrlOf('6f1c…') → '/api/generations/6f1c…' */
export function statusUrlOf(handle: string): string {
  return `/api/generations/${handle}`;
}

/**
 * Makes a publish task, the one way one is made: checks the record's nesting, the Idempotency-Key,
 * the callback URL and the organization's right to the garment, stores the task (or finds the one
 * an identical earlier request made) and starts it. The record itself is judged in the task.
 */
export async function submitPublish(context: SubmissionContext, submission: PublishSubmission): Promise<PublishOutcome> {
  const { store, publisher, recordsDir, callbackPolicy, log = () => {} } = context;
  const { organizationId, record, callbackUrl, idempotencyKey, tool } = submission;
  let recordText: string;
  if (typeof record === 'string') {
    recordText = record.replace(/^\uFEFF/, '');
  } else {
    const decoded = decodeJsonBytes(record);
    if (!decoded.ok)
      return refuse(
        400,
        'invalid_record',
        `the record is not UTF-8 text: line ${decoded.error.line}, column ${decoded.error.column}: ${decoded.error.message}`,
      );
    recordText = decoded.text;
  }
  // Checking a record recurses through it; no record comes near this depth.
  if (nestingDepth(Buffer.from(recordText)) > MAX_NESTING)
    return refuse(400, 'invalid_request', '"record" is nested too deeply to be a record');
  if (idempotencyKey !== null && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
    return refuse(400, 'invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID is a good choice)');
  }
  let callbackUrlWarning: string | undefined;
  if (callbackUrl !== null) {
    if (callbackUrl.length > CALLBACK_URL_MAX_LENGTH)
      return refuse(422, 'callback_url_refused', `callback_url refused: longer than ${CALLBACK_URL_MAX_LENGTH} characters`);
    const check = await checkCallbackUrl(callbackUrl, callbackPolicy);
    if (!check.allowed) return refuse(422, 'callback_url_refused', `callback_url refused: ${check.reason}`);
    if (check.unresolved !== undefined)
      callbackUrlWarning = `${check.unresolved} now; each delivery looks it up again, so check the address for a typo`;
  }

  // Another request may come between this check and the task; the builder checks the owner again before writing.
  const slug = slugOf(recordText);
  if (slug !== undefined) {
    const owners = store.owners;
    // A garment whose file was dropped in the folder after the service started is nobody's, not the first publisher's.
    if (
      (await owners.ownerOf(slug)) === undefined &&
      PROJECTIONS.some((projection) => existsSync(path.join(recordsDir, recordFileName(slug, projection))))
    ) {
      await owners.noteFound([slug]);
    }
    const current = await owners.ownerOf(slug);
    if (current !== undefined && current.organizationId !== organizationId) {
      log(
        `publish refused: organization ${organizationId} may not publish garment ${slug} (${current.organizationId === null ? 'no owner' : 'owned by another organization'})`,
      );
      return current.organizationId === null
        ? refuse(
            403,
            'garment_unowned',
            `garment ${slug} was in the records folder before it was published through the service and has no owner yet; ask the operator to grant it to your organization (npm run admin -- garment grant --slug ${slug} --org ${organizationId})`,
          )
        : refuse(
            403,
            'garment_owned_by_another',
            `garment ${slug} belongs to another organization; only its owner can publish it, and an operator can transfer it`,
          );
    }
  }
  const noSpace = context.spaceProblem?.();
  if (noSpace !== undefined) return refuse(507, 'insufficient_storage', noSpace);
  const requestDigest = createHash('sha256')
    .update(JSON.stringify([tool, callbackUrl, recordText]))
    .digest('hex');
  const handle = randomUUID();
  let inserted: Awaited<ReturnType<PublishStore['insertTask']>>;
  try {
    inserted = await store.insertTask({
      handle,
      organizationId,
      tool,
      callbackUrl,
      recordText,
      ...(idempotencyKey === null ? {} : { idempotency: { key: idempotencyKey, requestDigest } }),
    });
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    log(`publish refused: the disk is full: ${(error as Error).message}`);
    return refuse(507, 'insufficient_storage', DISK_FULL_ANSWER);
  }
  if (inserted.kind === 'key_reused') {
    return refuse(
      409,
      'idempotency_key_reused',
      `Idempotency-Key ${JSON.stringify(idempotencyKey)} was used in the last ${formatDuration(IDEMPOTENCY_WINDOW_MS)} for another request (handle ${inserted.handle}); use a new key for a new request`,
    );
  }
  if (inserted.kind === 'replayed') return accepted(inserted.task, true, callbackUrlWarning);
  if (slug !== undefined) await store.owners.claimForPublish(slug, organizationId);
  log(`task ${handle} queued for organization ${organizationId} through ${tool}${callbackUrl === null ? '' : ' with a callback'}`);
  publisher.start(handle);
  return accepted(inserted.task, false, callbackUrlWarning);
}

/**
 * The get_generation text of an organization's task, after waiting up to `waitMs` for it to end
 * (less when `signal` aborts). Another organization's handle gets the very answer an unknown one
 * gets: existence is not leaked.
 */
export async function readGeneration(context: SubmissionContext, request: GenerationRequest): Promise<GenerationOutcome> {
  const { store, publisher } = context;
  // A UUID's hex digits are case-insensitive on input (RFC 9562); handles are issued in lower case.
  const handle = request.handle.toLowerCase();
  const task = UUID.test(handle) ? await store.getTask(handle) : undefined;
  if (task === undefined || task.organizationId !== request.organizationId) {
    return refuse(404, 'not_found', `no generation with handle ${JSON.stringify(request.handle.slice(0, 64))} for this organization`);
  }
  if (request.onStage !== undefined) await followStages(context, handle, request.waitMs, request.onStage, request.signal);
  else if (!isTerminal(task.status) && request.waitMs > 0) await publisher.waitUntilDone(handle, request.waitMs, request.signal);
  return { ok: true, text: generationText((await store.getTask(handle))!) };
}

/** Tells `onStage` the task's stage, then each change, until it ends, `waitMs` passes or `signal` aborts. */
async function followStages(
  { store, publisher }: SubmissionContext,
  handle: string,
  waitMs: number,
  onStage: NonNullable<GenerationRequest['onStage']>,
  signal: AbortSignal | undefined,
): Promise<void> {
  const deadline = Date.now() + waitMs;
  let told: string | undefined;
  for (;;) {
    // Waiting starts before the read, so a change announced while the store answers is not missed.
    const read = new AbortController();
    const changed = publisher.waitForStageChange(
      handle,
      deadline - Date.now(),
      signal === undefined ? read.signal : AbortSignal.any([signal, read.signal]),
    );
    const { status, stage, progress } = (await store.getTask(handle))!;
    if (`${status}/${stage}` !== told) {
      read.abort();
      told = `${status}/${stage}`;
      await onStage({ status, stage, progress });
      // Read again: the task may have moved on while the caller was told.
      continue;
    }
    if (isTerminal(status) || deadline <= Date.now() || signal?.aborted) {
      read.abort();
      return;
    }
    await changed;
  }
}

function accepted(task: Task, replayed: boolean, callbackUrlWarning: string | undefined): PublishOutcome {
  return {
    ok: true,
    task,
    handle: task.handle,
    statusUrl: statusUrlOf(task.handle),
    replayed,
    ...(callbackUrlWarning === undefined ? {} : { callbackUrlWarning }),
  };
}

/**
 * The record's slug when it has a usable one; a record without one fails its validation, which writes nothing.
 * V8's parser, a few times faster than the record's strict one: the record is judged strictly in its task.
 */
function slugOf(recordText: string): string | undefined {
  let record: unknown;
  try {
    record = JSON.parse(recordText);
  } catch {
    return undefined;
  }
  const slug = typeof record === 'object' && record !== null ? (record as { slug?: unknown }).slug : undefined;
  return isSlug(slug) ? slug : undefined;
}

function refuse(status: Refusal['status'], code: string, message: string): { ok: false; refusal: Refusal } {
  return { ok: false, refusal: { status, code, message } };
}
