import { ASTRO_PROCESS } from '../pipeline/site-pages-process.ts';
import { PAGEFIND_PROCESS } from '../search/index/pagefind-process.ts';
import type { BenchReport } from './bench.ts';

/**
 * The bench report as a table a person reads: one row per stage of each build, then the Astro and
 * Pagefind processes and the whole build (its largest process but Pagefind's), with their CPU time
 * (a steadier measure of work than wall time on a shared machine), and the build's CPU time in the kernel.
 */
export function formatBenchTable(report: BenchReport): string {
  const rows = [['build', 'stage', 'wall s', 'records/s', 'CPU s', 'peak RSS MiB']];
  const cpu = (seconds: number | undefined) => (seconds === undefined ? '' : seconds.toFixed(1));
  for (const run of report.runs) {
    for (const [stage, seconds] of Object.entries(run.timings)) {
      rows.push([run.name, stage, seconds.toFixed(2), (report.records / seconds).toFixed(0), '', String(run.peakRssMb[stage] ?? '')]);
    }
    const { [PAGEFIND_PROCESS]: _pagefind, ...build } = run.peakRssMb;
    // Astro's process is the build's own work (its CPU is in the build's); Pagefind's is beside it.
    for (const [child, role] of [
      [ASTRO_PROCESS, 'in the build'],
      [PAGEFIND_PROCESS, 'beside the build'],
    ] as const) {
      const peak = run.peakRssMb[child];
      const childCpu = run.cpuSeconds[child];
      if (peak !== undefined || childCpu !== undefined)
        rows.push([run.name, `${child} (${role})`, '', '', cpu(childCpu), String(peak ?? '')]);
    }
    const total =
      run.samples && run.samples.length > 1 ? `total, median of ${run.samples.map((s) => s.toFixed(1)).join(' / ')} s` : 'total';
    rows.push([
      run.name,
      total,
      run.seconds.toFixed(2),
      (report.records / run.seconds).toFixed(0),
      cpu(run.cpuSeconds.build),
      String(Math.max(0, ...Object.values(build))),
    ]);
    // What the file system costs varies most between runs (PERFORMANCE.md): shown apart from the code's own work.
    if (run.cpuSeconds.kernel !== undefined) rows.push([run.name, 'of the total, in the kernel', '', '', cpu(run.cpuSeconds.kernel), '']);
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i < 2 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  const summary = `${report.records} records (${report.inputMb.toFixed(0)} MB in), ${report.outputFiles} files (${report.outputMb.toFixed(0)} MB out); ${report.machine.cpus} cores, Node ${report.machine.node}`;
  return [summary, '', line(rows[0]!), rule, ...rows.slice(1).map(line)].join('\n');
}
