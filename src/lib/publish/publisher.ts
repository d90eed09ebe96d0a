import type { Outbox } from '../webhooks/index.ts';
import { type BatchContext, type BrokenRecordFile, runBatch } from './build-batch.ts';
import { createCoalescingQueue } from './build-queue.ts';
import type { Coordination, LeaseFence } from './coordination.ts';
import { createTaskWatchers } from './long-poll.ts';
import type { SiteBuildOutcome } from './site-build-process.ts';
import type { PublishStore } from './store.ts';
import {
  checkSubmittedRecord,
  createTaskTransitions,
  createWorkTracker,
  refusedRecordEnding,
  type TaskTransitions,
  type WorkTracker,
} from './task-transitions.ts';
import { isTerminal, resourceIdOf } from './tasks.ts';
import { counted } from '../counted.ts';
import { errorMessage, errorReport } from '../errors.ts';

export type { BrokenRecordFile } from './build-batch.ts';

/** What the publisher works with. */
export interface PublisherOptions {
  store: PublishStore;
  /** How this instance hears of the others: ended and waiting tasks, the build lease. */
  coordination: Coordination;
  /** Where completion events go; only `enqueue` is used. */
  outbox: Pick<Outbox, 'enqueue'>;
  /** The records folder the site is built from. */
  recordsDir: string;
  /** The site's absolute address, for `page_url`. */
  site: string;
  /** Rebuilds the whole site from the records folder, swapping it in only under `lease` when given; must not reject. Aborted on shutdown. */
  buildSite: (signal: AbortSignal, lease: LeaseFence | undefined) => Promise<SiteBuildOutcome>;
  /** How long an idle publisher gathers tasks before building; default 150 ms. */
  gatherMs?: number;
  /** One line per task transition and build; the operator's log, where incidents are explained. */
  log?: (line: string) => void;
}

/** Runs publish tasks: validate, write the record, rebuild (shared), end, hand the event over. */
export interface Publisher {
  /** Starts a stored task. */
  start(handle: string): void;
  /** Listens to the other instances; on taking the build lease, picks up what others left: unfinished tasks, and ended tasks whose event never reached the outbox. */
  resume(): void;
  /** Resolves when the task ends, `waitMs` passes, or `signal` aborts. */
  waitUntilDone(handle: string, waitMs: number, signal?: AbortSignal): Promise<void>;
  /** Resolves when the task moves to another stage or ends, `waitMs` passes, or `signal` aborts. */
  waitForStageChange(handle: string, waitMs: number, signal?: AbortSignal): Promise<void>;
  /** Builds started by this process. */
  readonly buildsStarted: number;
  /** Broken record files that builds of this process found and set aside, oldest first. */
  readonly brokenRecordFiles: readonly BrokenRecordFile[];
  /**
   * Stops: wakes waiting requests, starts no new build, lets a running build finish within
   * `graceMs` (else stops it; its tasks resume on the next start) and waits for task work to settle.
   */
  stop(options?: { graceMs?: number }): Promise<void>;
}

/** Returns a publisher; nothing runs until `start` or `resume`. */
export function createPublisher(options: PublisherOptions): Publisher {
  const { store, coordination, outbox, gatherMs = 150, log = () => {} } = options;
  const watchers = createTaskWatchers();
  const stageWatchers = createTaskWatchers();
  const work = createWorkTracker(log);
  const transitions = createTaskTransitions({ store, coordination, outbox, stageWatchers, work, log });
  // Aborted on shutdown, and when the build lease is lost (the next builder resumes the tasks).
  let abortBuild = new AbortController();
  let stopping = false;
  let buildsStarted = 0;
  const batch: BatchContext = {
    store,
    coordination,
    transitions,
    recordsDir: options.recordsDir,
    site: options.site,
    buildSite: options.buildSite,
    buildSignal: () => abortBuild.signal,
    onBuildStarted: () => {
      buildsStarted += 1;
    },
    brokenRecordFiles: [],
    log,
  };
  const queue = createCoalescingQueue<string>({ run: (handles) => runBatch(batch, handles), gatherMs });
  const tasks: TaskWork = { store, coordination, transitions, work, log, stopping: () => stopping };

  return {
    start(handle) {
      work.track(runTask(tasks, handle));
    },

    resume() {
      coordination.listen({
        taskEnded: (handle) => {
          watchers.notify(handle);
          stageWatchers.notify(handle);
        },
        taskStageChanged: (handle) => stageWatchers.notify(handle),
        taskWaiting: (handle) => {
          if (!stopping) work.track(gather(tasks, handle, queue.submit(handle)));
        },
        leaseChanged: (held) => {
          if (held) work.track(resumeAsBuilder(tasks));
          else {
            abortBuild.abort();
            abortBuild = new AbortController();
          }
        },
      });
    },

    async waitUntilDone(handle, waitMs, signal) {
      const waiting = watchers.wait(handle, waitMs, signal);
      // It may have ended on another instance between the caller's read and the wait.
      const task = await store.getTask(handle);
      if (task === undefined || isTerminal(task.status)) watchers.notify(handle);
      await waiting;
    },
    waitForStageChange: (handle, waitMs, signal) => stageWatchers.wait(handle, waitMs, signal),

    get buildsStarted() {
      return buildsStarted;
    },

    get brokenRecordFiles() {
      return batch.brokenRecordFiles;
    },

    async stop({ graceMs = 30_000 } = {}) {
      stopping = true;
      watchers.releaseAll();
      stageWatchers.releaseAll();
      const closing = queue.close();
      const timer = setTimeout(() => abortBuild.abort(), graceMs);
      await closing;
      clearTimeout(timer);
      await work.settled();
    },
  };
}

/** What running a single task works with. */
interface TaskWork {
  store: PublishStore;
  coordination: Coordination;
  transitions: TaskTransitions;
  work: WorkTracker;
  log: (line: string) => void;
  stopping: () => boolean;
}

/** Waits for a task's batch; a batch that throws fails the task with an incident. */
async function gather({ transitions }: TaskWork, handle: string, built: Promise<unknown>): Promise<void> {
  try {
    await built;
  } catch (error) {
    await transitions.end(handle, 'failed', {
      error: transitions.incident('publishing failed inside the service', `task ${handle}: build batch failed: ${errorMessage(error)}`),
      resourceId: '',
    });
  }
}

/** On taking the lease: hand over events a crash left, then run every unfinished task, whoever took it. */
async function resumeAsBuilder(tasks: TaskWork): Promise<void> {
  const { store, transitions, work, log } = tasks;
  for (const task of await store.tasksAwaitingEvent()) transitions.handOverEvent(task);
  const unfinished = await store.unfinishedTasks();
  if (unfinished.length > 0) log(`resuming ${counted(unfinished.length, 'unfinished task')}`);
  for (const task of unfinished) work.track(runTask(tasks, task.handle));
}

/** Validates a task's record and, if it is valid, hands it to the builder, wherever that runs. */
async function runTask({ store, coordination, transitions, stopping }: TaskWork, handle: string): Promise<void> {
  // Let the caller answer 202 before validation takes the event loop.
  await new Promise<void>((resolve) => setImmediate(resolve));
  const task = await store.getTask(handle);
  if (task === undefined || task.resultJson !== null || stopping()) return;
  try {
    await transitions.moveTo(handle, 'validating');
    const checked = checkSubmittedRecord(task.recordText);
    if ('problems' in checked) {
      await transitions.end(handle, 'failed', refusedRecordEnding(checked.problems));
      return;
    }
    await transitions.moveTo(handle, 'waiting', { resourceId: resourceIdOf(checked.record.slug, checked.record.projection) });
    // The builder gathers it: this instance if it holds the lease, else whichever does (or will).
    await coordination.announceTaskWaiting(handle);
  } catch (error) {
    await transitions.end(handle, 'failed', {
      error: transitions.incident('publishing failed inside the service', `task ${handle}: internal error: ${errorReport(error)}`),
      resourceId: (await store.getTask(handle))?.resourceId ?? '',
    });
  }
}
