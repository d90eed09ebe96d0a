import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { recordFileName } from '../record/index.ts';
import { decodeJsonBytes, parseJson } from '../record/parse.ts';
import { checkCallbackUrl, type CallbackUrlPolicy } from '../webhooks/index.ts';
import type { Publisher } from './publisher.ts';
import type { PublishStore } from './store.ts';
import type { Task } from './tasks.ts';

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

/** Why a submission was refused, as an HTTP status, a stable code and a message for people. */
export interface SubmissionRefusal {
  ok: false;
  status: 400 | 403 | 409 | 422;
  code: string;
  message: string;
}

/** A task made (or, for a repeated Idempotency-Key and request, the one made before), or a refusal. */
export type SubmissionResult = { ok: true; task: Task; replayed: boolean } | SubmissionRefusal;

/** Where publish tasks are made. */
export interface PublishIntake {
  /**
   * Makes a publish task: checks the callback URL, the organization's right to the garment and
   * the Idempotency-Key, stores the task and starts it. The one way a task is created.
   */
  submitPublish(submission: PublishSubmission): Promise<SubmissionResult>;
}

/** What the intake needs. */
export interface IntakeOptions {
  store: PublishStore;
  publisher: Pick<Publisher, 'start'>;
  recordsDir: string;
  callbackPolicy?: CallbackUrlPolicy;
  /** Log lines (refusals of ownership, for the operator). */
  log?: (line: string) => void;
}

const CALLBACK_URL_MAX_LENGTH = 2048;
const MAX_NESTING = 256;
/** An Idempotency-Key: 1 to 255 visible ASCII characters (Stripe allows 255). */
const IDEMPOTENCY_KEY = /^[\x21-\x7E]{1,255}$/;

/** Returns the intake; `submitPublish` is what POST /api/publish and the MCP tool call. */
export function createPublishIntake(options: IntakeOptions): PublishIntake {
  const { store, publisher, recordsDir, callbackPolicy = {}, log = () => {} } = options;

  return {
    async submitPublish({ organizationId, record, callbackUrl, idempotencyKey, tool }) {
      let recordText: string;
      if (typeof record === 'string') {
        recordText = record.replace(/^\uFEFF/, '');
      } else {
        const decoded = decodeJsonBytes(record);
        if (!decoded.ok) return refuse(400, 'invalid_record', `the record is not UTF-8 text: line ${decoded.error.line}, column ${decoded.error.column}: ${decoded.error.message}`);
        recordText = decoded.text;
      }
      // Checking a record recurses through it; no record comes near this depth.
      if (nestingDepth(recordText) > MAX_NESTING) return refuse(400, 'invalid_request', '"record" is nested too deeply to be a record');
      if (idempotencyKey !== null && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
        return refuse(400, 'invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID is a good choice)');
      }
      if (callbackUrl !== null) {
        if (callbackUrl.length > CALLBACK_URL_MAX_LENGTH) return refuse(422, 'callback_url_refused', `callback_url refused: longer than ${CALLBACK_URL_MAX_LENGTH} characters`);
        const check = await checkCallbackUrl(callbackUrl, callbackPolicy);
        if (!check.allowed) return refuse(422, 'callback_url_refused', `callback_url refused: ${check.reason}`);
      }

      // Nothing below waits, so no other request comes between the ownership check and the task.
      const slug = slugOf(recordText);
      if (slug !== undefined) {
        const owners = store.owners;
        // A garment whose file was dropped in the folder after the service started is nobody's, not the first publisher's.
        if (owners.ownerOf(slug) === undefined && ['svc', 'tech'].some((projection) => existsSync(path.join(recordsDir, recordFileName(slug, projection))))) {
          owners.noteFound([slug]);
        }
        const current = owners.ownerOf(slug);
        if (current !== undefined && current.organizationId !== organizationId) {
          log(`publish refused: organization ${organizationId} may not publish garment ${slug} (${current.organizationId === null ? 'no owner' : 'owned by another organization'})`);
          return current.organizationId === null
            ? refuse(403, 'garment_unowned', `garment ${slug} was in the records folder before it was published through the service and has no owner yet; ask the operator to grant it to your organization (npm run admin -- garment grant --slug ${slug} --org ${organizationId})`)
            : refuse(403, 'garment_owned_by_another', `garment ${slug} belongs to another organization; only its owner can publish it, and an operator can transfer it`);
        }
      }
      const requestDigest = createHash('sha256').update(JSON.stringify([tool, callbackUrl, recordText])).digest('hex');
      const handle = randomUUID();
      const inserted = store.insertTask({
        handle,
        organizationId,
        tool,
        callbackUrl,
        recordText,
        ...(idempotencyKey === null ? {} : { idempotency: { key: idempotencyKey, requestDigest } }),
      });
      if (inserted.kind === 'key_reused') {
        return refuse(409, 'idempotency_key_reused', `Idempotency-Key ${JSON.stringify(idempotencyKey)} was used in the last 24 hours for another request (handle ${inserted.handle}); use a new key for a new request`);
      }
      if (inserted.kind === 'replayed') return { ok: true, task: inserted.task, replayed: true };
      if (slug !== undefined) store.owners.claimForPublish(slug, organizationId);
      log(`task ${handle} queued for organization ${organizationId} through ${tool}${callbackUrl === null ? '' : ' with a callback'}`);
      publisher.start(handle);
      return { ok: true, task: inserted.task, replayed: false };
    },
  };
}

/** The record's slug when it has a usable one; a record without one fails its validation, which writes nothing. */
function slugOf(recordText: string): string | undefined {
  const parsed = parseJson(recordText);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return undefined;
  const slug = (parsed.value as { slug?: unknown }).slug;
  return typeof slug === 'string' && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug) && slug.length <= 245 ? slug : undefined;
}

/** How deep arrays and objects nest in JSON text, brackets inside strings aside. @example nestingDepth('{"a": [1, "]"]}') → 2 */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (char === '{' || char === '[') {
      deepest = Math.max(deepest, ++depth);
    } else if (char === '}' || char === ']') {
      depth -= 1;
    }
  }
  return deepest;
}

function refuse(status: SubmissionRefusal['status'], code: string, message: string): SubmissionRefusal {
  return { ok: false, status, code, message };
}
