/**
 * Where a task stands. `complete`, `failed` and `superseded` are terminal; `superseded` is a
 * failure status (spec 2.3): a later publish of the same garment went into the same build, so this
 * task's content never went live.
 */
export type TaskStatus = 'queued' | 'running' | 'complete' | 'failed' | 'superseded';

/** The tool name events carry (spec 2.2 `tool`) for publishes through the HTTP API. */
export const PUBLISH_TOOL = 'garments.publish';

/** Event names: `<category>.completed` and `<category>.failed` with category `publish`. */
export const PUBLISH_EVENTS = { complete: 'publish.completed', failed: 'publish.failed' } as const;

/** The stages a task passes through, each with its label and progress. */
export const STAGES = {
  queued: { status: 'queued', stage: 'queued', progress: 0 },
  validating: { status: 'running', stage: 'validating', progress: 0.1 },
  waiting: { status: 'running', stage: 'waiting for build', progress: 0.2 },
  writing: { status: 'running', stage: 'writing record', progress: 0.3 },
  building: { status: 'running', stage: 'building site', progress: 0.5 },
  complete: { status: 'complete', stage: 'complete', progress: 1 },
  failed: { status: 'failed', stage: 'failed', progress: 1 },
  superseded: { status: 'superseded', stage: 'superseded', progress: 1 },
} as const satisfies Record<string, { status: TaskStatus; stage: string; progress: number }>;

/** A stage's key in STAGES. */
export type StageName = keyof typeof STAGES;

/** A terminal status. */
export type TerminalStatus = 'complete' | 'failed' | 'superseded';

/** One thing wrong with the caller's record: where (a JSON pointer into it, '' for the whole) and what. */
export interface RecordProblem {
  pointer: string;
  message: string;
}

/** A publish task as the service keeps it. */
export interface Task {
  handle: string;
  organizationId: string;
  /** The tool the task was created through (the event's `tool`). */
  tool: string;
  status: TaskStatus;
  stage: string;
  progress: number;
  /** Empty unless failed or superseded. */
  error: string;
  /** `<slug>/<projection>` once the record is known to be valid, else ''. */
  resourceId: string;
  /** The page's absolute URL once complete, else ''. */
  pageUrl: string;
  /** The task whose record of the same garment went live instead of this one's; null unless superseded. */
  supersededBy: string | null;
  callbackUrl: string | null;
  /** The record's text exactly as the client sent it. */
  recordText: string;
  /** The get_generation text fixed at the terminal state; null until then. */
  resultJson: string | null;
  createdAt: number;
}

/** The get_generation projection (spec 4.2), in wire order and naming. */
export interface GenerationProjection {
  handle: string;
  resource_id: string;
  status: TaskStatus;
  done: boolean;
  progress: number;
  stage: string;
  page_url: string;
  error: string;
  /** Every problem found in the caller's record; empty unless the record was refused. */
  problems: RecordProblem[];
  /** The handle whose publish of the same garment went live instead; null unless superseded. */
  superseded_by: string | null;
}

/** True at `complete`, `failed` and `superseded`. */
export function isTerminal(status: TaskStatus): status is TerminalStatus {
  return status === 'complete' || status === 'failed' || status === 'superseded';
}

/** What projectTask reads of a task. */
export type ProjectedTask = Pick<Task, 'handle' | 'resourceId' | 'status' | 'progress' | 'stage' | 'pageUrl' | 'error' | 'supersededBy'> & {
  problems?: RecordProblem[];
};

/** Returns the get_generation projection of a task; `error` is '' while it has not failed. */
export function projectTask(task: ProjectedTask): GenerationProjection {
  return {
    handle: task.handle,
    resource_id: task.resourceId,
    status: task.status,
    done: isTerminal(task.status),
    progress: task.progress,
    stage: task.stage,
    page_url: task.pageUrl,
    error: task.status === 'failed' || task.status === 'superseded' ? task.error : '',
    problems: task.problems ?? [],
    superseded_by: task.supersededBy,
  };
}

/**
 * Returns the text get_generation serves for a task: the stored text once terminal (so the
 * webhook's `data` is the same bytes), else the projection of its current state.
 */
export function generationText(task: Task): string {
  return task.resultJson ?? JSON.stringify(projectTask(task));
}

/** The resource id of a record. @example resourceIdOf('tee', 'svc') → 'tee/svc' */
export function resourceIdOf(slug: string, projection: string): string {
  return `${slug}/${projection}`;
}
