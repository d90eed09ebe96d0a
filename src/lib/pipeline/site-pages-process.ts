// Astro's pages rendered in a process of their own (site-pages-child.ts), so Astro's memory is never added to the record threads'.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { GarmentPressError } from '../errors.ts';
import { type SiteContext, writeSiteContext } from './site-context-file.ts';

/** Where a build's report puts the Astro process's figures, beside its stages' and its own. */
export const ASTRO_PROCESS = 'Astro process';

/** Astro could not render the site's pages; the site being built must not be published. */
export class SitePagesError extends GarmentPressError {}

/** What a process used: its peak resident memory (MiB) and its CPU time, user and system (seconds), and of that the system's. */
export interface ProcessUsage {
  peakRssMb: number;
  cpuSeconds: number;
  kernelSeconds: number;
}

/** Where the Astro process renders the pages: the project, the output folder and the folder private to its run. */
interface SitePagesPlace {
  projectRoot: string;
  outDir: string;
  privateDir: string;
}

/** What a build asks the Astro process to render, and where. */
export interface SitePagesRequest extends SitePagesPlace {
  context: SiteContext;
}

/** What the Astro process is sent (see renderSitePages): the site's address and its context's file, never the records themselves. */
export interface SitePagesJob extends SitePagesPlace {
  /** The site's absolute address (Astro's `site`). */
  site: string;
  /** The build's SiteContext, as writeSiteContext wrote it into `privateDir`. */
  contextFile: string;
}

/** What the Astro process answers: it rendered the pages, or why not (its error's stack); and what it used. */
export type SitePagesReply = { type: 'rendered'; usage: ProcessUsage } | { type: 'failed'; report: string; usage: ProcessUsage };

/** An Astro process waiting for its one render. */
export interface SitePagesProcess {
  /** Renders the pages; resolves with what the process used, or rejects with a SitePagesError. */
  render(request: SitePagesRequest): Promise<ProcessUsage>;
  /** Ends the process if it still runs (a build that stops before its pages, or fails). */
  stop(): void;
}

const child = fileURLToPath(new URL('./site-pages-child.ts', import.meta.url));

/**
 * Starts the process that will render Astro's pages: at once, so Astro (about a second to load)
 * loads while the records are read. Astro and Vite take about 0.5 GB at 10,000 records
 * (PERFORMANCE.md, round 4): in the build's process that came on top of the record threads' memory
 * and took the build past 1 GiB; in a process of its own it goes away once the pages are written.
 */
export function startSitePages(): SitePagesProcess {
  // Not this process's flags: a test runner's loaders are not the child's. Astro's usage report is
  // off: each build spent a `git` process and a request to telemetry.astro.build (0.2 to 0.4 s of CPU) on it.
  const astro = fork(child, [], {
    execArgv: [],
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let reply: SitePagesReply | undefined;
  const ended = new Promise<number | null>((resolve) => {
    astro.on('message', (message: SitePagesReply) => (reply = message));
    astro.on('exit', (code) => resolve(code));
    astro.on('error', () => resolve(null));
  });
  return {
    async render({ context, ...place }) {
      const job: SitePagesJob = { ...place, site: context.site, contextFile: await writeSiteContext(place.privateDir, context) };
      astro.send(job);
      const code = await ended;
      if (reply?.type === 'rendered') return reply.usage;
      throw new SitePagesError(
        reply?.type === 'failed'
          ? `site pages: Astro failed: ${reply.report}`
          : `site pages: the Astro process stopped (exit code ${code}) before rendering; its own message, if any, is above`,
      );
    },
    stop() {
      if (astro.exitCode === null && astro.signalCode === null) astro.kill();
    },
  };
}
