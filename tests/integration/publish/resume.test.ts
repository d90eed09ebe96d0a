// Restarts: what one run of the service leaves unfinished, the next finishes. Real SQLite and
// real HTTP; the site build is a stand-in that can be held open like a slow Astro build.
import { cpSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { openSqlitePublishStore } from '../../../src/lib/publish/index.ts';
import { startPublishService, type PublishServiceOptions } from '../../../src/lib/service/index.ts';
import { projectRoot } from '../../support/records.ts';
import { call, eventually, sampleRecordAs } from './support.ts';

let work: string;
let options: PublishServiceOptions;
let builds: number;

beforeEach(() => {
  work = mkdtempSync(path.join(tmpdir(), 'publish-resume-'));
  cpSync(path.join(projectRoot, 'records'), path.join(work, 'records'), { recursive: true });
  builds = 0;
  options = {
    dataDir: path.join(work, 'data'),
    recordsDir: path.join(work, 'records'),
    outDir: path.join(work, 'out'),
    port: 0,
    site: 'https://garments.example',
    gatherMs: 20,
    allowLoopbackCallbacks: true,
    buildSite: async () => {
      builds += 1;
      return { ok: true, output: 'built', seconds: 0 };
    },
    log: () => {},
  };
});

/** An organization and key made in the data folder, as the admin CLI does. */
async function makeOrganization() {
  mkdirSync(options.dataDir, { recursive: true });
  const store = openSqlitePublishStore(path.join(options.dataDir, 'publish.db'));
  try {
    const organization = await store.createOrganization('Acme');
    return { organizationId: organization.id, key: (await store.createApiKey(organization.id)).key };
  } finally {
    await store.close();
  }
}

describe('starting the service again', () => {
  it('finishes tasks a previous run left queued or half-built, with one build', async () => {
    const { organizationId, key } = await makeOrganization();
    // What a crash leaves behind: one task never started, one whose record was written but not built.
    const store = openSqlitePublishStore(path.join(options.dataDir, 'publish.db'));
    const queued = '11111111-1111-4111-8111-111111111111';
    const halfBuilt = '22222222-2222-4222-8222-222222222222';
    const recordText = (slug: string) => `${JSON.stringify(sampleRecordAs(slug), null, 2)}\n`;
    await store.insertTask({
      handle: queued,
      organizationId,
      tool: 'garments.publish',
      callbackUrl: null,
      recordText: recordText('resume-queued'),
    });
    await store.insertTask({
      handle: halfBuilt,
      organizationId,
      tool: 'garments.publish',
      callbackUrl: null,
      recordText: recordText('resume-half-built'),
    });
    await store.setStage(halfBuilt, 'building', { resourceId: 'resume-half-built/svc', buildId: 1 });
    await store.close();

    const service = await startPublishService(options);
    try {
      for (const handle of [queued, halfBuilt]) {
        const answer = (await call(service.url, `/api/generations/${handle}?wait=5`, { key })).json();
        expect(answer).toMatchObject({
          status: 'complete',
          page_url: expect.stringMatching(/^https:\/\/garments\.example\/garments\/resume-/),
        });
      }
      expect(builds).toBe(1);
      expect(JSON.parse(readFileSync(path.join(options.recordsDir, 'resume-half-built.svc.json'), 'utf8')).slug).toBe('resume-half-built');
    } finally {
      await service.close();
    }
  });

  it('hands the outbox an event that a crash kept from it, exactly once', async () => {
    const { organizationId, key } = await makeOrganization();
    const store = openSqlitePublishStore(path.join(options.dataDir, 'publish.db'));
    const handle = '33333333-3333-4333-8333-333333333333';
    await store.insertTask({
      handle,
      organizationId,
      tool: 'garments.publish',
      callbackUrl: 'https://127.0.0.1:9/hook',
      recordText: '{}\n',
    });
    const resultJson = JSON.stringify({
      handle,
      resource_id: '',
      status: 'failed',
      done: true,
      progress: 1,
      stage: 'failed',
      page_url: '',
      error: 'x',
    });
    await store.finishTask(handle, { status: 'failed', error: 'x', resourceId: '', pageUrl: '', supersededBy: null, resultJson });
    await store.close();

    for (let run = 0; run < 2; run += 1) {
      const service = await startPublishService(options);
      try {
        const deliveries = await eventually(
          async () => {
            const listed = (await call(service.url, '/api/webhooks/deliveries', { key })).json().deliveries;
            return listed.length > 0 && listed[0].attempts.some((attempt: { outcome: string }) => attempt.outcome !== 'in_flight')
              ? listed
              : undefined;
          },
          5000,
          'the first attempt',
        );
        // Port 9 is closed: the attempt fails and the next waits a minute, so one attempt in either run.
        expect(deliveries).toHaveLength(1);
        expect(deliveries[0]).toMatchObject({
          handle,
          event: 'publish.failed',
          outcome: 'pending',
          attempts_made: 1,
          next_attempt_at: expect.any(String),
        });
        expect(deliveries[0].attempts).toHaveLength(1);
        expect(deliveries[0].attempts[0]).toMatchObject({ attempt_number: 1, outcome: 'failed' });
        expect(deliveries[0].attempts[0].request.body.endsWith(`"data":${resultJson}}`)).toBe(true);
      } finally {
        await service.close();
      }
    }
  });

  it('parks a build stopped by shutdown, and builds those tasks on the next start', async () => {
    const { key } = await makeOrganization();
    let firstRunBuilds = 0;
    const slow = await startPublishService({
      ...options,
      buildSite: (_target, signal) => {
        firstRunBuilds += 1;
        return new Promise((resolve) => {
          signal.addEventListener('abort', () => resolve({ ok: false, output: 'build was stopped by SIGTERM', seconds: 1 }), {
            once: true,
          });
        });
      },
    });
    const published = await call(slow.url, '/api/publish', { key, body: { record: sampleRecordAs('resume-parked-tee') } });
    const { handle } = published.json();
    await eventually(
      async () => ((await call(slow.url, `/api/generations/${handle}`, { key })).json().stage === 'building site' ? true : undefined),
      5000,
      'the build to start',
    );
    await slow.close({ graceMs: 100 });
    expect(firstRunBuilds).toBe(1);

    const service = await startPublishService(options);
    try {
      const answer = (await call(service.url, `/api/generations/${handle}?wait=5`, { key })).json();
      expect(answer).toMatchObject({ status: 'complete', error: '' });
      expect(builds).toBe(1);
    } finally {
      await service.close();
    }
  });

  it('answers a long poll in progress when the service stops, with the current state', async () => {
    const { key } = await makeOrganization();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const service = await startPublishService({
      ...options,
      buildSite: async () => {
        await held;
        return { ok: true, output: '', seconds: 0 };
      },
    });
    const { handle } = (await call(service.url, '/api/publish', { key, body: { record: sampleRecordAs('resume-polled-tee') } })).json();
    const polling = call(service.url, `/api/generations/${handle}?wait=50`, { key });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const closing = service.close({ graceMs: 5000 });
    const answer = await polling;
    expect(answer.status).toBe(200);
    expect(answer.json().done).toBe(false);
    release();
    await closing;
  });
});
