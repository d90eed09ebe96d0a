import { describe, expect, it } from 'vitest';
import { medianRun, type BenchReport } from '../../../src/lib/bench/bench.ts';
import { formatBenchTable } from '../../../src/lib/bench/report.ts';

const report: BenchReport = {
  records: 2000,
  inputMb: 245.4,
  outputMb: 838.2,
  outputFiles: 9012,
  machine: { cpus: 2, node: '24.21.0' },
  runs: [
    {
      name: 'full',
      seconds: 40,
      timings: { validate: 2.5, render: 30, twins: 9.5, 'search index': 28 },
      peakRssMb: { validate: 400, render: 900, twins: 950, 'search index': 950, 'Astro process': 980, 'Pagefind process': 700 },
      cpuSeconds: { build: 61.26, kernel: 7.44, 'Astro process': 9.51, 'Pagefind process': 12.04 },
    },
    {
      name: 'no change',
      seconds: 1.6,
      timings: { validate: 1.2 },
      peakRssMb: { validate: 200 },
      cpuSeconds: { build: 1.94 },
      samples: [1.9, 1.6, 1.55],
    },
  ],
};

describe('formatBenchTable', () => {
  const table = formatBenchTable(report);
  const rows = table.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| build'));
  const cells = (row: string) =>
    row
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());

  it('says what was built from what, on what machine', () => {
    expect(table.split('\n')[0]).toBe('2000 records (245 MB in), 9012 files (838 MB out); 2 cores, Node 24.21.0');
  });

  it('gives each stage its wall time, records per second and peak memory, then Astro, Pagefind and the build total (its largest process) with their CPU time, and the build’s CPU in the kernel', () => {
    expect(rows.map(cells)).toEqual([
      ['full', 'validate', '2.50', '800', '', '400'],
      ['full', 'render', '30.00', '67', '', '900'],
      ['full', 'twins', '9.50', '211', '', '950'],
      ['full', 'search index', '28.00', '71', '', '950'],
      ['full', 'Astro process (in the build)', '', '', '9.5', '980'],
      ['full', 'Pagefind process (beside the build)', '', '', '12.0', '700'],
      ['full', 'total', '40.00', '50', '61.3', '980'],
      ['full', 'of the total, in the kernel', '', '', '7.4', ''],
      ['no change', 'validate', '1.20', '1667', '', '200'],
      ['no change', 'total, median of 1.9 / 1.6 / 1.6 s', '1.60', '1250', '1.9', '200'],
    ]);
  });

  it('picks the run with the median wall time, keeping every run’s', () => {
    const run = (seconds: number) => ({
      name: 'full',
      seconds,
      timings: { render: seconds - 1 },
      peakRssMb: {},
      cpuSeconds: { build: seconds * 1.8 },
    });
    expect(medianRun([run(80), run(70), run(95)])).toEqual({ ...run(80), samples: [80, 70, 95] });
    expect(medianRun([run(80), run(70)])).toMatchObject({ seconds: 70 });
  });

  it('is a Markdown table whose columns line up', () => {
    const lines = table.split('\n').slice(2);
    expect(new Set(lines.map((line) => line.length)).size).toBe(1);
    expect(lines[1]).toMatch(/^\|:-+\|:-+\|-+:\|-+:\|-+:\|-+:\|$/);
  });
});
