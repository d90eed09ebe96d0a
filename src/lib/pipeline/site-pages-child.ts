// The Astro process behind startSitePages: loads Astro at once, renders the one job it is sent, answers and ends.
import { errorReport } from '../errors.ts';
import type { ProcessUsage, SitePagesJob, SitePagesReply } from './site-pages-process.ts';
import { renderSitePages } from './site-pages.ts';

const astro = import('astro');
// A failure to load is answered when the job comes.
astro.catch(() => {});

function usage(): ProcessUsage {
  const { maxRSS, userCPUTime, systemCPUTime } = process.resourceUsage();
  return { peakRssMb: Math.round(maxRSS / 1024), cpuSeconds: (userCPUTime + systemCPUTime) / 1e6, kernelSeconds: systemCPUTime / 1e6 };
}

// The build that started this process is gone: nothing is left to render for.
process.on('disconnect', () => process.exit(1));
process.once('message', async (job: SitePagesJob) => {
  let reply: SitePagesReply;
  try {
    await renderSitePages(await astro, job);
    reply = { type: 'rendered', usage: usage() };
  } catch (error) {
    reply = { type: 'failed', report: errorReport(error), usage: usage() };
  }
  // Astro's bundler may keep handles open: the process ends once its answer is sent.
  process.send!(reply, () => process.exit(0));
});
