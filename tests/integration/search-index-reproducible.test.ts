// Two builds of the same records write the same search files, whichever record thread makes its garment's page first.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSearchIndex, pageFromRecord } from '../../src/lib/search/index/index-site.ts';
import type { SearchRecord } from '../../src/lib/search/index/search-record.ts';
import { siteEntryOf, type SiteEntry } from '../../src/lib/site/site-index.ts';
import { projectRoot, sampleRecords } from '../support/records.ts';

/** Every file under a folder, by its path there, with its bytes. */
function filesUnder(dir: string): Map<string, Buffer> {
  return new Map(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => [path.relative(dir, path.join(entry.parentPath, entry.name)), readFileSync(path.join(entry.parentPath, entry.name))]),
  );
}

describe('the search index', () => {
  let work: string;
  const entries = (): SiteEntry[] => sampleRecords().map(({ file, record }) => siteEntryOf(record, path.join(projectRoot, file)));
  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), 'search-reproducible-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('is byte for byte the same when the garments’ pages come in the opposite order', async () => {
    const inOrder = path.join(work, 'in-order');
    await buildSearchIndex(entries(), inOrder, { pageOf: pageFromRecord });

    // Pages asked for are given only once all are asked for, last first: a record thread running ahead of the other.
    const asked: { entry: SiteEntry; give: (page: SearchRecord) => void }[] = [];
    const reversed = path.join(work, 'reversed');
    await buildSearchIndex(entries(), reversed, {
      pageOf: (entry) =>
        new Promise<SearchRecord>((give) => {
          asked.push({ entry, give });
          if (asked.length === entries().length) for (const { entry, give } of asked.reverse()) give(pageFromRecord(entry));
        }),
    });

    const expected = filesUnder(inOrder);
    expect(expected.size).toBeGreaterThan(10);
    expect(filesUnder(reversed)).toEqual(expected);
  }, 120_000);
});
