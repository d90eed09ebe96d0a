/** Where a task stands; `complete` and `failed` are terminal. */
export type TaskStatus = 'queued' | 'running' | 'complete' | 'failed';

/** The tool name events carry (spec 2.2 `tool`). */
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
} as const satisfies Record<string, { status: TaskStatus; stage: string; progress: number }>;

/** A stage's key in STAGES. */
export type StageName = keyof typeof STAGES;

/** A publish task as the service keeps it. */
export interface Task {
  handle: string;
  organizationId: string;
  status: TaskStatus;
  stage: string;
  progress: number;
  /** Empty unless failed. */
  error: string;
  /** `<slug>/<projection>` once the record is known to be valid, else ''. */
  resourceId: string;
  /** The page's absolute URL once complete, else ''. */
  pageUrl: string;
  callbackUrl: string | null;
  /** The record as it will be written: pretty-printed JSON. */
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
}

/** True at `complete` and `failed`. */
export function isTerminal(status: TaskStatus): boolean {
  return status === 'complete' || status === 'failed';
}

/** Returns the get_generation projection of a task; `error` is '' unless it failed. */
export function projectTask(task: Omit<Task, 'recordText' | 'resultJson' | 'callbackUrl' | 'organizationId' | 'createdAt'>): GenerationProjection {
  return {
    handle: task.handle,
    resource_id: task.resourceId,
    status: task.status,
    done: isTerminal(task.status),
    progress: task.progress,
    stage: task.stage,
    page_url: task.pageUrl,
    error: task.status === 'failed' ? task.error : '',
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
