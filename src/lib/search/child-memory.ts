import { readdirSync, readFileSync } from 'node:fs';

/** Where a build's report puts the Pagefind process's peak memory, beside its stages' own. */
export const PAGEFIND_PROCESS = 'Pagefind process';

/**
 * The peak resident memory (MiB) of this process's Pagefind service, which process.resourceUsage()
 * does not count, read from Linux's /proc while the service still runs; undefined where there is
 * no /proc or no such process.
 */
export function pagefindPeakRssMb(): number | undefined {
  try {
    const children = readdirSync('/proc/self/task').flatMap((task) => readFileSync(`/proc/self/task/${task}/children`, 'utf8').split(' ').filter(Boolean));
    for (const pid of children) {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      if (!/^Name:\s*pagefind/m.test(status)) continue;
      const peak = /^VmHWM:\s*(\d+) kB/m.exec(status);
      if (peak) return Math.round(Number(peak[1]) / 1024);
    }
  } catch {
    // Not Linux, or the process ended meanwhile: the figure is unknown.
  }
  return undefined;
}
