import path from 'node:path';
import { counted } from '../counted.ts';
import { DISK_FULL_ANSWER, isDiskFull } from '../disk-space.ts';
import { errorMessage } from '../errors.ts';
import { formatProblem, type GarmentRecord, type Problem } from '../record/index.ts';
import { absoluteUrl, pagePath } from '../site/urls.ts';
import type { Coordination, LeaseFence } from './coordination.ts';
import { readIfExists, readRecordsFolder, replaceFile, setAside } from './records-folder.ts';
import type { SiteBuildOutcome } from './site-build-process.ts';
import type { PublishStore } from './store.ts';
import type { TaskTransitions } from './task-transitions.ts';
import { resourceIdOf } from './tasks.ts';

/** A broken record file no publish brought that a build found, and what was done with it. */
export interface BrokenRecordFile {
  /** The file, relative to the records folder. */
  file: string;
  /** Its new name, relative to the records folder: builds no longer read it. */
  setAsideAs: string;
  /** Every problem the build found in it, as `file: /pointer: message` lines. */
  problems: string[];
  at: string;
}

/** What running a batch of waiting tasks works with. */
export interface BatchContext {
  store: PublishStore;
  coordination: Coordination;
  transitions: TaskTransitions;
  recordsDir: string;
  site: string;
  buildSite: (signal: AbortSignal, lease: LeaseFence | undefined) => Promise<SiteBuildOutcome>;
  /** The signal of the build about to start: aborted on shutdown and when the lease is lost. */
  buildSignal: () => AbortSignal;
  /** Told of each build started. */
  onBuildStarted: () => void;
  /** Where broken foreign files set aside are listed for health. */
  brokenRecordFiles: BrokenRecordFile[];
  log: (line: string) => void;
}

/** A task's record written into the records folder for the next build. */
interface WrittenTask {
  handle: string;
  record: GarmentRecord;
  file: string;
}

/** Builds one batch may run: the first, one after setting broken foreign files aside, one after dropping failed records. */
const BUILDS_PER_BATCH = 3;

/**
 * Runs a batch: writes each task's record, builds the site, and ends the tasks. A lost lease leaves the
 * batch to the next builder, which runs every unfinished task; so does each step that writes (a builder
 * stopped and resumed must not undo the next one's work). A handle may be submitted twice.
 */
export async function runBatch(context: BatchContext, submitted: string[]): Promise<void> {
  if (!context.coordination.holdsLease) return;
  const written = await writeRecords(context, [...new Set(submitted)]);
  if (written !== undefined) await buildUntilSettled(context, written);
}

/** Writes the records of the batch's tasks; undefined when the lease was lost on the way. */
async function writeRecords(context: BatchContext, handles: string[]): Promise<WrittenTask[] | undefined> {
  const { store, coordination, transitions, recordsDir, log } = context;
  const folder = await readRecordsFolder(recordsDir);
  const found = await store.owners.noteFound(folder.slugs());
  if (found.length > 0)
    log(
      `records folder: ${counted(found.length, 'garment')} found with no owner (${found.slice(0, 5).join(', ')}${found.length > 5 ? ', …' : ''}); publishable after an admin grant`,
    );
  const written: WrittenTask[] = [];
  for (const handle of handles) {
    if (!coordination.holdsLease) return undefined;
    const task = await store.getTask(handle);
    if (task === undefined || task.resultJson !== null) continue;
    const record = JSON.parse(task.recordText) as GarmentRecord;
    const resourceId = resourceIdOf(record.slug, record.projection);
    // Ownership may have moved since the task was accepted (an admin transfer).
    if (!(await store.owners.claimForPublish(record.slug, task.organizationId)).allowed) {
      await transitions.end(handle, 'failed', {
        error: `garment ${record.slug} no longer belongs to your organization, so it was not published`,
        resourceId,
      });
      continue;
    }
    await transitions.moveTo(handle, 'writing');
    const placement = await folder.place(record.slug, record.projection);
    if (!placement.ok) {
      const error = transitions.incident(`the records folder cannot take ${resourceId} as it is`, placement.message);
      await transitions.end(handle, 'failed', { error, resourceId });
      continue;
    }
    try {
      await store.noteWrite({ handle, file: placement.file, replacedText: await readIfExists(placement.file) });
      await replaceFile(placement.file, task.recordText, () => coordination.holdsLease);
    } catch (error) {
      if (!coordination.holdsLease) return undefined;
      const details = `${placement.file}: could not write the record of task ${handle}: ${errorMessage(error)}`;
      if (isDiskFull(error)) log(details);
      const answer = isDiskFull(error) ? DISK_FULL_ANSWER : transitions.incident(`the record could not be written`, details);
      await transitions.end(handle, 'failed', { error: answer, resourceId });
      continue;
    }
    folder.claim(placement.file, record.slug, record.projection);
    written.push({ handle, record, file: path.resolve(placement.file) });
  }
  return written;
}

/** Builds until the written tasks end: built, or failed with their records put back, or left to the next builder. */
async function buildUntilSettled(context: BatchContext, firstWritten: WrittenTask[]): Promise<void> {
  const { store, coordination, transitions, log } = context;
  let written = firstWritten;
  for (let build = 1; written.length > 0; build++) {
    if (!coordination.holdsLease) return;
    const lease = coordination.leaseFence();
    const buildId = await store.startBuild(written.length);
    context.onBuildStarted();
    for (const { handle } of written) await transitions.moveTo(handle, 'building', { buildId });
    log(`build #${buildId} started for ${counted(written.length, 'task')}`);
    const signal = context.buildSignal();
    const outcome = await context.buildSite(signal, lease);
    await store.finishBuild(buildId, outcome.ok, outcome.output);
    // A site swapped in went live under the lease; what was not is the next builder's, records as they are.
    const stopped = !outcome.ok && (signal.aborted || !coordination.holdsLease);
    log(buildLine(buildId, outcome, stopped));
    if (outcome.ok) return endBuilt(context, written);
    if (stopped) return;

    const lastWriterOf = new Map(written.map((entry) => [entry.file, entry]));
    const { foreign, ours } = problemsByOwner(outcome.problems ?? [], lastWriterOf);
    if ((foreign.size === 0 && ours.size === 0) || build === BUILDS_PER_BATCH) return failBatch(context, buildId, written, outcome);
    await setAsideBroken(context, foreign);
    // A record the whole site refuses (a clash with another file) fails alone; the others build again without it.
    for (const [file, problems] of ours) await refuseWritten(context, buildId, lastWriterOf.get(file)!, problems);
    written = written.filter((entry) => !ours.has(entry.file) || lastWriterOf.get(entry.file) !== entry);
  }
}

/** The build's line in the log: how it ended, why it stopped, its stages. */
function buildLine(buildId: number, outcome: SiteBuildOutcome, stopped: boolean): string {
  const how = outcome.ok ? 'succeeded' : stopped ? 'stopped' : 'failed';
  const why = stopped ? ` (${outcome.error ?? lastLine(outcome.output)}; its tasks are left to the next build)` : '';
  const stages = outcome.ok && outcome.stages !== undefined ? ` (${stagesLine(outcome.stages)})` : '';
  return `build #${buildId} ${how}${why} in ${outcome.seconds.toFixed(1)} s${stages}`;
}

/** A failed build's problems, by file: in records the batch wrote last (ours) or in other files (foreign). */
function problemsByOwner(problems: Problem[], lastWriterOf: Map<string, WrittenTask>) {
  const foreign = new Map<string, Problem[]>();
  const ours = new Map<string, Problem[]>();
  for (const problem of problems) {
    const file = path.resolve(problem.file);
    const into = lastWriterOf.has(file) ? ours : foreign;
    into.set(file, [...(into.get(file) ?? []), problem]);
  }
  return { foreign, ours };
}

/** Ends every task of a batch whose build failed for no record's fault (or too often), its records put back. */
async function failBatch(context: BatchContext, buildId: number, written: WrittenTask[], outcome: SiteBuildOutcome): Promise<void> {
  const failures = await restore(
    context,
    written.map((entry) => entry.handle),
  );
  const error = context.transitions.incident(
    `the site build failed`,
    `build #${buildId} failed for ${counted(written.length, 'task')} (${written.map((entry) => entry.handle).join(', ')}); ${failures.length === 0 ? 'the records folder was put back' : failures.join('; ')}. Build output:\n${outcome.output}`,
  );
  for (const { handle, record } of written)
    await context.transitions.end(handle, 'failed', { error, resourceId: resourceIdOf(record.slug, record.projection) });
}

/** Ends a task whose written record the whole site refused, with that record's problems; its record is put back. */
async function refuseWritten(context: BatchContext, buildId: number, { handle, record }: WrittenTask, problems: Problem[]): Promise<void> {
  for (const line of await restore(context, [handle])) context.log(`build #${buildId}: ${line}`);
  const shown = problems.map((problem) => ({ pointer: problem.pointer, message: problem.message }));
  await context.transitions.end(handle, 'failed', {
    error: shown.map((problem) => formatProblem({ severity: 'error', file: 'record', ...problem })).join('\n'),
    problems: shown,
    resourceId: resourceIdOf(record.slug, record.projection),
  });
}

/** Puts back what the given tasks wrote, latest write first; returns the files that could not be put back. */
async function restore({ store, coordination }: BatchContext, handles: string[]): Promise<string[]> {
  const failures: string[] = [];
  for (const { file, replacedText } of await store.writtenRecords(handles)) {
    await replaceFile(file, replacedText, () => coordination.holdsLease).catch((error: unknown) =>
      failures.push(`${file}: could not be put back: ${errorMessage(error)}`),
    );
  }
  return failures;
}

/** Renames broken files no task of the batch wrote, so the next build goes on without them; tells the operator. */
async function setAsideBroken({ coordination, recordsDir, brokenRecordFiles, log }: BatchContext, problemsByFile: Map<string, Problem[]>) {
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
}

/** Ends a built batch: the last write of each file went live; earlier writes of it in the batch were superseded. */
async function endBuilt({ transitions, site }: BatchContext, written: WrittenTask[]): Promise<void> {
  const lastWriterOf = new Map(written.map((entry) => [entry.file, entry.handle]));
  for (const { handle, record, file } of written) {
    const resourceId = resourceIdOf(record.slug, record.projection);
    const winner = lastWriterOf.get(file)!;
    if (winner === handle) {
      await transitions.end(handle, 'complete', { resourceId, pageUrl: absoluteUrl(pagePath(record.slug, record.projection), site) });
    } else {
      await transitions.end(handle, 'superseded', {
        resourceId,
        supersededBy: winner,
        error: `a later publish of ${resourceId} (handle ${winner}) went into the same site build, so its content is live and this task's never was`,
      });
    }
  }
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
