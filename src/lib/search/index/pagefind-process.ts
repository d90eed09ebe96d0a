import { readdirSync, readFileSync } from 'node:fs';

/** Where a build's report puts the Pagefind process's figures, beside its stages' and its own. */
export const PAGEFIND_PROCESS = 'Pagefind process';

/** What the Pagefind service process has used so far; a figure is undefined where it is unknown. */
export interface PagefindUsage {
  /** Peak resident memory, MiB. */
  peakRssMb?: number;
  /** CPU time, user and system, seconds. */
  cpuSeconds?: number;
}

/** Linux counts a process's CPU time in /proc in ticks of 1/100 s on every architecture (USER_HZ). */
const TICKS_PER_SECOND = 100;

/**
 * The memory and CPU this process's Pagefind service has used, which process.resourceUsage()
 * does not count, read from Linux's /proc while the service still runs; empty where there is
 * no /proc or no such process.
 */
export function pagefindUsage(): PagefindUsage {
  try {
    const children = readdirSync('/proc/self/task').flatMap((task) =>
      readFileSync(`/proc/self/task/${task}/children`, 'utf8').split(' ').filter(Boolean),
    );
    for (const pid of children) {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      if (!/^Name:\s*pagefind/m.test(status)) continue;
      const peak = /^VmHWM:\s*(\d+) kB/m.exec(status);
      // utime and stime are the 14th and 15th fields, counted after the name, which may hold spaces.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const [utime, stime] = stat
        .slice(stat.lastIndexOf(')') + 2)
        .split(' ')
        .slice(11, 13)
        .map(Number);
      return {
        ...(peak && { peakRssMb: Math.round(Number(peak[1]) / 1024) }),
        ...(Number.isFinite(utime! + stime!) && { cpuSeconds: (utime! + stime!) / TICKS_PER_SECOND }),
      };
    }
  } catch {
    // Not Linux, or the process ended meanwhile: the figures are unknown.
  }
  return {};
}

/** Rejections of the Pagefind calls not answered yet, each to run if the process is left with nothing else to do. */
const unanswered = new Set<() => void>();

/**
 * A call to Pagefind's service, rejected if the process would otherwise end with it unanswered.
 * Pagefind's Node wrapper does not hold the process open for its service, nor see the service
 * die: when it panics (on a full disk, say), the call never settles and the build would stop in
 * the middle, saying nothing and leaving its staging folder behind.
 */
export function pagefindAnswer<T>(call: Promise<T>, doing: string): Promise<T> {
  if (unanswered.size === 0) process.once('beforeExit', rejectUnanswered);
  return new Promise<T>((resolve, reject) => {
    const gone = () => reject(new Error(`Pagefind stopped without answering while ${doing} (its own message, if any, is above)`));
    unanswered.add(gone);
    call.then(resolve, reject).finally(() => {
      unanswered.delete(gone);
      if (unanswered.size === 0) process.off('beforeExit', rejectUnanswered);
    });
  });
}

function rejectUnanswered(): void {
  for (const reject of [...unanswered]) reject();
  unanswered.clear();
}
