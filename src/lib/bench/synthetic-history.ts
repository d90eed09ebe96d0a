import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { GarmentRecord } from '../record/types.ts';
import { revisionsFolder } from '../revisions/archive.ts';
import { linksFor } from '../site/links.ts';
import { publishedJson } from '../site/published-json.ts';

/**
 * Gives every record of a synthetic records folder `earlier` revisions before its own, as a build
 * would have kept them (src/lib/revisions/archive.ts): each an older date and record revision, its
 * first text block worded otherwise and, on a commerce record, its first offer priced otherwise.
 */
export async function writeSyntheticHistory(recordsDir: string, earlier: number, site: string): Promise<void> {
  const names = (await readdir(recordsDir)).filter((name) => name.endsWith('.json'));
  const keys = new Set(names.map((name) => name.replace(/\.json$/, '')));
  for (let start = 0; start < names.length; start += 64) {
    await Promise.all(
      names.slice(start, start + 64).map(async (name) => {
        const text = await readFile(path.join(recordsDir, name), 'utf8');
        const record = JSON.parse(text) as GarmentRecord;
        const other = `${record.slug}.${record.projection === 'svc' ? 'tech' : 'svc'}`;
        const links = linksFor(record, site, keys.has(other));
        const folder = revisionsFolder(recordsDir, record.slug, record.projection);
        await mkdir(folder, { recursive: true });
        for (let number = 1; number <= earlier; number++) {
          const before = structuredClone(record);
          const back = earlier + 1 - number;
          before.record_revision = `${record.record_revision}-earlier-${number}`;
          before.published_at = new Date(Date.parse('2026-10-01T00:00:00Z') - back * 86_400_000).toISOString();
          const block = before.page.sections.overview[0];
          if (block) block.text = `${block.text} (Wording of revision ${number}.)`;
          const offer = before.projection === 'svc' ? before.data.offers[0] : undefined;
          if (offer?.base_amount_minor != null) offer.base_amount_minor += 25 * back;
          await writeFile(path.join(folder, `${number}.json`), publishedJson(Buffer.from(`${JSON.stringify(before, null, 2)}\n`), links));
        }
      }),
    );
  }
}
