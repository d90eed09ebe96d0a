// What POST /api/publish and GET /api/generations/<handle> do once the caller is known, shared by
// the HTTP API and the MCP tools (garments.publish, garments.get_generation), so both take one path.
import { checkCallbackUrl, type CallbackUrlPolicy } from '../webhooks/index.ts';
import type { Publisher } from './publisher.ts';
import type { PublishStore } from './store.ts';
import { generationText, isTerminal } from './tasks.ts';

/** What publishing and polling work with. */
export interface SubmissionContext {
  store: PublishStore;
  publisher: Pick<Publisher, 'submit' | 'waitUntilDone'>;
  /** Which callback URLs are accepted; loopback only in tests. */
  callbackPolicy: CallbackUrlPolicy;
}

/** Why a request was refused before any task: the HTTP status, an error code and a message for people. */
export interface Refusal {
  status: number;
  code: string;
  message: string;
}

/** A publish accepted (its task's handle and where to poll it), or refused. */
export type PublishOutcome = { ok: true; handle: string; statusUrl: string } | { ok: false; refusal: Refusal };

/** A generation's projection text (what get_generation answers), or why not. */
export type GenerationOutcome = { ok: true; text: string } | { ok: false; refusal: Refusal };

const CALLBACK_URL_MAX_LENGTH = 2048;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Where a generation is polled over HTTP. @example statusUrlOf('6f1c…') → '/api/generations/6f1c…' */
export function statusUrlOf(handle: string): string {
  return `/api/generations/${handle}`;
}

/**
 * Checks the callback URL and starts a publish task for the record text (the validator judges it
 * in the task); the task's events carry the tool name `garments.publish`.
 */
export async function submitPublish(context: SubmissionContext, request: { organizationId: string; recordText: string; callbackUrl: string | null }): Promise<PublishOutcome> {
  const { organizationId, recordText, callbackUrl } = request;
  if (callbackUrl !== null) {
    if (callbackUrl.length > CALLBACK_URL_MAX_LENGTH) return refuse(422, 'callback_url_refused', `callback_url refused: longer than ${CALLBACK_URL_MAX_LENGTH} characters`);
    const check = await checkCallbackUrl(callbackUrl, context.callbackPolicy);
    if (!check.allowed) return refuse(422, 'callback_url_refused', `callback_url refused: ${check.reason}`);
  }
  const task = context.publisher.submit({ organizationId, recordText, callbackUrl });
  return { ok: true, handle: task.handle, statusUrl: statusUrlOf(task.handle) };
}

/**
 * The get_generation text of an organization's task, after waiting up to `waitMs` for it to end
 * (less when `signal` aborts). Another organization's handle gets the very answer an unknown one
 * gets: existence is not leaked.
 */
export async function readGeneration(context: SubmissionContext, request: { organizationId: string; handle: string; waitMs: number; signal?: AbortSignal }): Promise<GenerationOutcome> {
  const { store, publisher } = context;
  // A UUID's hex digits are case-insensitive on input (RFC 9562); handles are issued in lower case.
  const handle = request.handle.toLowerCase();
  const task = UUID.test(handle) ? store.getTask(handle) : undefined;
  if (task === undefined || task.organizationId !== request.organizationId) {
    return refuse(404, 'not_found', `no generation with handle ${JSON.stringify(request.handle.slice(0, 64))} for this organization`);
  }
  if (!isTerminal(task.status) && request.waitMs > 0) await publisher.waitUntilDone(handle, request.waitMs, request.signal);
  return { ok: true, text: generationText(store.getTask(handle)!) };
}

/**
 * The record as a task stores and writes it when it came as a JSON value: indented JSON; null for
 * a value nested too deeply to serialise (no record is).
 */
export function recordFileText(record: object): string | null {
  try {
    return `${JSON.stringify(record, null, 2)}\n`;
  } catch {
    // JSON.stringify recurses: a value nested thousands deep overflows the stack.
    return null;
  }
}

function refuse(status: number, code: string, message: string): { ok: false; refusal: Refusal } {
  return { ok: false, refusal: { status, code, message } };
}
