// The site build as the publish service runs it: the build CLI's work, with its result (every
// record problem, or the error that stopped it) sent to the parent as data rather than text.
import { buildSite } from '../pipeline/site-build.ts';
import type { SiteBuildTarget } from './site-build-process.ts';
import type { ChildBuildResult } from './site-build-process.ts';
import { errorMessage, errorReport } from '../errors.ts';
import { swapUnderLease } from './postgres-coordination.ts';

const target = JSON.parse(process.argv[2] ?? '{}') as SiteBuildTarget;
let reported = false;
// A service killed outright (SIGKILL) cannot stop its build: the closed channel tells the build to stop, so the next builder works alone.
process.on('disconnect', () => {
  if (!reported) process.exit(1);
});
let result: ChildBuildResult;
try {
  const { lease, ...folders } = target;
  // Module loading is most of a small build's time: the process's start counts as a stage.
  const startup = performance.now() / 1000;
  let swapSeconds: number | undefined;
  const built = await buildSite({
    ...folders,
    onProgress: (line) => process.stdout.write(`${line}\n`),
    guardSwap: async (swap) => {
      const swapStarted = performance.now();
      await (lease === undefined ? swap(async () => {}) : swapUnderLease(lease, swap));
      swapSeconds = (performance.now() - swapStarted) / 1000;
    },
  });
  result = {
    ok: built.ok,
    problems: built.problems.filter((problem) => problem.severity === 'error'),
    stages: { startup, ...built.timings, ...(swapSeconds === undefined ? {} : { swap: swapSeconds }) },
  };
  process.stdout.write(
    built.ok
      ? `built ${built.records} records (${built.rendered} rendered)\n`
      : `build stopped: ${result.problems.length} error(s) in the records\n`,
  );
} catch (error) {
  const message = errorReport(error);
  process.stderr.write(`${message}\n`);
  result = { ok: false, problems: [], error: errorMessage(error) };
}
reported = true;
process.send!(result, () => process.disconnect());
