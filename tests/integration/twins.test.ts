import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { readingOrder, validateRecord, type GarmentRecord, type Links } from '../../src/lib/record/index.ts';
import { serveStaticFiles } from '../../src/lib/serve/static-files.ts';
import { linksFor } from '../../src/lib/site/links.ts';
import { footnoteLabels } from '../../src/lib/site/markdown.ts';
import { signPayload } from '../../src/lib/webhooks/index.ts';
import { nodesOf, pageText, parseTwin, textOf } from '../support/markdown.ts';
import { hostileRecords, projectRoot, sampleRecords } from '../support/records.ts';
import { node } from '../support/run.ts';
import { sharedSite } from '../support/shared-site.ts';
import { decodeHtml, examplesOf } from '../support/docs-examples.ts';

const SITE = 'https://garments.example.org';
const samples = sampleRecords();
/** Every record of the site: the samples, whose twins are checked one by one, and the hostile fixture. */
const siteRecords = [...samples, ...hostileRecords()];
const published = new Set(siteRecords.map(({ record }) => `${record.slug}/${record.projection}`));
let out: string;

/** The file a URL of the site is served from, or null for an address outside the site. */
function fileOf(url: string): string | null {
  if (!url.startsWith(`${SITE}/`)) return null;
  const sitePath = decodeURIComponent(new URL(url).pathname);
  return path.join(out, sitePath.endsWith('/') ? `${sitePath}index.html` : sitePath);
}

function read(sitePath: string): string {
  return readFileSync(path.join(out, sitePath), 'utf8');
}

function expectedLinks(record: GarmentRecord): Links {
  const other = record.projection === 'svc' ? 'tech' : 'svc';
  return linksFor(record, SITE, published.has(`${record.slug}/${other}`));
}

beforeAll(async () => {
  const shared = await sharedSite('samples-and-hostile');
  expect(shared.site).toBe(SITE);
  out = shared.dist;
}, 300_000);

describe.each(samples.map(({ file, record }) => [file, record] as const))('%s', (file, record) => {
  const base = `/garments/${record.slug}/${record.projection}`;

  it('is published as JSON: the input with links filled, same keys in the same order, valid, 2-space, trailing newline', () => {
    const text = read(`${base}.json`);
    const json = JSON.parse(text) as GarmentRecord;
    expect(text).toBe(`${JSON.stringify(json, null, 2)}\n`);
    expect(json.links).toEqual(expectedLinks(record));
    // Same serialisation with the input's links put back: same keys, same order, same values, all the way down.
    expect(JSON.stringify({ ...json, links: record.links })).toBe(JSON.stringify(record));
    expect(validateRecord(json, file)).toEqual([]);
  });

  it('has links that point to files in the output', () => {
    const { links } = JSON.parse(read(`${base}.json`)) as GarmentRecord;
    for (const [key, url] of Object.entries(links)) {
      if (url === null) continue;
      const target = fileOf(url);
      expect(target, `${key}: ${url}`).not.toBeNull();
      expect(existsSync(target!), `${key}: ${url} → ${target}`).toBe(true);
    }
  });

  it('is published as Markdown that parses as GFM with every text block, every claim and the same links', () => {
    const { frontMatter, tree } = parseTwin(read(`${base}.md`));
    expect(frontMatter.links).toEqual(expectedLinks(record));
    expect(frontMatter).toMatchObject({
      schema_version: record.schema_version,
      slug: record.slug,
      projection: record.projection,
      record_revision: record.record_revision,
    });
    expectBlocksAsOnPage(tree, record);
    const definitions = new Set(nodesOf(tree, 'footnoteDefinition').map((d) => d.identifier));
    for (const label of footnoteLabels(record.claims.map((c) => c.id)).values())
      expect(definitions.has(label.toLowerCase()), label).toBe(true);
    expect(nodesOf(tree, 'html')).toEqual([]);
  });

  it('has a page whose head names both twins and carries valid JSON-LD, and whose body links to both twins, opened in the browser (no forced download)', () => {
    const html = read(`${base}/index.html`);
    const links = expectedLinks(record);
    expect(html).toContain(`<link rel="alternate" type="application/json" href="${links.json}">`);
    expect(html).toContain(`<link rel="alternate" type="text/markdown" href="${links.markdown}">`);
    const scripts = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    const ld = JSON.parse(scripts[0]!);
    expect(ld).toMatchObject({ '@context': 'https://schema.org', '@type': 'Dataset', url: links.page });
    expect(ld.distribution.map((d: { contentUrl: string }) => d.contentUrl)).toEqual([links.json, links.markdown]);
    expect(html).toContain(`<a href="${base}.json">JSON</a>`);
    expect(html).toContain(`<a href="${base}.md">Markdown</a>`);
    expect(html).not.toMatch(/<a [^>]*\bdownload\b/);
  });
});

/** Every text block of the record reads in the twin's paragraphs or headings as on its page. */
function expectBlocksAsOnPage(tree: Parameters<typeof nodesOf>[0], record: GarmentRecord): void {
  const texts = [...nodesOf(tree, 'paragraph'), ...nodesOf(tree, 'heading')].map(textOf);
  for (const { pointer, block } of readingOrder(record))
    expect(
      texts.some((t) => t.includes(pageText(block.text))),
      pointer,
    ).toBe(true);
}

describe.each(hostileRecords().map(({ file, record }) => [file, record] as const))('%s (hostile)', (_, record) => {
  it('has a Markdown twin in which every text block reads as on its page, with no HTML and no block of record text', () => {
    const { tree } = parseTwin(read(`/garments/${record.slug}/${record.projection}.md`));
    expectBlocksAsOnPage(tree, record);
    expect(nodesOf(tree, 'html')).toEqual([]);
    // Record text never starts a block: the title is the one h1, and no code block opens.
    expect(nodesOf(tree, 'heading').filter((heading) => heading.depth === 1)).toHaveLength(1);
    expect(nodesOf(tree, 'code')).toEqual([]);
  });
});

describe('site-wide files', () => {
  it('publishes the schema byte for byte', () => {
    expect(read('/schema/garment-access-2.4.0.json')).toBe(
      readFileSync(path.join(projectRoot, 'src/schema/garment-access-2.4.0.schema.json'), 'utf8'),
    );
  });

  it('lists exactly the published records in records.json, with their links', () => {
    const index = JSON.parse(read('/records.json')) as {
      count: number;
      records: { slug: string; projection: 'svc' | 'tech'; links: Links; record_revision: string }[];
    };
    expect(index.records.map((r) => `${r.slug}/${r.projection}`).sort()).toEqual([...published].sort());
    expect(index.count).toBe(siteRecords.length);
    for (const entry of index.records) {
      const { record } = siteRecords.find((s) => s.record.slug === entry.slug && s.record.projection === entry.projection)!;
      expect(entry.links).toEqual(expectedLinks(record));
      expect(entry.record_revision).toBe(record.record_revision);
    }
  });

  it('lists every HTML page in the sitemap, with absolute URLs', () => {
    const xml = read('/sitemap.xml');
    const urls = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    const pages = readdirSync(out, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.html') && name !== '404.html')
      .map((name) => `${SITE}/${name.replace(/(^|\/)index\.html$/, '$1').replace(/\\/g, '/')}`);
    expect(urls.sort()).toEqual(pages.sort());
    for (const { record } of siteRecords) expect(urls).toContain(`${SITE}/garments/${record.slug}/${record.projection}/`);
  });

  it('lets crawlers read every page in robots.txt, and names the sitemap by its absolute URL', () => {
    expect(read('/robots.txt')).toBe(`User-agent: *\nAllow: /\n\nSitemap: ${SITE}/sitemap.xml\n`);
  });

  it('lists every Markdown twin, the docs and the schema in llms.txt', () => {
    const text = read('/llms.txt');
    expect(text).toMatch(/^# .+\n\n> .+/);
    for (const { record } of siteRecords) expect(text).toContain(`(${SITE}/garments/${record.slug}/${record.projection}.md)`);
    for (const sitePath of ['/docs/api/', '/docs/webhooks/', '/docs/mcp/', '/schema/garment-access-2.4.0.json'])
      expect(text).toContain(`(${SITE}${sitePath})`);
  });

  it('serves every twin and site file with its content type when previewed', async () => {
    const server = await serveStaticFiles(out);
    try {
      const { record } = samples[0]!;
      const expected: [string, string][] = [
        [`/garments/${record.slug}/${record.projection}.json`, 'application/json; charset=utf-8'],
        [`/garments/${record.slug}/${record.projection}.md`, 'text/markdown; charset=utf-8'],
        [`/garments/${record.slug}/${record.projection}/`, 'text/html; charset=utf-8'],
        ['/records.json', 'application/json; charset=utf-8'],
        ['/schema/garment-access-2.4.0.json', 'application/json; charset=utf-8'],
        ['/llms.txt', 'text/plain; charset=utf-8'],
        ['/robots.txt', 'text/plain; charset=utf-8'],
        ['/sitemap.xml', 'application/xml; charset=utf-8'],
        ['/docs/api/', 'text/html; charset=utf-8'],
      ];
      for (const [sitePath, type] of expected) {
        const response = await fetch(`${server.url}${sitePath}`);
        expect(response.status, sitePath).toBe(200);
        expect(response.headers.get('content-type'), sitePath).toBe(type);
        await response.arrayBuffer();
      }
    } finally {
      await server.close();
    }
  });
});

describe('documentation pages', () => {
  it.each(['/docs/api/', '/docs/webhooks/', '/docs/mcp/'])('%s has one h1 and headings that never skip a level', (sitePath) => {
    const html = read(`${sitePath}index.html`);
    const levels = [...html.matchAll(/<h([1-6])[\s>]/g)].map((m) => Number(m[1]));
    expect(levels.filter((level) => level === 1)).toHaveLength(1);
    expect(levels[0]).toBe(1);
    levels.slice(1).forEach((level, i) => expect(level, `heading ${i + 2}`).toBeLessThanOrEqual(levels[i]! + 1));
    // No script but structured data and the site's own files (the Copy buttons, failed pictures): nothing inline.
    expect(html).not.toMatch(/<script(?![^>]*type="application\/ld\+json")(?! src="\/scripts\/(?:code-copy|images)\.js" defer><\/script>)/);
  });

  it('documents a Node verification that accepts the service signature and rejects tampering, old and future times', async () => {
    const examples = examplesOf(read('/docs/webhooks/index.html'));
    const dir = mkdtempSync(path.join(tmpdir(), 'verify-example-'));
    try {
      writeFileSync(path.join(dir, 'verify.mjs'), examples.get('verify.mjs')!);
      const { verifyDelivery } = (await import(path.join(dir, 'verify.mjs'))) as {
        verifyDelivery: (body: Buffer, header: string | undefined, secrets: string[], now?: number) => boolean;
      };
      const body = Buffer.from('{"event":"publish.completed","handle":"6f1c2b0e-3a4d-4e5f-8a9b-0c1d2e3f4a5b","data":{"é":"ü"}}');
      const secret = 'whsec_test-secret';
      const t = 1_767_225_600;
      const header = signPayload(secret, t, body);
      expect(verifyDelivery(body, header, [secret], t)).toBe(true);
      expect(verifyDelivery(body, header, ['whsec_new-secret', secret], t + 300)).toBe(true);
      expect(verifyDelivery(body, `${header},v1=${'0'.repeat(64)}`, [secret], t)).toBe(true);
      expect(verifyDelivery(body, `t=${t},v1=${'0'.repeat(64)},${header.split(',')[1]}`, [secret], t)).toBe(true);
      expect(verifyDelivery(body, header, [secret], t + 301)).toBe(false);
      expect(verifyDelivery(body, header, [secret], t + 300.5)).toBe(false);
      expect(verifyDelivery(body, header, [secret], t - 301)).toBe(false);
      expect(verifyDelivery(Buffer.concat([body, Buffer.from(' ')]), header, [secret], t)).toBe(false);
      expect(verifyDelivery(body, header, [secret.slice('whsec_'.length)], t)).toBe(false);
      expect(verifyDelivery(body, undefined, [secret], t)).toBe(false);
      expect(verifyDelivery(body, header.replace('v1=', 'v0='), [secret], t)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('documents a worked signature example that the service signs identically', () => {
    const html = read('/docs/webhooks/index.html');
    const block = (label: string) => decodeHtml(new RegExp(`aria-label="${label}"[^>]*><code[^>]*>([\\s\\S]*?)</code>`).exec(html)![1]!);
    const [, secret, t] = /signed with the secret <code>(whsec_[^<]+)<\/code> at <code>t=(\d+)<\/code>/.exec(html)!;
    const message = block('The signed message \\(one line\\)');
    expect(message.startsWith(`${t}.`)).toBe(true);
    const header = block('The resulting X-Svc-Signature header value');
    expect(signPayload(secret!, Number(t), message.slice(`${t}.`.length))).toBe(header);
    expect(block('A complete delivery')).toContain(`X-Svc-Signature: ${header}\n`);
  });

  it('documents a Node mirror script that copies every record and its twin', async () => {
    const examples = examplesOf(read('/docs/api/index.html'));
    const dir = mkdtempSync(path.join(tmpdir(), 'mirror-example-'));
    const server = await serveStaticFiles(out);
    try {
      writeFileSync(path.join(dir, 'mirror.mjs'), examples.get('mirror.mjs')!);
      // The records' links name the public site; this stand-in sends those requests to the local preview.
      writeFileSync(
        path.join(dir, 'local-site.mjs'),
        `const real = globalThis.fetch;\nglobalThis.fetch = (url, init) => real(String(url).replace(${JSON.stringify(SITE)}, process.env.LOCAL_SITE), init);\n`,
      );
      const run = () =>
        promisify(execFile)(node, ['--import', './local-site.mjs', 'mirror.mjs', `${SITE}/`, 'copy'], {
          cwd: dir,
          env: { ...process.env, LOCAL_SITE: server.url },
        });
      const first = await run();
      expect(first.stdout.match(/^fetched /gm)).toHaveLength(siteRecords.length);
      for (const { record } of siteRecords) {
        const name = `garments/${record.slug}/${record.projection}`;
        expect(readFileSync(path.join(dir, 'copy', `${name}.json`), 'utf8')).toBe(read(`/${name}.json`));
        expect(readFileSync(path.join(dir, 'copy', `${name}.md`), 'utf8')).toBe(read(`/${name}.md`));
      }
      const second = await run();
      expect(second.stdout).toBe('');
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
