// End to end: the admin CLI, `serve` as a real process with real Astro builds, and a local HTTPS
// receiver that verifies every delivery with the webhook library. One service is shared by the
// tests in order (each real build takes seconds); the last test kills it and starts it again.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../support/run.ts';
import { verifySignature } from '../../../src/lib/webhooks/index.ts';
import {
  call,
  eventually,
  fingerprint,
  sampleRecordAs,
  serviceWorkspace,
  startReceiver,
  startServe,
  stopServe,
  UUID,
  type Organization,
  type Receiver,
  type ServeProcess,
  type ServiceWorkspace,
} from './support.ts';

let work: string;
let recordsDir: string;
let outDir: string;
let dataDir: string;
let receiver: Receiver;
let certFile: string;
let service: ServeProcess;
let acme: Organization;
let other: Organization;
let admin: ServiceWorkspace['admin'];
/** Every service started, for what they printed. */
const services: ServeProcess[] = [];
/** Signing secrets rotated away, which may no more appear in a log than the current one. */
const secrets: string[] = [];

/** Starts the service on this test's folders, with the test-only flags. */
async function startService(extraArgs: string[] = []): Promise<ServeProcess> {
  const started = await startServe(
    ['--records', recordsDir, '--out', outDir, '--data', dataDir, '--allow-loopback-callbacks', '--trust-ca', certFile, ...extraArgs],
    { ...process.env, SITE_URL: 'https://garments.example' },
  );
  services.push(started);
  return started;
}

async function publish(record: unknown, callbackUrl: string | undefined, key = acme.key): Promise<string> {
  const answer = await call(service.url, '/api/publish', {
    key,
    body: { record, ...(callbackUrl === undefined ? {} : { callback_url: callbackUrl }) },
  });
  expect(answer.status, answer.text).toBe(202);
  expect(answer.json().handle).toMatch(UUID);
  return answer.json().handle;
}

/** Long-polls until the task ends; returns the exact text get_generation answered. */
async function finalText(handle: string, key = acme.key): Promise<string> {
  for (;;) {
    const answer = await call(service.url, `/api/generations/${handle}?wait=50`, { key });
    expect(answer.status, answer.text).toBe(200);
    if (answer.json().done) return answer.text;
  }
}

async function buildsStarted(): Promise<number> {
  return (await call(service.url, '/api/health')).json().builds.started;
}

beforeAll(async () => {
  const workspace = await serviceWorkspace('publish-service-', ['Acme', 'Other']);
  ({ work, recordsDir, outDir, dataDir, admin } = workspace);
  [acme, other] = workspace.organizations as [Organization, Organization];
  certFile = workspace.certificate.certFile;
  receiver = await startReceiver(workspace.certificate, () => [acme.secret]);
  service = await startService();
}, 60_000);

afterAll(async () => {
  await stopServe(service);
  await receiver?.close();
});

describe('npm run admin', () => {
  it('creates organizations with a gpk_ key shown once, and reveals a whsec_ secret that stays the same', async () => {
    expect(acme.id).toMatch(/^org_[0-9a-f]{24}$/);
    expect(acme.key).toMatch(/^gpk_/);
    expect(acme.secret).toMatch(/^whsec_/);
    expect((await admin('secret', 'reveal', '--org', acme.id)).signing_secret).toBe(acme.secret);
    const keys = await admin('key', 'list', '--org', acme.id);
    expect(keys).toEqual([{ key_prefix: acme.key.slice(0, 12), created_at: expect.any(String), revoked_at: null }]);
  });

  it('exits 1 for an unknown organization and 2 for bad usage', () => {
    expect(runCli('admin.ts', ['secret', 'reveal', '--org', 'org_nope', '--data', dataDir]).status).toBe(1);
    expect(runCli('admin.ts', ['org', 'create', '--data', dataDir]).status).toBe(2);
    expect(runCli('admin.ts', ['frobnicate', '--data', dataDir]).status).toBe(2);
  });
});

describe('npm run serve', () => {
  it('publishes a record: the page, its JSON and Markdown are live, and one signed event carries get_generation byte for byte', async () => {
    const slug = 'e2e-published-tee';
    const handle = await publish(sampleRecordAs(slug), `${receiver.url}/hooks/acme`);
    const text = await finalText(handle);
    expect(JSON.parse(text)).toEqual({
      handle,
      resource_id: `${slug}/svc`,
      status: 'complete',
      done: true,
      progress: 1,
      stage: 'complete',
      page_url: `https://garments.example/garments/${slug}/svc/`,
      error: '',
      problems: [],
      superseded_by: null,
    });

    const [delivery] = await eventually(
      () => (receiver.acceptedFor(handle).length > 0 ? receiver.acceptedFor(handle) : undefined),
      15_000,
      'the event',
    );
    expect(delivery!.event).toMatchObject({ event: 'publish.completed', handle, tool: 'garments.publish', organizationId: acme.id });
    expect(delivery!.rawBody.endsWith(`"data":${text}}`)).toBe(true);
    expect(delivery!.headers['user-agent']).toBe('Svc-Webhooks/1');
    expect(delivery!.headers['x-svc-event']).toBe('publish.completed');

    for (const file of [`garments/${slug}/svc/index.html`, `garments/${slug}/svc.json`, `garments/${slug}/svc.md`]) {
      expect(existsSync(path.join(outDir, file)), file).toBe(true);
    }
    const page = await call(service.url, `/garments/${slug}/svc/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(JSON.parse((await call(service.url, `/garments/${slug}/svc.json`)).text).slug).toBe(slug);
    expect((await call(service.url, `/garments/${slug}/svc.md`)).headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(JSON.parse(readFileSync(path.join(recordsDir, `${slug}.svc.json`), 'utf8')).slug).toBe(slug);

    // Exactly one: the outbox holds the event delivered after one attempt, with no next attempt scheduled.
    expect(receiver.deliveries.filter((d) => d.event?.handle === handle)).toHaveLength(1);
    // The receiver answered before the outbox recorded its answer: wait for the record, not for time.
    const listed = await eventually(
      async () => {
        const answer = await call(service.url, '/api/webhooks/deliveries', { key: acme.key });
        const entry = answer.json().deliveries.find((found: { handle: string }) => found.handle === handle);
        return entry?.outcome === 'pending' ? undefined : answer;
      },
      10_000,
      'the delivery recorded',
    );
    const listedDelivery = listed.json().deliveries.find((entry: { handle: string }) => entry.handle === handle);
    expect(listedDelivery).toMatchObject({ outcome: 'delivered', event: 'publish.completed', attempts_made: 1, next_attempt_at: null });
    const [attempt] = listedDelivery.attempts;
    expect(attempt).toMatchObject({ attempt_number: 1, outcome: 'accepted', status: 200, response_body_start: 'ok' });
    expect(attempt.request.headers['X-Svc-Signature']).toMatch(/^t=\d+,v1=\[redacted\]$/);
    expect(listed.text).not.toContain(acme.secret);
  }, 90_000);

  it('ends an invalid record failed with the validator messages and a publish.failed event; records/ and the site do not change', async () => {
    const recordsBefore = fingerprint(recordsDir);
    const outBefore = fingerprint(outDir);
    const buildsBefore = await buildsStarted();
    const record = sampleRecordAs('e2e-invalid-tee');
    record.projection = 'sideways';
    const handle = await publish(record, `${receiver.url}/hooks/acme`);
    const text = await finalText(handle);
    const answer = JSON.parse(text);
    expect(answer).toMatchObject({ status: 'failed', done: true, stage: 'failed', page_url: '', resource_id: '' });
    expect(answer.error).toContain('record: /projection: expected one of "svc", "tech"; got "sideways"');

    const [delivery] = await eventually(
      () => (receiver.acceptedFor(handle).length > 0 ? receiver.acceptedFor(handle) : undefined),
      15_000,
      'the failure event',
    );
    expect(delivery!.event?.event).toBe('publish.failed');
    expect(delivery!.rawBody.endsWith(`"data":${text}}`)).toBe(true);
    expect(fingerprint(recordsDir)).toEqual(recordsBefore);
    expect(fingerprint(outDir)).toEqual(outBefore);
    expect(await buildsStarted()).toBe(buildsBefore);
  }, 30_000);

  it('refuses a wrong key, another organization reading a handle, and an oversized body, changing nothing', async () => {
    const recordsBefore = fingerprint(recordsDir);
    const outBefore = fingerprint(outDir);
    const handle = await publish({ schema_version: 'not a record' }, undefined);
    await finalText(handle);

    const wrongKey = await call(service.url, '/api/publish', { key: `${acme.key}x`, body: { record: sampleRecordAs('e2e-refused') } });
    expect(wrongKey.status).toBe(401);
    const foreign = await call(service.url, `/api/generations/${handle}`, { key: other.key });
    expect(foreign.status).toBe(404);
    expect(foreign.json().error.code).toBe('not_found');
    const oversized = await call(service.url, '/api/publish', {
      key: acme.key,
      rawBody: `{"record":{"slug":"${'x'.repeat(6 * 1024 * 1024)}"}}`,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(oversized.status).toBe(413);
    expect(fingerprint(recordsDir)).toEqual(recordsBefore);
    expect(fingerprint(outDir)).toEqual(outBefore);
    expect((await call(service.url, '/api/webhooks/deliveries', { key: other.key })).json().deliveries).toEqual([]);
  }, 30_000);

  it('brings twenty publishes submitted at once to an end in a few shared builds, with one event each', async () => {
    const buildsBefore = await buildsStarted();
    const slugs = Array.from({ length: 20 }, (_, i) => `e2e-batch-${i}`);
    const handles = await Promise.all(
      slugs.map((slug, i) => publish(sampleRecordAs(slug, i % 2 === 0 ? 'svc' : 'tech'), `${receiver.url}/hooks/batch-${i}`)),
    );
    const texts = await Promise.all(handles.map((handle) => finalText(handle)));
    expect(texts.map((text) => JSON.parse(text).status)).toEqual(Array(20).fill('complete'));
    const builds = (await buildsStarted()) - buildsBefore;
    expect(builds).toBeGreaterThanOrEqual(1);
    expect(builds).toBeLessThanOrEqual(3);

    await eventually(
      () => (handles.every((handle) => receiver.acceptedFor(handle).length > 0) ? true : undefined),
      20_000,
      'twenty events',
    );
    // Each delivered after one attempt, none scheduled again: no second delivery is coming.
    const deliveries = await eventually(
      async () => {
        const listed = (await call(service.url, '/api/webhooks/deliveries?limit=100', { key: acme.key })).json().deliveries;
        const pending = listed.some(
          (entry: { handle: string; outcome: string }) => handles.includes(entry.handle) && entry.outcome === 'pending',
        );
        return pending ? undefined : listed;
      },
      10_000,
      'the deliveries recorded',
    );
    for (const handle of handles) {
      expect(deliveries.filter((entry: { handle: string }) => entry.handle === handle)).toMatchObject([
        { outcome: 'delivered', attempts_made: 1, next_attempt_at: null },
      ]);
    }
    handles.forEach((handle, i) => {
      const received = receiver.deliveries.filter((d) => d.event?.handle === handle);
      expect(received).toHaveLength(1);
      expect(received[0]!.path).toBe(`/hooks/batch-${i}`);
      expect(received[0]!.rawBody.endsWith(`"data":${texts[i]}}`)).toBe(true);
    });
    slugs.forEach((slug, i) =>
      expect(existsSync(path.join(outDir, `garments/${slug}/${i % 2 === 0 ? 'svc' : 'tech'}.json`)), slug).toBe(true),
    );
    expect(service.output()).toMatch(/build #\d+ started for (1\d|20|[2-9]) tasks/);
  }, 150_000);

  it('delivers an event that was pending when the service was killed, once it is started again', async () => {
    let healed = false;
    receiver.answerWith((delivery) => (delivery.path === '/hooks/flaky' && !healed ? 503 : 200));
    const handle = await publish(sampleRecordAs('e2e-flaky-tee', 'tech'), `${receiver.url}/hooks/flaky`);
    const text = await finalText(handle);
    expect(JSON.parse(text).status).toBe('complete');
    // Pending: the first attempt is recorded as failed and the next is a minute away.
    await eventually(
      async () => {
        const [listed] = (await call(service.url, `/api/webhooks/deliveries?handle=${handle}`, { key: acme.key })).json().deliveries;
        return listed?.outcome === 'pending' &&
          listed.attempts.some((attempt: { outcome: string; status: number }) => attempt.outcome === 'failed' && attempt.status === 503)
          ? true
          : undefined;
      },
      15_000,
      'the first, failing attempt to be recorded',
    );

    service.child.kill('SIGKILL');
    await service.exited;
    healed = true;
    // Attempt 2 is due a minute after the first; the test-only clock offset makes that now.
    service = await startService(['--webhook-clock-offset-ms', '90000']);
    const [delivery] = await eventually(
      () => (receiver.acceptedFor(handle).length > 0 ? receiver.acceptedFor(handle) : undefined),
      20_000,
      'the event after the restart',
    );
    expect(delivery!.rawBody.endsWith(`"data":${text}}`)).toBe(true);
    expect(receiver.acceptedFor(handle)).toHaveLength(1);
    expect((await call(service.url, `/api/generations/${handle}`, { key: acme.key })).text).toBe(text);
    const [listed] = (await call(service.url, `/api/webhooks/deliveries?handle=${handle}`, { key: acme.key })).json().deliveries;
    expect(listed).toMatchObject({ outcome: 'delivered', attempts_made: 2, next_attempt_at: null });
    const attempts = listed.attempts.map((attempt: { attempt_number: number; outcome: string; status: number }) => [
      attempt.attempt_number,
      attempt.outcome,
      attempt.status,
    ]);
    expect(attempts).toEqual([
      [1, 'failed', 503],
      [2, 'accepted', 200],
    ]);
  }, 60_000);

  it('signs with a rotated secret at once: the old secret no longer verifies', async () => {
    const oldSecret = acme.secret;
    acme.secret = (await admin('secret', 'rotate', '--org', acme.id)).signing_secret;
    expect(acme.secret).not.toBe(oldSecret);
    const handle = await publish({ schema_version: 'garment-access/2.4.0' }, `${receiver.url}/hooks/rotated`);
    await finalText(handle);
    const [delivery] = await eventually(
      () => (receiver.acceptedFor(handle).length > 0 ? receiver.acceptedFor(handle) : undefined),
      15_000,
      'the event',
    );
    const header = String(delivery!.headers['x-svc-signature']);
    expect(verifySignature({ header, body: delivery!.rawBody, secrets: [acme.secret] }).accepted).toBe(true);
    expect(verifySignature({ header, body: delivery!.rawBody, secrets: [oldSecret] })).toMatchObject({ accepted: false });
    secrets.push(oldSecret);
  }, 30_000);

  it('tells clients and proxies that an idle connection stays open 65 s, past their usual 60 s, for the site and the API alike', async () => {
    for (const address of ['/', '/api/health']) expect((await call(service.url, address)).headers.get('keep-alive')).toBe('timeout=65');
  });

  it('refuses to start with an output folder whose replacement would take the records or the databases', () => {
    const refusal = (out: string, data = dataDir) =>
      runCli('serve.ts', ['--port', '0', '--records', recordsDir, '--out', out, '--data', data]);
    const around = refusal(work);
    expect(around.status).toBe(1);
    expect(around.stderr).toContain(`serve: could not start: the output folder ${work} holds the records (${recordsDir})`);
    const site = path.join(work, 'site');
    const holdingData = refusal(site, path.join(site, 'data'));
    expect(holdingData.status).toBe(1);
    expect(holdingData.stderr).toContain(
      `serve: could not start: the output folder ${site} holds the publish service data (${path.join(site, 'data')})`,
    );
  });

  it('stops on SIGTERM with exit code 0, and never logged a key, a secret or a signature', async () => {
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    expect(service.output()).toMatch(/^stopped$/m);
    const logged = services.map((started) => started.output()).join('\n');
    expect(logged).toMatch(/http POST \/api\/publish 202/);
    expect(logged).toMatch(/webhook [0-9a-f-]{36} attempt 1: accepted, 200/);
    for (const secretText of [acme.key, other.key, acme.secret, ...secrets, 'v1=']) expect(logged).not.toContain(secretText);
  }, 60_000);
});
