// End to end: three revisions of one record published through the real service (serve as a process,
// real builds), then its history, each revision's JSON, the diff of the last and the feeds, as a reader and a feed reader get them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommerceRecord } from '../../src/lib/record/index.ts';
import { projectRoot } from '../support/records.ts';
import { checkAtom, checkJsonFeed } from '../support/feeds.ts';
import { call, serviceWorkspace, startServe, stopServe, type Organization, type ServeProcess } from './publish/support.ts';

const SLUG = 'revised-tee';
let service: ServeProcess;
let acme: Organization;
/** The JSON twin as the site served it after each publish. */
const served: Buffer[] = [];

/** Publishes a record and waits for its task to end; fails the test unless it completed. */
async function publishAndWait(record: CommerceRecord): Promise<void> {
  const answer = await call(service.url, '/api/publish', { key: acme.key, body: { record } });
  expect(answer.status, answer.text).toBe(202);
  for (;;) {
    const status = await call(service.url, `/api/generations/${answer.json().handle}?wait=50`, { key: acme.key });
    if (status.json().done) {
      expect(status.json().status, status.text).toBe('complete');
      return;
    }
  }
}

async function bytesOf(sitePath: string): Promise<Buffer> {
  const response = await fetch(`${service.url}${sitePath}`);
  expect(response.status, sitePath).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

const text = async (sitePath: string) => (await bytesOf(sitePath)).toString('utf8');

beforeAll(async () => {
  const workspace = await serviceWorkspace('revisions-service-', ['Acme']);
  acme = workspace.organizations[0]!;
  service = await startServe(['--records', workspace.recordsDir, '--out', workspace.outDir, '--data', workspace.dataDir], {
    ...process.env,
    SITE_URL: 'https://garments.example',
  });
  const record = JSON.parse(
    readFileSync(path.join(projectRoot, 'records', 'ridgeline-rk6210-heavyweight-tee.svc.json'), 'utf8'),
  ) as CommerceRecord;
  record.slug = SLUG;
  const pricing = record.page.sections.standard_pricing;
  const offer = record.data.offers.find((o) => o.id === 'offer-podtwo-start')!;
  const revisions = [
    { revision: 'r1', at: '2026-11-01T09:00:00Z', shipping: '$4.50', price: 1195 },
    { revision: 'r2', at: '2026-11-05T09:00:00Z', shipping: '$4.50', price: 1195 },
    { revision: 'r3', at: '2026-11-09T09:00:00Z', shipping: '$4.95', price: 1250 },
  ];
  for (const [i, { revision, at, shipping, price }] of revisions.entries()) {
    record.record_revision = revision;
    record.published_at = at;
    pricing[2]!.text = `Standard US shipping is ${shipping} for the first tee and $2.40 for each additional one.`;
    offer.base_amount_minor = price;
    // The second revision changes a claim's verification only.
    record.claims[0]!.verification = i === 0 ? 'source_checked' : 'independently_corroborated';
    await publishAndWait(record);
    served.push(await bytesOf(`/garments/${SLUG}/svc.json`));
  }
}, 300_000);

afterAll(async () => {
  await stopServe(service);
});

describe('a record published three times through the service', () => {
  it('lists all three revisions, newest first, with their record revisions', async () => {
    const history = await text(`/garments/${SLUG}/svc/revisions/`);
    const order = ['Revision 3', 'Revision 2', 'Revision 1'].map((heading) => history.indexOf(`>${heading}</a>`));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    for (const revision of ['r1', 'r2', 'r3']) expect(history).toContain(`<code>${revision}</code>`);
  });

  it('serves each revision’s JSON byte for byte as it was published', async () => {
    for (const [i, bytes] of served.entries())
      expect((await bytesOf(`/garments/${SLUG}/svc/revisions/${i + 1}.json`)).equals(bytes)).toBe(true);
    expect(new Set(served.map((bytes) => bytes.toString('base64'))).size).toBe(3);
  });

  it('says in words what revision 3 changed: the shipping sentence and the price', async () => {
    const page = await text(`/garments/${SLUG}/svc/revisions/3/`);
    expect(page).toContain(
      'Standard US shipping is <del><span class="visually-hidden">[removed: </span>$4.50 <span class="visually-hidden">]</span></del><ins><span class="visually-hidden">[added: </span>$4.95 <span class="visually-hidden">]</span></ins>for the first tee',
    );
    const facts = page.slice(page.indexOf('id="changed-facts"'), page.indexOf('id="changed-text"'));
    expect(facts).toContain('Price');
    expect(facts).toMatch(/Before.*\$11\.95.*After.*\$12\.50/s);
    expect(page).not.toMatch(/"base_amount_minor"|\{"/);
  });

  it('publishes Atom and JSON feeds that validate and list the three revisions newest first', async () => {
    const atom = checkAtom(await text('/feed.xml'));
    expect(atom.problems).toEqual([]);
    const ours = atom.entries.filter((entry) => entry.id.includes(`/garments/${SLUG}/`));
    expect(ours.map((entry) => entry.id.replace(/^.*\/revisions\//, ''))).toEqual(['3.json', '2.json', '1.json']);
    expect(ours[0]!.links).toContainEqual({
      rel: 'alternate',
      type: 'text/html',
      href: `https://garments.example/garments/${SLUG}/svc/revisions/3/`,
    });
    expect(ours[0]!.links).toContainEqual({ rel: 'related', type: 'text/html', href: `https://garments.example/garments/${SLUG}/svc/` });
    const updated = atom.entries.map((entry) => entry.updated);
    expect([...updated].sort().reverse()).toEqual(updated);

    const json = JSON.parse(await text('/feed.json'));
    expect(checkJsonFeed(json)).toEqual([]);
    const items = (json.items as { id: string; url: string }[]).filter((item) => item.id.includes(`/garments/${SLUG}/`));
    expect(items.map((item) => item.url.replace(/^.*\/revisions\//, ''))).toEqual(['3/', '2/', '1/']);

    const garmentFeed = checkAtom(await text(`/garments/${SLUG}/feed.xml`));
    expect(garmentFeed.problems).toEqual([]);
    expect(garmentFeed.entries.map((entry) => entry.id.replace(/^.*\/garments\//, ''))).toEqual([
      `${SLUG}/svc/revisions/3.json`,
      `${SLUG}/svc/revisions/2.json`,
      `${SLUG}/svc/revisions/1.json`,
    ]);
  });
});
