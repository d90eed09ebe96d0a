import { describe, expect, it } from 'vitest';
import { isSiteChange, rebuildLine } from '../../../src/lib/dev/watched-change.ts';

describe('isSiteChange', () => {
  it('takes a record file, any file of the code and any file of public/', () => {
    expect(isSiteChange('record', 'tee.svc.json')).toBe(true);
    expect(isSiteChange('record', 'jackets/field.tech.json')).toBe(true);
    expect(isSiteChange('code', 'components/GarmentCard.astro')).toBe(true);
    expect(isSiteChange('public', 'scripts/record-page.js')).toBe(true);
  });

  it('leaves out the revisions archive the build writes into the records folder, so a build does not start another', () => {
    expect(isSiteChange('record', '.revisions/tee.svc/1.json')).toBe(false);
  });

  it("leaves out editors' swap, backup and probe files, and files in the records folder that are not records", () => {
    expect(isSiteChange('code', 'lib/site/.page-view.ts.swp')).toBe(false);
    expect(isSiteChange('code', 'lib/site/page-view.ts~')).toBe(false);
    expect(isSiteChange('code', 'lib/site/4913')).toBe(false);
    expect(isSiteChange('record', 'notes.txt')).toBe(false);
  });
});

describe('rebuildLine', () => {
  it('says a changed record renders its garment again', () => {
    expect(rebuildLine([{ kind: 'record', file: 'records/tee.svc.json' }])).toBe(
      'records/tee.svc.json changed: rendering its garment again',
    );
  });

  it('names the first of several files', () => {
    expect(
      rebuildLine([
        { kind: 'record', file: 'records/a.svc.json' },
        { kind: 'record', file: 'records/b.svc.json' },
        { kind: 'record', file: 'records/a.svc.json' },
      ]),
    ).toBe('2 files (records/a.svc.json, …) changed: rendering their garments again');
  });

  it('says a change of code or of public/ renders every page again', () => {
    expect(rebuildLine([{ kind: 'code', file: 'src/styles/global.css' }])).toBe(
      'src/styles/global.css changed: the code changed, so every page is rendered again',
    );
    expect(
      rebuildLine([
        { kind: 'record', file: 'records/a.svc.json' },
        { kind: 'public', file: 'public/favicon.svg' },
      ]),
    ).toBe('2 files (records/a.svc.json, …) changed: public/ changed, so every page is rendered again');
  });
});
