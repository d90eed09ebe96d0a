import { describe, expect, it } from 'vitest';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { PublishedRecord, PublishedSite } from '../../../src/lib/mcp/published-site.ts';
import { listResources, readResource } from '../../../src/lib/mcp/resources.ts';

const SITE = 'https://garments.example/';

/** A site of `count` records held in memory: enough to page through. */
function siteOf(count: number): PublishedSite {
  const records: PublishedRecord[] = Array.from({ length: count }, (_, i) => ({
    slug: `tee-${i}`,
    projection: 'svc',
    title: `Tee ${i}`,
    category: 'tops',
    brand: 'Ridgeline',
    record_revision: '2026-11-24.1',
    published_at: '2026-11-24T00:00:00Z',
    research_status: 'complete',
    links: { self: `${SITE}garments/tee-${i}/svc.json`, markdown: `${SITE}garments/tee-${i}/svc.md` },
  }));
  return {
    site: async () => SITE,
    records: async () => records,
    readRevision: async () => undefined,
    readRevisions: async () => undefined,
    readTwin: async (slug, projection, format) =>
      records.some((record) => record.slug === slug && record.projection === projection)
        ? {
            url: `${SITE}garments/${slug}/${projection}.${format === 'json' ? 'json' : 'md'}`,
            mimeType: format === 'json' ? 'application/json' : 'text/markdown',
            text: `${slug} ${format}`,
          }
        : undefined,
  };
}

describe('listResources', () => {
  it('lists both twins of every record, 100 a page, each page leading to the next', async () => {
    const site = siteOf(120);
    const first = await listResources(site, undefined);
    expect(first.resources).toHaveLength(100);
    expect(first.resources[0]).toEqual({
      uri: `${SITE}garments/tee-0/svc.json`,
      name: 'tee-0/svc.json',
      title: 'Tee 0 (JSON)',
      description: expect.any(String),
      mimeType: 'application/json',
    });
    expect(first.resources[1]).toMatchObject({ uri: `${SITE}garments/tee-0/svc.md`, mimeType: 'text/markdown' });
    const second = await listResources(site, first.nextCursor);
    const third = await listResources(site, second.nextCursor);
    expect([second.resources.length, third.resources.length]).toEqual([100, 40]);
    expect(third.nextCursor).toBeUndefined();
    expect(new Set([...first.resources, ...second.resources, ...third.resources].map((resource) => resource.uri)).size).toBe(240);
  });

  it('refuses a cursor it did not give with invalid params', async () => {
    await expect(listResources(siteOf(3), 'garbage')).rejects.toMatchObject({ code: ProtocolErrorCode.InvalidParams });
  });
});

describe('readResource', () => {
  it('reads a twin by its address on the site', async () => {
    expect(await readResource(siteOf(2), `${SITE}garments/tee-1/svc.md`)).toEqual({
      contents: [{ uri: `${SITE}garments/tee-1/svc.md`, mimeType: 'text/markdown', text: 'tee-1 markdown' }],
    });
  });

  it.each([
    ['a record not published', `${SITE}garments/tee-9/svc.json`],
    ['another host', 'https://elsewhere.example/garments/tee-1/svc.json'],
    ['another path', `${SITE}garments/tee-1/svc/`],
    ['a query', `${SITE}garments/tee-1/svc.json?x=1`],
    ['not a URL', 'tee-1/svc.json'],
  ])('answers resource not found (-32602 with the uri, as 2026-07-28 asks) for %s', async (_, uri) => {
    await expect(readResource(siteOf(2), uri)).rejects.toMatchObject({ code: -32602, data: { uri } });
  });
});
