import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { checkRecordBytes, formatProblem, type GarmentRecord, type Problem } from '../record/index.ts';
import { absoluteUrl, pagePath } from '../site/urls.ts';
import type { Outbox } from '../webhooks/index.ts';
import { createCoalescingQueue } from './build-queue.ts';
import { createTaskWatchers } from './long-poll.ts';
import { readIfExists, readRecordsFolder, replaceFile, setAside } from './records-folder.ts';
import type { SiteBuildOutcome } from './site-build-process.ts';
import type { Coordination, LeaseFence } from './coordination.ts';
import type { PublishStore } from './store.ts';
import {
  PUBLISH_EVENTS,
  projectTask,
  resourceIdOf,
  STAGES,
  type GenerationProjection,
  type RecordProblem,
  type StageName,
  type Task,
  type TerminalStatus,
  isTerminal,
} from './tasks.ts';
import { counted } from '../counted.ts';
import { DISK_FULL_ANSWER, isDiskFull } from '../disk-space.ts';
import { errorMessage, errorReport } from '../errors.ts';

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

/** A record file no publish brought that a build found broken, and what was done with it. */
export interface BrokenRecordFile {
  /** The file, relative to the records folder. */
  file: string;
  /** Its new name, relative to the records folder: builds no longer read it. */
  setAsideAs: string;
  /** Every problem the build found in it, as `file: /pointer: message` lines. */
  problems: string[];
  at: string;
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

/** How a task ends. */
export interface Ending {
  error?: string;
  problems?: RecordProblem[];
  resourceId: string;
  pageUrl?: string;
  supersededBy?: string;
}

/** Builds one batch may run: the first, one after setting broken foreign files aside, one after dropping failed records. */
const BUILDS_PER_BATCH = 3;

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

/** Returns a publisher; nothing runs until `start` or `resume`. */
export function createPublisher(options: PublisherOptions): Publisher {
  const { store, coordination, outbox, recordsDir, site, buildSite, gatherMs = 150, log = () => {} } = options;
  const watchers = createTaskWatchers();
  const stageWatchers = createTaskWatchers();
  const work = new Set<Promise<void>>();
  // Aborted on shutdown, and when the build lease is lost (the next builder resumes the tasks).
  let abortBuild = new AbortController();
  const brokenRecordFiles: BrokenRecordFile[] = [];
  let stopping = false;
  let buildsStarted = 0;

  const track = (promise: Promise<void>) => {
    // A store that cannot write (a full disk) must not end the process: the task resumes at the next start.
    const settled = promise.catch((error: unknown) => log(`task work stopped (resumed at the next start): ${errorMessage(error)}`));
    work.add(settled);
    void settled.finally(() => work.delete(settled));
  };

  const moveTo = async (handle: string, stage: StageName, fields?: { resourceId?: string; buildId?: number }) => {
    if (!(await store.setStage(handle, stage, fields))) return;
    log(`task ${handle} ${STAGES[stage].status}: ${STAGES[stage].stage}`);
    stageWatchers.notify(handle);
    // Progress followers on other instances (MCP progress notifications) read the new stage.
    await coordination
      .announceTaskStage(handle)
      .catch((error: unknown) => log(`task ${handle}: could not announce its stage: ${errorMessage(error)}`));
  };

  /** Logs what went wrong for the operator under a new incident id; returns the caller's text, which names no path. */
  const incident = (what: string, details: string): string => {
    const id = `inc_${randomBytes(6).toString('hex')}`;
    log(`incident ${id}: ${details}`);
    return `${what}; this is not a problem in your record (incident ${id}, in the service's log). Publish again later, or quote the incident id to the operator.`;
  };

  /** Queues a finished task's event; tracked, so stopping waits for it to be stored. */
  const handOverEvent = (task: Task) => track(queueEvent(task));

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

  const end = async (handle: string, status: TerminalStatus, ending: Ending) => {
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
  };

  /** Puts back what the given tasks wrote, latest write first; returns the files that could not be put back. */
  const restore = async (handles: string[]): Promise<string[]> => {
    const failures: string[] = [];
    for (const { file, replacedText } of await store.writtenRecords(handles)) {
      await replaceFile(file, replacedText, () => coordination.holdsLease).catch((error: unknown) =>
        failures.push(`${file}: could not be put back: ${errorMessage(error)}`),
      );
    }
    return failures;
  };

  /** Renames broken files no task of the batch wrote, so the next build goes on without them; tells the operator. */
  const setAsideBroken = async (problemsByFile: Map<string, Problem[]>): Promise<void> => {
    for (const [file, problems] of problemsByFile) {
      if (!coordination.holdsLease) return;
      const lines = problems.map((problem) => formatProblem({ ...problem, file: path.relative(recordsDir, file) }));
      try {
        const movedTo = await setAside(file);
        const entry = {
          file: path.relative(recordsDir, file),
          setAsideAs: path.relative(recordsDir, movedTo),
          problems: lines,
          at: new Date().toISOString(),
        };
        brokenRecordFiles.push(entry);
        log(
          `records folder: ${entry.file} is no valid record and no publish brought it; set aside as ${entry.setAsideAs} so publishes go on (fix it, then rename it back): ${lines.join(' | ')}`,
        );
      } catch (error) {
        log(`records folder: ${file} is broken and could not be set aside: ${errorMessage(error)}`);
      }
    }
  };

  const runBatch = async (submitted: string[]) => {
    // A lost lease leaves the batch to the next builder, which runs every unfinished task; so does each step below that
    // writes (a builder stopped and resumed must not undo the next one's work). A handle may be submitted twice.
    if (!coordination.holdsLease) return;
    const handles = [...new Set(submitted)];
    const folder = await readRecordsFolder(recordsDir);
    const found = await store.owners.noteFound(folder.slugs());
    if (found.length > 0)
      log(
        `records folder: ${counted(found.length, 'garment')} found with no owner (${found.slice(0, 5).join(', ')}${found.length > 5 ? ', …' : ''}); publishable after an admin grant`,
      );
    let written: Array<{ handle: string; record: GarmentRecord; file: string }> = [];
    for (const handle of handles) {
      if (!coordination.holdsLease) return;
      const task = await store.getTask(handle);
      if (task === undefined || task.resultJson !== null) continue;
      const record = JSON.parse(task.recordText) as GarmentRecord;
      const resourceId = resourceIdOf(record.slug, record.projection);
      // Ownership may have moved since the task was accepted (an admin transfer).
      if (!(await store.owners.claimForPublish(record.slug, task.organizationId)).allowed) {
        await end(handle, 'failed', {
          error: `garment ${record.slug} no longer belongs to your organization, so it was not published`,
          resourceId,
        });
        continue;
      }
      await moveTo(handle, 'writing');
      const placement = await folder.place(record.slug, record.projection);
      if (!placement.ok) {
        await end(handle, 'failed', {
          error: incident(`the records folder cannot take ${resourceId} as it is`, placement.message),
          resourceId,
        });
        continue;
      }
      try {
        await store.noteWrite({ handle, file: placement.file, replacedText: await readIfExists(placement.file) });
        await replaceFile(placement.file, task.recordText, () => coordination.holdsLease);
      } catch (error) {
        if (!coordination.holdsLease) return;
        const details = `${placement.file}: could not write the record of task ${handle}: ${errorMessage(error)}`;
        if (isDiskFull(error)) log(details);
        await end(handle, 'failed', {
          error: isDiskFull(error) ? DISK_FULL_ANSWER : incident(`the record could not be written`, details),
          resourceId,
        });
        continue;
      }
      folder.claim(placement.file, record.slug, record.projection);
      written.push({ handle, record, file: path.resolve(placement.file) });
    }

    for (let build = 1; written.length > 0; build++) {
      if (!coordination.holdsLease) return;
      const lease = coordination.leaseFence();
      const buildId = await store.startBuild(written.length);
      buildsStarted += 1;
      for (const { handle } of written) await moveTo(handle, 'building', { buildId });
      log(`build #${buildId} started for ${counted(written.length, 'task')}`);
      const signal = abortBuild.signal;
      const outcome = await buildSite(signal, lease);
      await store.finishBuild(buildId, outcome.ok, outcome.output);
      // A site swapped in went live under the lease; what was not is the next builder's, records as they are.
      const stopped = !outcome.ok && (signal.aborted || !coordination.holdsLease);
      const how = outcome.ok ? 'succeeded' : stopped ? 'stopped' : 'failed';
      const why = stopped ? ` (${outcome.error ?? lastLine(outcome.output)}; its tasks are left to the next build)` : '';
      const stages = outcome.ok && outcome.stages !== undefined ? ` (${stagesLine(outcome.stages)})` : '';
      log(`build #${buildId} ${how}${why} in ${outcome.seconds.toFixed(1)} s${stages}`);
      if (outcome.ok) {
        await endBuilt(written);
        return;
      }
      if (stopped) return;

      const lastWriterOf = new Map(written.map((entry) => [entry.file, entry]));
      const foreign = new Map<string, Problem[]>();
      const ours = new Map<string, Problem[]>();
      for (const problem of outcome.problems ?? []) {
        const file = path.resolve(problem.file);
        const into = lastWriterOf.has(file) ? ours : foreign;
        into.set(file, [...(into.get(file) ?? []), problem]);
      }
      const recordFault = foreign.size > 0 || ours.size > 0;
      if (!recordFault || build === BUILDS_PER_BATCH) {
        const failures = await restore(written.map((entry) => entry.handle));
        const error = incident(
          `the site build failed`,
          `build #${buildId} failed for ${counted(written.length, 'task')} (${written.map((entry) => entry.handle).join(', ')}); ${failures.length === 0 ? 'the records folder was put back' : failures.join('; ')}. Build output:\n${outcome.output}`,
        );
        for (const { handle, record } of written)
          await end(handle, 'failed', { error, resourceId: resourceIdOf(record.slug, record.projection) });
        return;
      }
      await setAsideBroken(foreign);
      // A record the whole site refuses (a clash with another file) fails alone; the others build again without it.
      for (const [file, problems] of ours) {
        const { handle, record } = lastWriterOf.get(file)!;
        for (const line of await restore([handle])) log(`build #${buildId}: ${line}`);
        const shown = problems.map((problem) => ({ pointer: problem.pointer, message: problem.message }));
        await end(handle, 'failed', {
          error: shown.map((problem) => formatProblem({ severity: 'error', file: 'record', ...problem })).join('\n'),
          problems: shown,
          resourceId: resourceIdOf(record.slug, record.projection),
        });
      }
      written = written.filter((entry) => !ours.has(entry.file) || lastWriterOf.get(entry.file) !== entry);
    }
  };

  /** Ends a built batch: the last write of each file went live; earlier writes of it in the batch were superseded. */
  const endBuilt = async (written: Array<{ handle: string; record: GarmentRecord; file: string }>) => {
    const lastWriterOf = new Map(written.map((entry) => [entry.file, entry.handle]));
    for (const { handle, record, file } of written) {
      const resourceId = resourceIdOf(record.slug, record.projection);
      const winner = lastWriterOf.get(file)!;
      if (winner === handle) {
        await end(handle, 'complete', { resourceId, pageUrl: absoluteUrl(pagePath(record.slug, record.projection), site) });
      } else {
        await end(handle, 'superseded', {
          resourceId,
          supersededBy: winner,
          error: `a later publish of ${resourceId} (handle ${winner}) went into the same site build, so its content is live and this task's never was`,
        });
      }
    }
  };

  const queue = createCoalescingQueue<string>({ run: runBatch, gatherMs });

  /** On taking the lease: hand over events a crash left, then run every unfinished task, whoever took it. */
  const resumeAsBuilder = async () => {
    for (const task of await store.tasksAwaitingEvent()) handOverEvent(task);
    const unfinished = await store.unfinishedTasks();
    if (unfinished.length > 0) log(`resuming ${counted(unfinished.length, 'unfinished task')}`);
    for (const task of unfinished) track(runTask(task.handle));
  };

  const runTask = async (handle: string) => {
    // Let the caller answer 202 before validation takes the event loop.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const task = await store.getTask(handle);
    if (task === undefined || task.resultJson !== null || stopping) return;
    try {
      await moveTo(handle, 'validating');
      const checked = checkSubmittedRecord(task.recordText);
      if ('problems' in checked) {
        await end(handle, 'failed', refusedRecordEnding(checked.problems));
        return;
      }
      await moveTo(handle, 'waiting', { resourceId: resourceIdOf(checked.record.slug, checked.record.projection) });
      // The builder gathers it: this instance if it holds the lease, else whichever does (or will).
      await coordination.announceTaskWaiting(handle);
    } catch (error) {
      await end(handle, 'failed', {
        error: incident('publishing failed inside the service', `task ${handle}: internal error: ${errorReport(error)}`),
        resourceId: (await store.getTask(handle))?.resourceId ?? '',
      });
    }
  };

  return {
    start(handle) {
      track(runTask(handle));
    },

    resume() {
      coordination.listen({
        taskEnded: (handle) => {
          watchers.notify(handle);
          stageWatchers.notify(handle);
        },
        taskStageChanged: (handle) => stageWatchers.notify(handle),
        taskWaiting: (handle) => {
          if (stopping) return;
          const built = queue.submit(handle).then(
            () => {},
            (error: unknown) =>
              end(handle, 'failed', {
                error: incident('publishing failed inside the service', `task ${handle}: build batch failed: ${errorMessage(error)}`),
                resourceId: '',
              }),
          );
          track(built);
        },
        leaseChanged: (held) => {
          if (held) track(resumeAsBuilder());
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
      return brokenRecordFiles;
    },

    async stop({ graceMs = 30_000 } = {}) {
      stopping = true;
      watchers.releaseAll();
      stageWatchers.releaseAll();
      const closing = queue.close();
      const timer = setTimeout(() => abortBuild.abort(), graceMs);
      await closing;
      clearTimeout(timer);
      await Promise.all([...work]);
    },
  };
}

/** A build's stages as the log shows them: `startup 0.4 s, validate 1.2 s, …`. */
function stagesLine(stages: Record<string, number>): string {
  return Object.entries(stages)
    .map(([stage, seconds]) => `${stage} ${seconds.toFixed(1)} s`)
    .join(', ');
}

function lastLine(text: string): string {
  return text.slice(text.lastIndexOf('\n') + 1);
}

function firstLine(text: string): string {
  const [first = '', ...rest] = text.split('\n');
  return rest.length > 0 ? `${first} (+${counted(rest.length, 'more line')})` : first;
}
