import { counted } from '../counted.ts';
import type { Problem } from '../record/index.ts';
import { displayedPath } from './displayed-path.ts';

/** Why the last build failed, as an open page shows it over the last good site. */
export interface SiteProblems {
  /** One line: what failed, and that the last good site is still served. */
  summary: string;
  /** Each record problem: the file as the developer names it, the JSON pointer, what was expected. */
  problems?: { file: string; pointer: string; message: string }[];
  /** The end of the build's output, when it failed for another reason than its records. */
  detail?: string;
}

/** What an open page is told over its event stream. */
export type ReloadMessage = { event: 'reload' } | { event: 'problems'; data: SiteProblems } | { event: 'clear' };

/** An open page as the development server knows it: the version it shows, and the problems it shows, if any. */
export interface OpenPage {
  version: string;
  shows: SiteProblems | undefined;
}

/**
 * What to tell an open page about the site as it now is: to reload when its file changed (or is
 * gone, `version` undefined), else the last build's problems while there are any and it does not
 * show them yet, else to take down the problems it shows; nothing when it is up to date.
 */
export function messageForPage(
  page: OpenPage,
  site: { version: string | undefined; problems: SiteProblems | undefined },
): ReloadMessage | undefined {
  if (site.version !== page.version) return { event: 'reload' };
  if (site.problems) return page.shows === site.problems ? undefined : { event: 'problems', data: site.problems };
  return page.shows ? { event: 'clear' } : undefined;
}

/**
 * A message as one Server-Sent Event; JSON keeps its data on one line.
 * @example serverSentEvent({ event: 'reload' }) → 'event: reload\ndata: {}\n\n'
 */
export function serverSentEvent(message: ReloadMessage): string {
  return `event: ${message.event}\ndata: ${JSON.stringify('data' in message ? message.data : {})}\n\n`;
}

/** Lines of a failed build's output shown on the page. */
const DETAIL_LINES = 30;

/**
 * A failed build's problems as a page shows them: its record errors with each file relative to
 * `cwd` (as the developer names it), or the end of its output when it failed otherwise.
 */
export function siteProblemsOf(build: { problems?: Problem[]; output: string }, cwd: string): SiteProblems {
  const problems = (build.problems ?? [])
    .filter((problem) => problem.severity === 'error')
    .map(({ file, pointer, message }) => ({ file: displayedPath(file, cwd), pointer, message }));
  if (problems.length === 0) {
    return {
      summary: 'The build failed; this is the last good site.',
      detail: build.output.split('\n').slice(-DETAIL_LINES).join('\n'),
    };
  }
  const files = new Set(problems.map((problem) => problem.file)).size;
  return { summary: `${counted(problems.length, 'error')} in ${counted(files, 'record file')}; this is the last good site.`, problems };
}
