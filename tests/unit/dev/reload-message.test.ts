import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { messageForPage, serverSentEvent, siteProblemsOf } from '../../../src/lib/dev/reload-message.ts';

const PROBLEMS = { summary: '1 error in 1 record file; this is the last good site.', problems: [] };

describe('messageForPage', () => {
  it('tells a page whose file changed, or is gone, to reload', () => {
    expect(messageForPage({ version: 'a', shows: undefined }, { version: 'b', problems: undefined })).toEqual({ event: 'reload' });
    expect(messageForPage({ version: 'a', shows: PROBLEMS }, { version: undefined, problems: PROBLEMS })).toEqual({ event: 'reload' });
  });

  it('shows the last build’s problems on a page that is up to date, once', () => {
    expect(messageForPage({ version: 'a', shows: undefined }, { version: 'a', problems: PROBLEMS })).toEqual({
      event: 'problems',
      data: PROBLEMS,
    });
    expect(messageForPage({ version: 'a', shows: PROBLEMS }, { version: 'a', problems: PROBLEMS })).toBeUndefined();
    const later = { ...PROBLEMS, summary: '2 errors in 1 record file; this is the last good site.' };
    expect(messageForPage({ version: 'a', shows: PROBLEMS }, { version: 'a', problems: later })).toEqual({
      event: 'problems',
      data: later,
    });
  });

  it('takes the problems down once the site builds, and says nothing to a page with nothing new', () => {
    expect(messageForPage({ version: 'a', shows: PROBLEMS }, { version: 'a', problems: undefined })).toEqual({ event: 'clear' });
    expect(messageForPage({ version: 'a', shows: undefined }, { version: 'a', problems: undefined })).toBeUndefined();
  });
});

describe('serverSentEvent', () => {
  it('writes one event with its data as JSON on one line', () => {
    expect(serverSentEvent({ event: 'reload' })).toBe('event: reload\ndata: {}\n\n');
    const problems = { summary: 'two\nlines', problems: [{ file: 'a.json', pointer: '/x', message: 'expected "a"\ngot "b"' }] };
    expect(serverSentEvent({ event: 'problems', data: problems })).toBe(`event: problems\ndata: ${JSON.stringify(problems)}\n\n`);
    expect(serverSentEvent({ event: 'problems', data: problems }).split('\n')).toHaveLength(4);
  });
});

describe('siteProblemsOf', () => {
  const cwd = path.resolve('/work/site');

  it('lists each record error with its file as the developer names it, its pointer and what was expected', () => {
    const found = siteProblemsOf(
      {
        output: 'build stopped: 2 error(s) in the records',
        problems: [
          {
            severity: 'error',
            file: path.join(cwd, 'records/tee.svc.json'),
            pointer: '/page/title/kind',
            message: 'expected one of "fact"',
          },
          { severity: 'warning', file: path.join(cwd, 'records/tee.svc.json'), pointer: '/page', message: 'long' },
          { severity: 'error', file: path.resolve('/elsewhere/b.tech.json'), pointer: '', message: 'expected JSON' },
        ],
      },
      cwd,
    );
    expect(found).toEqual({
      summary: '2 errors in 2 record files; this is the last good site.',
      problems: [
        { file: path.join('records', 'tee.svc.json'), pointer: '/page/title/kind', message: 'expected one of "fact"' },
        { file: path.resolve('/elsewhere/b.tech.json'), pointer: '', message: 'expected JSON' },
      ],
    });
  });

  it('shows the end of the output of a build that failed for another reason', () => {
    const output = Array.from({ length: 40 }, (_, line) => `line ${line + 1}`).join('\n');
    const found = siteProblemsOf({ output }, cwd);
    expect(found.summary).toBe('The build failed; this is the last good site.');
    expect(found.detail?.split('\n')).toHaveLength(30);
    expect(found.detail?.endsWith('line 40')).toBe(true);
  });
});
