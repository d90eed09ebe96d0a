import { describe, expect, it } from 'vitest';
import type { CommerceRecord } from '../../../src/lib/record/index.ts';
import { revisionFiles } from '../../../src/lib/revisions/revision-pages.ts';
import { revisionViews } from '../../../src/lib/revisions/revision-view.ts';
import { copyOf, sampleRecords } from '../../support/records.ts';

const tee = sampleRecords().find((s) => s.record.slug === 'ridgeline-rk6210-heavyweight-tee' && s.record.projection === 'svc')!
  .record as CommerceRecord;
const HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)>';

describe('revisionFiles', () => {
  it('escapes record text everywhere a diff shows it: no element or attribute comes from a record', () => {
    const before = copyOf(tee);
    const after = copyOf(tee);
    before.page.sections.overview[0]!.text = `Was ${HOSTILE} before`;
    after.page.sections.overview[0]!.text = `Now ${HOSTILE}"' after`;
    after.claims[0]!.value = HOSTILE;
    after.sources[0]!.title = HOSTILE;
    after.record_revision = HOSTILE;
    const views = revisionViews([Buffer.from(JSON.stringify(before)), Buffer.from(JSON.stringify(after))], after);
    const files = revisionFiles(views, { record: after, site: 'https://garments.example.org', stylesheet: '/styles/site.css' });
    const pages = files.filter((file) => file.sitePath.endsWith('.html')).map((file) => (file.content as string[]).join(''));
    expect(pages).toHaveLength(3);
    for (const page of pages) {
      expect(page).not.toContain('<script>');
      expect(page).not.toContain('<img src=x');
    }
    // The history (its record revision) and what revision 2 changed (text, claim, source) show the text, escaped.
    expect(pages.filter((page) => page.includes('&lt;script&gt;alert(1)&lt;/script&gt;'))).toHaveLength(2);
    expect(files.find((file) => file.sitePath.endsWith('/revisions/2.json'))!.content).toEqual(Buffer.from(JSON.stringify(after)));
  });

  it('lists a revision that cannot be read, and says it cannot be compared, rather than failing the build', () => {
    const views = revisionViews([Buffer.from('{"not": "a record"'), Buffer.from(JSON.stringify(tee))], tee);
    expect(views.map((view) => view.number)).toEqual([1, 2]);
    expect(views[1]!.changes).toBeNull();
    expect(views[1]!.summary).toMatch(/^Could not be compared: /);
  });
});
