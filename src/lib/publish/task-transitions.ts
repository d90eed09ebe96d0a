import { randomBytes } from 'node:crypto';
import { counted } from '../counted.ts';
import { errorMessage } from '../errors.ts';
import { checkRecordBytes, formatProblem, type GarmentRecord, type Problem } from '../record/index.ts';
import type { Outbox } from '../webhooks/index.ts';
import type { Coordination } from './coordination.ts';
import type { TaskWatchers } from './long-poll.ts';
import type { PublishStore } from './store.ts';
import {
  type GenerationProjection,
  PUBLISH_EVENTS,
  projectTask,
  type RecordProblem,
  STAGES,
  type StageName,
  type Task,
  type TerminalStatus,
} from './tasks.ts';

/** How a task ends. */
export interface Ending {
  error?: string;
  problems?: RecordProblem[];
  resourceId: string;
  pageUrl?: string;
  supersededBy?: string;
}

/** What checking a submitted record found: the record, or every error in it. */
type SubmittedRecordCheck = { record: GarmentRecord } | { problems: Problem[] };

/** Checks a submitted record alone (UTF-8, JSON, schema, its own references): the one place a publish's record is judged. */
export function checkSubmittedRecord(recordText: string): SubmittedRecordCheck {
  const { record, problems } = checkRecordBytes('record', Buffer.from(recordText, 'utf8'));
  const errors = problems.filter((problem) => problem.severity === 'error');
  return record !== undefined && errors.length === 0 ? { record } : { problems: errors };
}

/** How a task whose record does not validate ends: every problem, as lines of text and as a list. */
export function refusedRecordEnding(problems: Problem[]): Ending {
  return {
    error: problems.map(formatProblem).join('\n'),
    problems: problems.map(({ pointer, message }) => ({ pointer, message })),
    resourceId: '',
  };
}

/** The get_generation projection a task ends with: its result, fixed from then on. */
export function endedProjection(handle: string, status: TerminalStatus, ending: Ending): GenerationProjection {
  const { stage, progress } = STAGES[status];
  return projectTask({
    handle,
    status,
    stage,
    progress,
    error: ending.error ?? '',
    resourceId: ending.resourceId,
    pageUrl: ending.pageUrl ?? '',
    supersededBy: ending.supersededBy ?? null,
    problems: ending.problems ?? [],
  });
}

/** Work the publisher waits for on stopping; a failure is logged, never thrown (the task resumes at the next start). */
export interface WorkTracker {
  track(promise: Promise<void>): void;
  settled(): Promise<void>;
}

/** Returns a tracker of task work whose failures go to `log`. */
export function createWorkTracker(log: (line: string) => void): WorkTracker {
  const work = new Set<Promise<void>>();
  return {
    track(promise) {
      // A store that cannot write (a full disk) must not end the process: the task resumes at the next start.
      const settled = promise.catch((error: unknown) => log(`task work stopped (resumed at the next start): ${errorMessage(error)}`));
      work.add(settled);
      void settled.finally(() => work.delete(settled));
    },
    async settled() {
      await Promise.all([...work]);
    },
  };
}

/** What moving and ending tasks works with. */
export interface TaskTransitionsOptions {
  store: PublishStore;
  coordination: Coordination;
  outbox: Pick<Outbox, 'enqueue'>;
  /** Woken when a task moves to another stage or ends on this instance. */
  stageWatchers: TaskWatchers;
  work: WorkTracker;
  log: (line: string) => void;
}

/** Moving a task through its stages and ending it: stored, announced to every instance, its event handed to the outbox. */
export interface TaskTransitions {
  moveTo(handle: string, stage: StageName, fields?: { resourceId?: string; buildId?: number }): Promise<void>;
  end(handle: string, status: TerminalStatus, ending: Ending): Promise<void>;
  /** Queues a finished task's event; tracked, so stopping waits for it to be stored. */
  handOverEvent(task: Task): void;
  /** Logs what went wrong for the operator under a new incident id; returns the caller's text, which names no path. */
  incident(what: string, details: string): string;
}

/** Returns the task transitions over the given store and coordination. */
export function createTaskTransitions({ store, coordination, outbox, stageWatchers, work, log }: TaskTransitionsOptions): TaskTransitions {
  const queueEvent = async (task: Task) => {
    if (task.callbackUrl === null || task.resultJson === null) return;
    try {
      const { created } = await outbox.enqueue({
        event: task.status === 'complete' ? PUBLISH_EVENTS.complete : PUBLISH_EVENTS.failed,
        handle: task.handle,
        tool: task.tool,
        organizationId: task.organizationId,
        dataJson: task.resultJson,
        callbackUrl: task.callbackUrl,
      });
      await store.markEventEnqueued(task.handle);
      if (created) log(`task ${task.handle}: event queued for delivery`);
    } catch (error) {
      log(`task ${task.handle}: could not queue its event (retried at the next start): ${errorMessage(error)}`);
    }
  };
  const handOverEvent = (task: Task) => work.track(queueEvent(task));

  return {
    handOverEvent,

    async moveTo(handle, stage, fields) {
      if (!(await store.setStage(handle, stage, fields))) return;
      log(`task ${handle} ${STAGES[stage].status}: ${STAGES[stage].stage}`);
      stageWatchers.notify(handle);
      // Progress followers on other instances (MCP progress notifications) read the new stage.
      await coordination
        .announceTaskStage(handle)
        .catch((error: unknown) => log(`task ${handle}: could not announce its stage: ${errorMessage(error)}`));
    },

    async end(handle, status, ending) {
      const task = await store.getTask(handle);
      if (task === undefined) return;
      const outcome = {
        status,
        error: ending.error ?? '',
        resourceId: ending.resourceId,
        pageUrl: ending.pageUrl ?? '',
        supersededBy: ending.supersededBy ?? null,
      };
      const resultJson = JSON.stringify(endedProjection(handle, status, ending));
      if (!(await store.finishTask(handle, { ...outcome, resultJson }))) return;
      log(`task ${handle} ${status}${status === 'complete' ? `: ${outcome.pageUrl}` : `: ${firstLine(outcome.error)}`}`);
      stageWatchers.notify(handle);
      await coordination
        .announceTaskEnded(handle)
        .catch((error: unknown) => log(`task ${handle}: could not announce its end: ${errorMessage(error)}`));
      handOverEvent((await store.getTask(handle))!);
    },

    incident(what, details) {
      const id = `inc_${randomBytes(6).toString('hex')}`;
      log(`incident ${id}: ${details}`);
      return `${what}; this is not a problem in your record (incident ${id}, in the service's log). Publish again later, or quote the incident id to the operator.`;
    },
  };
}

function firstLine(text: string): string {
  const [first = '', ...rest] = text.split('\n');
  return rest.length > 0 ? `${first} (+${counted(rest.length, 'more line')})` : first;
}
