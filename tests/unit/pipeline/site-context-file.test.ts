import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSiteContext, type SiteContext, writeSiteContext } from '../../../src/lib/pipeline/site-context-file.ts';
import { siteEntryOf } from '../../../src/lib/site/site-index.ts';
import { hostileRecords, sampleRecords } from '../../support/records.ts';

const entries = [...sampleRecords(), ...hostileRecords()].map(({ file, record }) => siteEntryOf(record, file));

describe('writeSiteContext and readSiteContext', () => {
  it('give back the context written, its fields on one line and an entry a line', async () => {
    const context: SiteContext = {
      site: 'https://shop.example',
      entries,
      renderedSlugs: [entries[0]!.slug],
      keptPages: ['/categories/tops/'],
    };
    const file = await writeSiteContext(mkdtempSync(path.join(tmpdir(), 'site-context-')), context);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines).toHaveLength(entries.length + 2);
    expect(JSON.parse(lines[0]!)).toEqual({
      site: 'https://shop.example',
      renderedSlugs: [entries[0]!.slug],
      keptPages: ['/categories/tops/'],
    });
    expect(readSiteContext(file)).toEqual(JSON.parse(JSON.stringify(context)));
  });

  it('give back a context with no entries and every garment rendered', async () => {
    const context: SiteContext = { site: 'https://shop.example', entries: [], renderedSlugs: null, keptPages: [] };
    const file = await writeSiteContext(mkdtempSync(path.join(tmpdir(), 'site-context-')), context);
    expect(readSiteContext(file)).toEqual(context);
  });
});
