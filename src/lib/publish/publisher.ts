import { randomUUID } from 'node:crypto';
import { checkRecordBytes, formatProblem, type GarmentRecord } from '../record/index.ts';
import { absoluteUrl, pagePath } from '../site/urls.ts';
import type { Outbox } from '../webhooks/index.ts';
import { createCoalescingQueue } from './build-queue.ts';
import { createTaskWatchers } from './long-poll.ts';
import { readIfExists, readRecordsFolder, replaceFile } from './records-folder.ts';
import type { SiteBuildOutcome } from './site-build-process.ts';
import type { PublishStore } from './store.ts';
import { PUBLISH_EVENTS, PUBLISH_TOOL, projectTask, resourceIdOf, STAGES, type StageName, type Task } from './tasks.ts';
import { counted } from '../counted.ts';

/** What the publisher works with. */
export interface PublisherOptions {
  store: PublishStore;
  /** Where completion events go; only `enqueue` is used. */
  outbox: Pick<Outbox, 'enqueue'>;
  /** The records folder the site is built from. */
  recordsDir: string;
  /** The site's absolute address, for `page_url`. */
  site: string;
  /** Rebuilds the whole site from the records folder; must not reject. Aborted on shutdown. */
  buildSite: (signal: AbortSignal) => Promise<SiteBuildOutcome>;
  /** How long an idle publisher gathers tasks before building; default 150 ms. */
  gatherMs?: number;
  /** One line per task transition and build. */
  log?: (line: string) => void;
}

/** Runs publish tasks: validate, write the record, rebuild (shared), end, hand the event over. */
export interface Publisher {
  /** Stores a new task for a record (its JSON text; the validator judges it) and starts it. */
  submit(input: { organizationId: string; recordText: string; callbackUrl: string | null }): Task;
  /** Picks up what a previous run left: unfinished tasks, and ended tasks whose event never reached the outbox. */
  resume(): void;
  /** Resolves when the task ends, `waitMs` passes, or `signal` aborts. */
  waitUntilDone(handle: string, waitMs: number, signal?: AbortSignal): Promise<void>;
  /** Builds started by this process. */
  readonly buildsStarted: number;
  /**
   * Stops: wakes waiting requests, starts no new build, lets a running build finish within
   * `graceMs` (else stops it; its tasks resume on the next start) and waits for task work to settle.
   */
  stop(options?: { graceMs?: number }): Promise<void>;
}

/** Lines of build output kept in a failed task's `error`. */
const BUILD_OUTPUT_LINES = 40;

/** Validator messages kept in a failed task's `error`; a record broken everywhere says how many more. */
const ERROR_LINES = 100;

/** Returns a publisher; nothing runs until `submit` or `resume`. */
export function createPublisher(options: PublisherOptions): Publisher {
  const { store, outbox, recordsDir, site, buildSite, gatherMs = 150, log = () => {} } = options;
  const watchers = createTaskWatchers();
  const work = new Set<Promise<void>>();
  const abortBuild = new AbortController();
  let stopping = false;
  let buildsStarted = 0;

  const track = (promise: Promise<void>) => {
    work.add(promise);
    void promise.finally(() => work.delete(promise));
  };

  const moveTo = (handle: string, stage: StageName, fields?: { resourceId?: string; buildId?: number }) => {
    if (store.setStage(handle, stage, fields)) log(`task ${handle} ${STAGES[stage].status}: ${STAGES[stage].stage}`);
  };

  const handOverEvent = (task: Task) => {
    if (task.callbackUrl === null || task.resultJson === null) return;
    try {
      const { created } = outbox.enqueue({
        event: task.status === 'complete' ? PUBLISH_EVENTS.complete : PUBLISH_EVENTS.failed,
        handle: task.handle,
        tool: PUBLISH_TOOL,
        organizationId: task.organizationId,
        dataJson: task.resultJson,
        callbackUrl: task.callbackUrl,
      });
      store.markEventEnqueued(task.handle);
      if (created) log(`task ${task.handle}: event queued for delivery`);
    } catch (error) {
      log(`task ${task.handle}: could not queue its event (retried at the next start): ${messageOf(error)}`);
    }
  };

  const end = (handle: string, status: 'complete' | 'failed', fields: { error?: string; resourceId: string; pageUrl?: string }) => {
    const task = store.getTask(handle);
    if (task === undefined) return;
    const outcome = { status, error: fields.error ?? '', resourceId: fields.resourceId, pageUrl: fields.pageUrl ?? '' };
    const { stage, progress } = STAGES[status];
    const resultJson = JSON.stringify(projectTask({ handle, ...outcome, stage, progress }));
    if (!store.finishTask(handle, { ...outcome, resultJson })) return;
    log(`task ${handle} ${status}${status === 'failed' ? `: ${firstLine(outcome.error)}` : `: ${outcome.pageUrl}`}`);
    watchers.notify(handle);
    handOverEvent(store.getTask(handle)!);
  };

  /** Validates alone (schema and integrity); returns the record, or every error as a formatted line. */
  const checkRecord = (recordText: string): { record: GarmentRecord } | { errors: string[] } => {
    const { record, problems } = checkRecordBytes('record', Buffer.from(recordText));
    const errors = problems.filter((problem) => problem.severity === 'error').map(formatProblem);
    return record ? { record } : { errors };
  };

  const runBatch = async (handles: string[]) => {
    const folder = await readRecordsFolder(recordsDir);
    const written: Array<{ handle: string; record: GarmentRecord }> = [];
    for (const handle of handles) {
      const task = store.getTask(handle);
      if (task === undefined || task.resultJson !== null) continue;
      const record = JSON.parse(task.recordText) as GarmentRecord;
      const resourceId = resourceIdOf(record.slug, record.projection);
      moveTo(handle, 'writing');
      const placement = folder.place(record.slug, record.projection);
      if (!placement.ok) {
        end(handle, 'failed', { error: placement.message, resourceId });
        continue;
      }
      try {
        store.noteWrite({ handle, file: placement.file, replacedText: await readIfExists(placement.file) });
        await replaceFile(placement.file, task.recordText);
      } catch (error) {
        end(handle, 'failed', { error: `${placement.file}: could not write the record: ${messageOf(error)}`, resourceId });
        continue;
      }
      folder.claim(placement.file, record.slug, record.projection);
      written.push({ handle, record });
    }
    if (written.length === 0) return;

    const buildId = store.startBuild(written.length);
    buildsStarted += 1;
    for (const { handle } of written) moveTo(handle, 'building', { buildId });
    log(`build #${buildId} started for ${counted(written.length, 'task')}`);
    const outcome = await buildSite(abortBuild.signal);
    store.finishBuild(buildId, outcome.ok, outcome.output);
    log(`build #${buildId} ${outcome.ok ? 'succeeded' : 'failed'} in ${outcome.seconds.toFixed(1)} s`);

    if (outcome.ok) {
      for (const { handle, record } of written) {
        end(handle, 'complete', {
          resourceId: resourceIdOf(record.slug, record.projection),
          pageUrl: absoluteUrl(pagePath(record.slug, record.projection), site),
        });
      }
      return;
    }
    // Stopped for shutdown: the records stay written and the tasks resume on the next start.
    if (abortBuild.signal.aborted) return;
    const restoreErrors: string[] = [];
    for (const { file, replacedText } of store.writtenRecords(written.map((entry) => entry.handle))) {
      await replaceFile(file, replacedText).catch((error: unknown) => restoreErrors.push(`${file}: could not be put back: ${messageOf(error)}`));
    }
    for (const line of restoreErrors) log(`build #${buildId}: ${line}`);
    const restored = restoreErrors.length === 0
      ? 'the records folder was put back as it was'
      : `putting the records folder back failed for ${restoreErrors.length} file(s)`;
    const error = [`site build #${buildId} failed, so the record was not published; ${restored}. Build output:`, lastLines(outcome.output, BUILD_OUTPUT_LINES)].join('\n');
    for (const { handle, record } of written) end(handle, 'failed', { error, resourceId: resourceIdOf(record.slug, record.projection) });
  };

  const queue = createCoalescingQueue<string>({ run: runBatch, gatherMs });

  const runTask = async (handle: string) => {
    // Let the caller answer 202 before validation takes the event loop.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const task = store.getTask(handle);
    if (task === undefined || task.resultJson !== null || stopping) return;
    try {
      moveTo(handle, 'validating');
      const checked = checkRecord(task.recordText);
      if ('errors' in checked) {
        end(handle, 'failed', { error: listErrors(checked.errors), resourceId: '' });
        return;
      }
      moveTo(handle, 'waiting', { resourceId: resourceIdOf(checked.record.slug, checked.record.projection) });
      await queue.submit(handle);
    } catch (error) {
      log(`task ${handle}: internal error: ${messageOf(error)}`);
      end(handle, 'failed', { error: `internal error while publishing: ${messageOf(error)}`, resourceId: store.getTask(handle)?.resourceId ?? '' });
    }
  };

  return {
    submit({ organizationId, recordText, callbackUrl }) {
      const handle = randomUUID();
      const task = store.insertTask({ handle, organizationId, callbackUrl, recordText });
      log(`task ${handle} queued for organization ${organizationId}${callbackUrl === null ? '' : ' with a callback'}`);
      track(runTask(handle));
      return task;
    },

    resume() {
      for (const task of store.tasksAwaitingEvent()) handOverEvent(task);
      const unfinished = store.unfinishedTasks();
      if (unfinished.length > 0) log(`resuming ${counted(unfinished.length, 'unfinished task')}`);
      for (const task of unfinished) track(runTask(task.handle));
    },

    waitUntilDone: (handle, waitMs, signal) => watchers.wait(handle, waitMs, signal),

    get buildsStarted() {
      return buildsStarted;
    },

    async stop({ graceMs = 30_000 } = {}) {
      stopping = true;
      watchers.releaseAll();
      const closing = queue.close();
      const timer = setTimeout(() => abortBuild.abort(), graceMs);
      await closing;
      clearTimeout(timer);
      await Promise.all([...work]);
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function firstLine(text: string): string {
  const [first = '', ...rest] = text.split('\n');
  return rest.length > 0 ? `${first} (+${counted(rest.length, 'more line')})` : first;
}

function listErrors(errors: string[]): string {
  if (errors.length <= ERROR_LINES) return errors.join('\n');
  return [...errors.slice(0, ERROR_LINES), `… and ${errors.length - ERROR_LINES} more errors`].join('\n');
}

function lastLines(text: string, count: number): string {
  const lines = text.split('\n');
  return lines.length > count ? [`… ${lines.length - count} earlier lines left out`, ...lines.slice(-count)].join('\n') : text;
}
