import { describe, expect, it } from 'vitest';
import { feedItems } from '../../../src/lib/revisions/feeds.ts';
import { siteEntryOf } from '../../../src/lib/site/site-index.ts';
import { sampleRecords } from '../../support/records.ts';

const tee = sampleRecords().find((s) => s.record.slug === 'ridgeline-rk6210-heavyweight-tee' && s.record.projection === 'svc')!.record;

describe('feedItems', () => {
  it('lists a record’s later revision first when two carry the same date: 3 before 2, 10 before 9', () => {
    const revisions = Array.from({ length: 10 }, (_, i) => ({
      number: i + 1,
      recordRevision: `r${i + 1}`,
      // 2 and 3 on one day, 9 and 10 on another.
      publishedAt: `2026-11-${String(i === 2 ? 2 : i === 9 ? 9 : i + 1).padStart(2, '0')}T00:00:00Z`,
      summary: 'changed',
    }));
    const entry = siteEntryOf(tee, 'tee.svc.json', { count: 10, kept: 9, revisions });
    expect(feedItems([entry], 'https://garments.example.org').map((item) => item.id.split('/').at(-1))).toEqual(
      Array.from({ length: 10 }, (_, i) => `${10 - i}.json`),
    );
  });
});
