// The tools that need an API key: garments.publish and garments.get_generation, on the same task
// path as POST /api/publish and GET /api/generations/<handle> (submission.ts).
import { checkRecordBytes } from '../record/index.ts';
import { PUBLISH_TOOL, readGeneration, submitPublish, type Refusal, type SubmissionContext, type TaskStage } from '../publish/index.ts';
import { toolError, type Tool, type ToolCallContext, type ToolOutcome } from './tool-call.ts';
import { GET_GENERATION, PUBLISH } from './tool-definitions.ts';

/** What the publishing tools work with. */
export interface PublishToolsContext extends SubmissionContext {
  /** Longest wait of a get_generation call, in seconds; 50 (spec section 8) but in tests. */
  longPollCapSeconds: number;
}

const publishTool = (context: PublishToolsContext): Tool => ({
  ...PUBLISH,
  async run(args, call) {
    const recordText = typeof args.record === 'string' ? args.record : recordFileText(args.record as object);
    if (recordText === null)
      return toolError('invalid_record', 'the record is nested too deeply to be a record; nothing was published', [
        { pointer: '/record', message: 'nested too deeply' },
      ]);
    const checked = checkRecordBytes('record', Buffer.from(recordText, 'utf8'));
    const errors = checked.problems.filter((problem) => problem.severity === 'error');
    if (errors.length > 0) {
      return toolError(
        'invalid_record',
        `the record is not valid (${errors.length === 1 ? '1 problem' : `${errors.length} problems`}); nothing was published`,
        errors.map((problem) => ({ pointer: `/record${problem.pointer}`, message: problem.message })),
      );
    }
    const outcome = await submitPublish(context, {
      organizationId: call.organizationId!,
      record: recordText,
      callbackUrl: (args.callback_url as string | undefined) ?? null,
      idempotencyKey: (args.idempotency_key as string | undefined) ?? null,
      tool: PUBLISH_TOOL,
    });
    if (!outcome.ok) return refused(outcome.refusal);
    const accepted = {
      handle: outcome.handle,
      status_url: outcome.statusUrl,
      replayed: outcome.replayed,
      ...(outcome.callbackUrlWarning === undefined ? {} : { callback_url_warning: outcome.callbackUrlWarning }),
    };
    if (args.wait_seconds === undefined) return { ok: true, result: accepted };
    const generation = await followGeneration(context, outcome.handle, args.wait_seconds as number, call);
    return generation.ok ? { ok: true, result: { ...accepted, generation: generation.result } } : generation;
  },
});

const getGenerationTool = (context: PublishToolsContext): Tool => ({
  ...GET_GENERATION,
  run: (args, call) => followGeneration(context, args.handle as string, (args.wait_seconds as number | undefined) ?? 0, call),
});

/**
 * Where a task stands after waiting up to `waitSeconds` for its end; a caller that sent a
 * progressToken hears the stage it is at and each change.
 */
async function followGeneration(
  context: PublishToolsContext,
  handle: string,
  waitSeconds: number,
  call: ToolCallContext,
): Promise<ToolOutcome> {
  const { reportProgress } = call;
  const outcome = await readGeneration(context, {
    organizationId: call.organizationId!,
    handle,
    waitMs: Math.round(Math.min(waitSeconds, context.longPollCapSeconds) * 1000),
    signal: call.signal,
    ...(reportProgress === undefined
      ? {}
      : { onStage: ({ status, stage, progress }: TaskStage) => reportProgress({ progress, total: 1, message: `${status}: ${stage}` }) }),
  });
  if (!outcome.ok) return refused(outcome.refusal, '/handle');
  return { ok: true, result: JSON.parse(outcome.text) as Record<string, unknown>, text: outcome.text };
}

/**
 * The text a record given as a JSON value is stored and published as: indented JSON; null for a
 * value nested too deeply to serialise (no record is).
 */
function recordFileText(record: object): string | null {
  try {
    return `${JSON.stringify(record, null, 2)}\n`;
  } catch {
    // JSON.stringify recurses: a value nested thousands deep overflows the stack.
    return null;
  }
}

/** The tools that need an API key. */
export function publishTools(context: PublishToolsContext): Tool[] {
  return [publishTool(context), getGenerationTool(context)];
}

/** The argument each refusal of the shared publish path is about. */
const REFUSED_ARGUMENT: Record<string, string> = {
  callback_url_refused: '/callback_url',
  invalid_idempotency_key: '/idempotency_key',
  idempotency_key_reused: '/idempotency_key',
  garment_unowned: '/record/slug',
  garment_owned_by_another: '/record/slug',
};

/** A refusal of the shared publish path as a tool error, pointing at the argument it is about. */
function refused(refusal: Refusal, pointer = ''): ToolOutcome {
  const at = REFUSED_ARGUMENT[refusal.code] ?? pointer;
  return toolError(refusal.code, refusal.message, [{ pointer: at, message: refusal.message }]);
}
