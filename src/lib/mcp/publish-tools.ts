// The tools that need an API key: garments.publish and garments.get_generation, on the same task
// path as POST /api/publish and GET /api/generations/<handle> (submission.ts).
import { checkRecordBytes } from '../record/index.ts';
import { LONG_POLL_CAP_SECONDS } from '../publish/long-poll.ts';
import { readGeneration, recordFileText, submitPublish, type Refusal, type SubmissionContext } from '../publish/submission.ts';
import { PUBLISH_EVENTS, PUBLISH_TOOL } from '../publish/tasks.ts';
import { toolError, type Tool, type ToolDefinition, type ToolOutcome } from './tool-call.ts';

/** What the publishing tools work with. */
export interface PublishToolsContext extends SubmissionContext {
  /** Longest wait of a get_generation call, in seconds; 50 (spec section 8) but in tests. */
  longPollCapSeconds: number;
}

/** The name of the polling tool (spec 4.2: `<domain>.get_generation`). */
export const GET_GENERATION_TOOL = 'garments.get_generation';

const handleText = { type: 'string', description: 'The handle garments.publish returned (a UUID).' };

const PUBLISH: ToolDefinition = {
  name: PUBLISH_TOOL,
  title: 'Publish a garment record',
  description: [
    'Publishes a garment research record (schema garment-access/2.4.0) to the site: it is checked at once (an invalid record is an error listing every problem with its JSON pointer, and nothing is published),',
    'then a task writes it and rebuilds the site, and the call returns at once with the task\'s handle.',
    `Follow the task with ${GET_GENERATION_TOOL} (it can wait up to ${LONG_POLL_CAP_SECONDS} s for the end), or pass callback_url: an https address that gets one signed POST`,
    `(event ${PUBLISH_EVENTS.complete} or ${PUBLISH_EVENTS.failed}, tool "${PUBLISH_TOOL}") whose data is exactly what ${GET_GENERATION_TOOL} returns.`,
    'A record sent as JSON text is published byte for byte (only its links are filled in); sent as an object, it is written as indented JSON.',
  ].join(' '),
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['record'],
    properties: {
      record: { type: ['object', 'string'], description: 'The record: a JSON object, or its JSON text.' },
      callback_url: { type: 'string', description: 'Optional: a public https address to POST the signed completion event to.' },
    },
  },
  outputSchema: {
    type: 'object',
    required: ['handle', 'status_url'],
    properties: {
      handle: { type: 'string', description: `The task's handle: pass it to ${GET_GENERATION_TOOL}.` },
      status_url: { type: 'string', description: 'Where the same task is polled over the HTTP API.' },
    },
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  access: 'key',
};

const publishTool = (context: PublishToolsContext): Tool => ({
  ...PUBLISH,
  async run(args, call) {
    const recordText = typeof args.record === 'string' ? args.record : recordFileText(args.record as object);
    if (recordText === null) return toolError('invalid_record', 'the record is nested too deeply to be a record; nothing was published', [{ pointer: '/record', message: 'nested too deeply' }]);
    const checked = checkRecordBytes('record', Buffer.from(recordText, 'utf8'));
    const errors = checked.problems.filter((problem) => problem.severity === 'error');
    if (errors.length > 0) {
      return toolError(
        'invalid_record',
        `the record is not valid (${errors.length === 1 ? '1 problem' : `${errors.length} problems`}); nothing was published`,
        errors.map((problem) => ({ pointer: `/record${problem.pointer}`, message: problem.message })),
      );
    }
    const outcome = await submitPublish(context, { organizationId: call.organizationId!, recordText, callbackUrl: (args.callback_url as string | undefined) ?? null });
    if (!outcome.ok) return refused(outcome.refusal);
    return { ok: true, result: { handle: outcome.handle, status_url: outcome.statusUrl } };
  },
});

const GET_GENERATION: ToolDefinition = {
  name: GET_GENERATION_TOOL,
  title: 'Follow a publish task',
  description: [
    `Returns where a task garments.publish started stands: status (queued, running, complete, failed), done, progress, stage, and at the end page_url or error.`,
    `With wait_seconds (at most ${LONG_POLL_CAP_SECONDS}) it answers as soon as the task ends, or when the wait is over: call again until done is true.`,
    'The JSON text is byte for byte the data field of the completion event and what GET /api/generations/<handle> answers.',
  ].join(' '),
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['handle'],
    properties: {
      handle: { ...handleText, maxLength: 64 },
      wait_seconds: { type: 'number', minimum: 0, maximum: LONG_POLL_CAP_SECONDS, default: 0, description: `Seconds to wait for the task to end, 0 to ${LONG_POLL_CAP_SECONDS}.` },
    },
  },
  outputSchema: {
    type: 'object',
    required: ['handle', 'resource_id', 'status', 'done', 'progress', 'stage', 'page_url', 'error'],
    properties: {
      handle: handleText,
      resource_id: { type: 'string', description: '<slug>/<projection> once the record is known to be valid, else "".' },
      status: { type: 'string', description: 'queued, running, complete or failed.' },
      done: { type: 'boolean', description: 'True at complete and failed.' },
      progress: { type: 'number', description: 'From 0 to 1.' },
      stage: { type: 'string', description: 'What the task is doing.' },
      page_url: { type: 'string', description: 'The record\'s page once complete, else "".' },
      error: { type: 'string', description: 'Why the task failed, else "".' },
    },
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  access: 'key',
};

const getGenerationTool = (context: PublishToolsContext): Tool => ({
  ...GET_GENERATION,
  async run(args, call) {
    const waitSeconds = Math.min((args.wait_seconds as number | undefined) ?? 0, context.longPollCapSeconds);
    const outcome = await readGeneration(context, { organizationId: call.organizationId!, handle: args.handle as string, waitMs: Math.round(waitSeconds * 1000), signal: call.signal });
    if (!outcome.ok) return refused(outcome.refusal, '/handle');
    return { ok: true, result: JSON.parse(outcome.text) as Record<string, unknown>, text: outcome.text };
  },
});

/** What tools/list shows of the tools that need an API key. */
export const PUBLISH_TOOL_DEFINITIONS: ToolDefinition[] = [PUBLISH, GET_GENERATION];

/** The tools that need an API key. */
export function publishTools(context: PublishToolsContext): Tool[] {
  return [publishTool(context), getGenerationTool(context)];
}

/** A refusal of the shared publish path as a tool error; a refused callback URL points at its argument. */
function refused(refusal: Refusal, pointer = ''): ToolOutcome {
  const at = refusal.code === 'callback_url_refused' ? '/callback_url' : pointer;
  return toolError(refusal.code, refusal.message, [{ pointer: at, message: refusal.message }]);
}
