import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GarmentRecord } from '../../src/lib/record/index.ts';
import { openPublishedSite } from '../../src/lib/mcp/published-site.ts';
import { readTools } from '../../src/lib/mcp/read-tools.ts';
import { openSiteSearch } from '../../src/lib/mcp/site-search.ts';
import { listResources, readResource } from '../../src/lib/mcp/resources.ts';
import { projectRoot } from '../support/records.ts';
import { runCli } from '../support/run.ts';

const SLUG = 'ridgeline-rk6210-heavyweight-tee';

describe('a build keeps the revisions its records replace', () => {
  let work: string;
  let records: string;
  let out: string;
  const build = () => {
    const result = runCli('build.ts', ['--records', records, '--out', out, '--site', 'https://garments.example.org']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  };
  const recordFile = () => path.join(records, `${SLUG}.svc.json`);
  const published = () => readFileSync(path.join(out, 'garments', SLUG, 'svc.json'));
  const archive = () => path.join(records, '.revisions', `${SLUG}.svc`);
  const kept = () => (existsSync(archive()) ? readdirSync(archive()).sort() : []);
  const edit = (change: (record: GarmentRecord) => void) => {
    const record = JSON.parse(readFileSync(recordFile(), 'utf8'));
    change(record);
    writeFileSync(recordFile(), JSON.stringify(record, null, 2));
  };

  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), 'revisions-'));
    records = path.join(work, 'records');
    out = path.join(work, 'dist');
    cpSync(path.join(projectRoot, 'records'), records, { recursive: true });
    build();
  });

  it('keeps the bytes published before when a record changes, numbered from the last kept', { timeout: 120_000 }, () => {
    const before = kept();
    const first = published();
    edit((record) => {
      record.record_revision = 'r-next';
      record.page.sections.overview.push({ text: 'Now sold in a recycled mailer.', claim_ids: [], kind: 'fact' });
    });
    build();
    const after = kept();
    expect(after).toEqual([...before, `${before.length + 1}.json`]);
    expect(readFileSync(path.join(archive(), after.at(-1)!)).equals(first)).toBe(true);

    const revisions = path.join(out, 'garments', SLUG, 'svc', 'revisions');
    const latest = after.length + 1;
    expect(readFileSync(path.join(revisions, `${latest - 1}.json`)).equals(first)).toBe(true);
    expect(readFileSync(path.join(revisions, `${latest}.json`)).equals(published())).toBe(true);
    const history = readFileSync(path.join(revisions, 'index.html'), 'utf8');
    expect(history.indexOf(`Revision ${latest}`)).toBeLessThan(history.indexOf(`Revision ${latest - 1}`));
    const diff = readFileSync(path.join(revisions, String(latest), 'index.html'), 'utf8');
    expect(diff).toContain('<ins><span class="visually-hidden">[added: </span>Now sold in a recycled mailer.');
  });

  // Three builds in one test: a build takes seconds, many more on a loaded machine.
  it('keeps nothing when no record changed, or when only its links or its file time did', { timeout: 180_000 }, () => {
    const before = kept();
    build();
    edit((record) => {
      record.links.self = 'https://elsewhere.example/x.json';
    });
    build();
    writeFileSync(recordFile(), readFileSync(recordFile()));
    build();
    expect(kept()).toEqual(before);
  });

  it('gives MCP clients the revisions: garments.list_revisions, garments.get_record with a revision, and each revision as a resource', async () => {
    const published = openPublishedSite(out);
    const tools = readTools({ published, search: openSiteSearch(out) });
    const run = (name: string, args: Record<string, unknown>) => tools.find((tool) => tool.name === name)!.run(args, {} as never);
    const listed = await run('garments.list_revisions', { slug: SLUG, projection: 'svc' });
    expect(listed.ok).toBe(true);
    const history = (listed as unknown as { result: { count: number; revisions: { number: number; json: string }[] } }).result;
    expect(history.revisions.map((revision) => revision.number)).toEqual(
      Array.from({ length: history.count }, (_, i) => history.count - i),
    );
    const first = await run('garments.get_record', { slug: SLUG, projection: 'svc', revision: 1 });
    expect((first as unknown as { result: { text: string } }).result.text).toBe(
      readFileSync(path.join(out, 'garments', SLUG, 'svc', 'revisions', '1.json'), 'utf8'),
    );
    expect(await run('garments.get_record', { slug: SLUG, projection: 'svc', revision: history.count + 1 })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    const resource = await readResource(published, history.revisions.at(-1)!.json);
    expect(resource.contents[0]).toHaveProperty(
      'text',
      readFileSync(path.join(out, 'garments', SLUG, 'svc', 'revisions', '1.json'), 'utf8'),
    );
    const listedResources = await listResources(published, undefined);
    expect(listedResources.resources.map((r) => r.uri)).toContain(`https://garments.example.org/garments/${SLUG}/svc/revisions/1.json`);
  });

  it('is not read as records by the validator', () => {
    const result = runCli('validate.ts', [records]);
    expect(result.status).toBe(0);
    expect(result.stdout + result.stderr).not.toContain('.revisions');
  });
});
