// Issue 25, end to end: two organizations, the real publish service on loopback with real site
// builds, the admin CLI, and a real HTTPS receiver on loopback verifying every delivery. One
// service is shared by the tests in order (each real build takes seconds). Each numbered defect
// of the issue has its test, named after it, which fails on the code before the issue.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlitePublishStore, type PublishStore } from '../../../src/lib/publish/index.ts';
import { startPublishService, type PublishService } from '../../../src/lib/service/index.ts';
import { verifySignature } from '../../../src/lib/webhooks/index.ts';
import { projectRoot } from '../../support/records.ts';
import {
  call,
  eventually,
  sampleRecordAs,
  serviceWorkspace,
  startReceiver,
  type Organization,
  type Receiver,
  type ServiceWorkspace,
} from './support.ts';

const SAMPLE = 'ridgeline-rk6210-heavyweight-tee';

let work: string;
let recordsDir: string;
let outDir: string;
let dataDir: string;
let service: PublishService;
let store: PublishStore;
let receiver: Receiver;
let orgA: Organization;
let orgB: Organization;
let admin: ServiceWorkspace['admin'];
let adminRun: ServiceWorkspace['adminRun'];
const logLines: string[] = [];

async function publishAs(org: { key: string }, body: unknown, headers: Record<string, string> = {}) {
  return call(service.url, '/api/publish', {
    key: org.key,
    ...(typeof body === 'string' ? { rawBody: body, headers: { 'Content-Type': 'application/json', ...headers } } : { body, headers }),
  });
}

/** Long-polls until the task ends; returns the exact text get_generation answered. */
async function finalText(handle: string, org: { key: string }): Promise<string> {
  for (;;) {
    const answer = await call(service.url, `/api/generations/${handle}?wait=50`, { key: org.key });
    expect(answer.status, answer.text).toBe(200);
    if (answer.json().done) return answer.text;
  }
}

async function taskCount(): Promise<number> {
  return Object.values(await store.taskCounts()).reduce((sum, count) => sum + count, 0);
}

function twin(slug: string): string {
  return readFileSync(path.join(outDir, 'garments', slug, 'svc.json'), 'utf8');
}

beforeAll(async () => {
  const workspace = await serviceWorkspace('publish-issue-25-', ['Organization A', 'Organization B']);
  ({ work, recordsDir, outDir, dataDir, admin, adminRun } = workspace);
  [orgA, orgB] = workspace.organizations as [Organization, Organization];
  const { certificate } = workspace;
  receiver = await startReceiver(certificate, () => [orgA.secret, orgB.secret]);
  service = await startPublishService({
    dataDir,
    recordsDir,
    outDir,
    port: 0,
    site: 'https://garments.example/',
    allowLoopbackCallbacks: true,
    trustedCa: certificate.cert,
    log: (line) => logLines.push(line),
  });
  store = openSqlitePublishStore(path.join(dataDir, 'publish.db'));
}, 60_000);

afterAll(async () => {
  await service?.close();
  store?.close();
  await receiver?.close();
});

describe('issue 25 defect 1: a garment belongs to the organization that first published it', () => {
  it("refuses another organization with 403 and no task, and leaves the owner's page as it was", async () => {
    const first = await publishAs(orgA, { record: { ...sampleRecordAs('owned-by-a'), record_revision: 'by-a' } });
    expect(first.status, first.text).toBe(202);
    expect(JSON.parse(await finalText(first.json().handle, orgA)).status).toBe('complete');

    const tasksBefore = await taskCount();
    const other = await publishAs(orgB, { record: { ...sampleRecordAs('owned-by-a'), record_revision: 'by-b' } });
    expect(other.status).toBe(403);
    expect(other.json().error).toEqual({
      code: 'garment_owned_by_another',
      message: 'garment owned-by-a belongs to another organization; only its owner can publish it, and an operator can transfer it',
    });
    expect(await taskCount()).toBe(tasksBefore);
    expect(JSON.parse(twin('owned-by-a')).record_revision).toBe('by-a');
  });

  it('leaves garments found in the records folder to nobody: refused to everyone until the operator grants one', async () => {
    for (const org of [orgA, orgB]) {
      const answer = await publishAs(org, { record: sampleRecordAs(SAMPLE) });
      expect(answer.status).toBe(403);
      expect(answer.json().error.code).toBe('garment_unowned');
      expect(answer.json().error.message).toContain(`npm run admin -- garment grant --slug ${SAMPLE} --org ${org.id}`);
    }
    expect((await admin('garment', 'list', '--unowned')).map((owner: { slug: string }) => owner.slug)).toContain(SAMPLE);
    expect(await admin('garment', 'grant', '--slug', SAMPLE, '--org', orgB.id)).toMatchObject({
      slug: SAMPLE,
      organization_id: orgB.id,
      origin: 'granted',
    });
    expect((await publishAs(orgA, { record: sampleRecordAs(SAMPLE) })).status).toBe(403);
  });

  it('moves a garment with garment transfer, and names no owner to a refused caller', async () => {
    const refused = await adminRun(['garment', 'grant', '--slug', 'owned-by-a', '--org', orgB.id]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`garment owned-by-a belongs to organization ${orgA.id}; move it with "garment transfer"`);
    expect(await admin('garment', 'transfer', '--slug', 'owned-by-a', '--org', orgB.id)).toMatchObject({
      organization_id: orgB.id,
      origin: 'transferred',
    });
    expect((await publishAs(orgA, { record: sampleRecordAs('owned-by-a') })).status).toBe(403);
    expect((await admin('garment', 'list', '--org', orgB.id)).map((owner: { slug: string }) => owner.slug)).toEqual(['owned-by-a', SAMPLE]);
  });

  it('gives the operator the garments of the folder at once with garment adopt', async () => {
    const adopted = await admin('garment', 'adopt', '--org', orgA.id, '--records', recordsDir);
    expect(adopted.map((owner: { slug: string }) => owner.slug)).toEqual([
      'fieldline-fl300-twill-work-jacket',
      'harbor-pike-hp450-fleece-pullover-hoodie',
    ]);
    expect(await admin('garment', 'list', '--unowned')).toEqual([]);
  });
});

describe('issue 25 defect 2: errors for the caller, details for the operator', () => {
  it("sets a broken file no publish brought aside, reports it to the operator, and publishes the caller's record", async () => {
    writeFileSync(path.join(recordsDir, 'zz.svc.json'), '{ "schema_version": "garment-access/2.4.0", broken');
    const answer = await publishAs(orgA, { record: sampleRecordAs('after-a-broken-file') });
    const done = JSON.parse(await finalText(answer.json().handle, orgA));
    expect(done).toMatchObject({ status: 'complete', error: '', page_url: 'https://garments.example/garments/after-a-broken-file/svc/' });
    expect(existsSync(path.join(recordsDir, 'zz.svc.json'))).toBe(false);
    expect(existsSync(path.join(recordsDir, 'zz.svc.json.broken'))).toBe(true);

    const health = (await call(service.url, '/api/health')).json();
    expect(health.status).toBe('attention');
    expect(health.records_folder.set_aside).toEqual([
      {
        file: 'zz.svc.json',
        set_aside_as: 'zz.svc.json.broken',
        problems: ['zz.svc.json: (record): invalid JSON at line 1, column 45: expected a double-quoted property name, got "b"'],
        at: expect.any(String),
      },
    ]);
    expect(JSON.stringify(health)).not.toContain(work);
    expect(
      logLines.some((line) =>
        line.startsWith('records folder: zz.svc.json is no valid record and no publish brought it; set aside as zz.svc.json.broken'),
      ),
    ).toBe(true);
  });
});

describe('issue 25 defect 3: every problem of a refused record, with its pointer', () => {
  it('lists 150 problems in error and in the problems list, with no cap', async () => {
    const record = sampleRecordAs('many-problems') as { data: { colors: Array<Record<string, unknown>> } };
    const color = record.data.colors[0]!;
    record.data.colors = Array.from({ length: 150 }, (_, index) => ({ ...color, id: `Bad Id ${index}` }));
    const answer = await publishAs(orgA, { record });
    const done = JSON.parse(await finalText(answer.json().handle, orgA));
    expect(done.status).toBe('failed');
    const lines = done.error.split('\n');
    expect(lines).toHaveLength(150);
    expect(lines[149]).toBe('record: /data/colors/149/id: must match ^[a-z][a-z0-9_]*(?:-[a-z0-9_]+)*$; got "Bad Id 149"');
    expect(done.problems).toHaveLength(150);
    expect(done.problems[149]).toEqual({
      pointer: '/data/colors/149/id',
      message: 'must match ^[a-z][a-z0-9_]*(?:-[a-z0-9_]+)*$; got "Bad Id 149"',
    });
  });
});

describe('issue 25 defect 4: the record is published as sent', () => {
  const asSent = (slug: string) =>
    readFileSync(path.join(projectRoot, 'records', `${SAMPLE}.svc.json`), 'utf8')
      .replace(`"slug": "${SAMPLE}"`, `"slug": "${slug}"`)
      .replace('"weight_original": 6.5,', '"weight_original": 6.50,')
      .replace('"product_input": "Ridgeline', '"product_input": "caf\\u00e9 Ridgeline');

  /** Publishes each body, waits for the tasks, and checks the records folder and the published twin hold what was sent. */
  async function expectPublishedAsSent(forms: Array<{ slug: string; body: string; sent: string }>) {
    const handles = [];
    for (const { body } of forms) {
      const answer = await publishAs(orgA, body);
      expect(answer.status, answer.text).toBe(202);
      handles.push(answer.json().handle);
    }
    for (const handle of handles) expect(JSON.parse(await finalText(handle, orgA)).status).toBe('complete');
    for (const { slug, sent } of forms) {
      expect(readFileSync(path.join(recordsDir, `${slug}.svc.json`), 'utf8')).toBe(sent);
      const published = twin(slug);
      expect(published).toContain('"weight_original": 6.50,');
      expect(published).toContain('"product_input": "caf\\u00e9 Ridgeline');
      // Only links differ from what was sent.
      const withoutLinks = (text: string) => text.replace(/"links": \{[^}]*\}/, '"links": {}');
      expect(withoutLinks(published)).toBe(withoutLinks(sent));
    }
  }

  it('keeps 6.50, \\u00e9 and the key order of a record sent in {"record": ...} or as the body', async () => {
    await expectPublishedAsSent([
      // The envelope's record is its value, from brace to brace: the file's final newline is outside it.
      {
        slug: 'as-sent-envelope',
        body: `{"record": ${asSent('as-sent-envelope').trimEnd()}, "callback_url": null}`,
        sent: asSent('as-sent-envelope').trimEnd(),
      },
      { slug: 'as-sent-bare', body: asSent('as-sent-bare'), sent: asSent('as-sent-bare') },
    ]);
  });

  it('takes a record sent as text in {"record": "<text>"} as that text', async () => {
    await expectPublishedAsSent([
      { slug: 'as-sent-text', body: JSON.stringify({ record: asSent('as-sent-text') }), sent: asSent('as-sent-text') },
    ]);
  });
});

describe('issue 25 defect 5: callback URLs are taken as written or refused', () => {
  it.each([
    [' https://127.0.0.1:9/hook', 'starts with whitespace or a control character; remove it'],
    ['https://127.0.0.1:9/ho\tok', 'holds a control character (U+0009) at index 22, which URL parsing would drop or encode; remove it'],
    ['https://127.0.0.1:9/hook\n', 'ends with whitespace or a control character; remove it'],
    ['https:\\\\127.0.0.1:9/hook', 'holds a backslash, which URL parsing reads as /; write / or %5C'],
    ['https://127.0.0.1:9/h ok', 'holds a space at index 21; percent-encode it as %20'],
    ['https:127.0.0.1:9/hook', 'expected // after https:'],
  ])('refuses %j with 422 and the reason, making no task', async (url, reason) => {
    const tasksBefore = await taskCount();
    const answer = await publishAs(orgA, { record: sampleRecordAs('callback-url-check'), callback_url: url });
    expect(answer.status).toBe(422);
    expect(answer.json().error).toEqual({ code: 'callback_url_refused', message: `callback_url refused: ${reason}` });
    expect(await taskCount()).toBe(tasksBefore);
  });
});

describe('issue 25 defect 6: a superseded task does not claim its content went live', () => {
  it('reports the earlier of two publishes in one build superseded, with the later handle, in the poll and the event alike', async () => {
    const callbackUrl = `${receiver.url}/hooks/a`;
    const first = await publishAs(orgA, {
      record: { ...sampleRecordAs('published-twice'), record_revision: 'first' },
      callback_url: callbackUrl,
    });
    const second = await publishAs(orgA, {
      record: { ...sampleRecordAs('published-twice'), record_revision: 'second' },
      callback_url: callbackUrl,
    });
    const [earlier, later] = [first.json().handle as string, second.json().handle as string];
    const earlierText = await finalText(earlier, orgA);
    expect(JSON.parse(await finalText(later, orgA))).toMatchObject({ status: 'complete', superseded_by: null });
    expect(JSON.parse(earlierText)).toEqual({
      handle: earlier,
      resource_id: 'published-twice/svc',
      status: 'superseded',
      done: true,
      progress: 1,
      stage: 'superseded',
      page_url: '',
      error: `a later publish of published-twice/svc (handle ${later}) went into the same site build, so its content is live and this task's never was`,
      problems: [],
      superseded_by: later,
    });
    expect(JSON.parse(twin('published-twice')).record_revision).toBe('second');
    const [delivery] = await eventually(
      () => (receiver.acceptedFor(earlier).length > 0 ? receiver.acceptedFor(earlier) : undefined),
      15_000,
      'the event',
    );
    expect(delivery!.event).toMatchObject({
      event: 'publish.failed',
      tool: 'garments.publish',
      data: { status: 'superseded', superseded_by: later },
    });
    expect(delivery!.rawBody.endsWith(`"data":${earlierText}}`)).toBe(true);
  });
});

describe('Idempotency-Key on POST /api/publish', () => {
  it('answers the same key and body with the first handle, another body with 409, and keeps organizations apart', async () => {
    const body = { record: sampleRecordAs('idempotent-tee') };
    const first = await publishAs(orgA, body, { 'Idempotency-Key': 'order-7781' });
    const again = await publishAs(orgA, body, { 'Idempotency-Key': 'order-7781' });
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.json()).toEqual(first.json());
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const changed = await publishAs(
      orgA,
      { record: { ...sampleRecordAs('idempotent-tee'), record_revision: 'other' } },
      { 'Idempotency-Key': 'order-7781' },
    );
    expect(changed.status).toBe(409);
    expect(changed.json().error.code).toBe('idempotency_key_reused');
    const otherOrg = await publishAs(orgB, { record: sampleRecordAs('idempotent-tee-b') }, { 'Idempotency-Key': 'order-7781' });
    expect(otherOrg.status).toBe(202);
    expect(otherOrg.json().handle).not.toBe(first.json().handle);
    expect((await publishAs(orgA, body, { 'Idempotency-Key': 'a key with spaces' })).status).toBe(400);
    await finalText(first.json().handle, orgA);
    await finalText(otherOrg.json().handle, orgB);
  });
});

describe('delivery tools', () => {
  it('lists deliveries per event with their state, filtered by handle, event and outcome, page by page', async () => {
    const all = (await call(service.url, '/api/webhooks/deliveries', { key: orgA.key })).json().deliveries;
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(all.every((delivery: { outcome: string }) => ['pending', 'delivered', 'given_up'].includes(delivery.outcome))).toBe(true);
    const failed = (await call(service.url, '/api/webhooks/deliveries?event=publish.failed&outcome=delivered', { key: orgA.key })).json()
      .deliveries;
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ event: 'publish.failed', outcome: 'delivered', attempts_made: 1, next_attempt_at: null });
    expect(failed[0].attempts[0]).toMatchObject({ attempt_number: 1, outcome: 'accepted', status: 200 });
    const byHandle = (await call(service.url, `/api/webhooks/deliveries?handle=${failed[0].handle}`, { key: orgA.key })).json().deliveries;
    expect(byHandle.map((delivery: { handle: string }) => delivery.handle)).toEqual([failed[0].handle]);
    const page1 = (await call(service.url, '/api/webhooks/deliveries?limit=1', { key: orgA.key })).json();
    const page2 = (await call(service.url, `/api/webhooks/deliveries?limit=1&before=${page1.next_before}`, { key: orgA.key })).json();
    expect(page2.deliveries[0].id).toBeLessThan(page1.deliveries[0].id);
    expect((await call(service.url, '/api/webhooks/deliveries?outcome=lost', { key: orgA.key })).status).toBe(400);
    expect((await call(service.url, '/api/webhooks/deliveries', { key: orgB.key })).json().deliveries).toEqual([]);
  });

  it('resends an event: a new attempt with a new X-Svc-Delivery, the same body but delivered_at', async () => {
    const [delivered] = (await call(service.url, '/api/webhooks/deliveries?event=publish.failed', { key: orgA.key })).json().deliveries;
    const before = receiver.deliveries.filter((delivery) => delivery.event?.handle === delivered.handle);
    expect((await call(service.url, `/api/webhooks/deliveries/${delivered.handle}/resend`, { key: orgB.key, method: 'POST' })).status).toBe(
      404,
    );
    const resent = await call(service.url, `/api/webhooks/deliveries/${delivered.handle}/resend`, { key: orgA.key, method: 'POST' });
    expect(resent.status, resent.text).toBe(202);
    expect(resent.json().delivery).toMatchObject({ handle: delivered.handle, outcome: 'pending' });
    const after = await eventually(
      () => {
        const all = receiver.deliveries.filter((delivery) => delivery.event?.handle === delivered.handle);
        return all.length > before.length ? all : undefined;
      },
      10_000,
      'the resent event',
    );
    const [original, again] = [after[0]!, after.at(-1)!];
    expect(again.headers['x-svc-delivery']).not.toBe(original.headers['x-svc-delivery']);
    const withoutTime = (body: string) => body.replace(/"delivered_at":"[^"]*"/, '');
    expect(withoutTime(again.rawBody)).toBe(withoutTime(original.rawBody));
    const listed = await eventually(
      async () => {
        const [state] = (await call(service.url, `/api/webhooks/deliveries?handle=${delivered.handle}`, { key: orgA.key })).json()
          .deliveries;
        return state.outcome === 'delivered' ? state : undefined;
      },
      5000,
      'the resend recorded',
    );
    expect(listed.attempts.map((attempt: { attempt_number: number }) => attempt.attempt_number)).toEqual([1, 2]);
  });

  it('sends a signed test event to a callback_url and answers with how the receiver took it', async () => {
    const answer = await call(service.url, '/api/webhooks/test', { key: orgB.key, body: { callback_url: `${receiver.url}/hooks/test` } });
    expect(answer.status, answer.text).toBe(200);
    const { delivery } = answer.json();
    expect(delivery).toMatchObject({ event: 'test.completed', tool: 'webhooks.send_test', outcome: 'delivered', attempts_made: 1 });
    const received = receiver.acceptedFor(delivery.handle);
    expect(received).toHaveLength(1);
    expect(received[0]!.path).toBe('/hooks/test');
    expect(received[0]!.event).toMatchObject({
      event: 'test.completed',
      organizationId: orgB.id,
      data: { status: 'complete', stage: 'test event: nothing was published' },
    });
    // Its handle names no task, as /docs/webhooks/ says.
    expect((await call(service.url, `/api/generations/${delivery.handle}`, { key: orgB.key })).status).toBe(404);
    expect((await call(service.url, '/api/webhooks/test', { key: orgB.key, body: { callback_url: ' https://127.0.0.1:9/' } })).status).toBe(
      422,
    );
  });

  it('reveals and rotates the signing secret through the API; the old secret stops verifying at once', async () => {
    expect((await call(service.url, '/api/webhooks/secret')).status).toBe(401);
    const revealed = (await call(service.url, '/api/webhooks/secret', { key: orgB.key })).json();
    expect(revealed).toEqual({ organization_id: orgB.id, signing_secret: orgB.secret });
    const rotated = (await call(service.url, '/api/webhooks/secret/rotate', { key: orgB.key, method: 'POST' })).json().signing_secret;
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(orgB.secret);
    expect((await admin('secret', 'reveal', '--org', orgB.id)).signing_secret).toBe(rotated);

    // The receiver still holds only the old secret: the next delivery no longer verifies with it.
    const answer = await call(service.url, '/api/webhooks/test', { key: orgB.key, body: { callback_url: `${receiver.url}/hooks/test` } });
    const { delivery } = answer.json();
    expect(delivery).toMatchObject({ outcome: 'given_up' });
    const raw = receiver.deliveries.find((received) => received.rawBody.includes(delivery.handle))!;
    expect(raw.rejection).toBeDefined();
    const header = raw.headers['x-svc-signature'] as string;
    expect(verifySignature({ header, body: raw.rawBody, secrets: [orgB.secret] }).accepted).toBe(false);
    expect(verifySignature({ header, body: raw.rawBody, secrets: [rotated] }).accepted).toBe(true);
    orgB.secret = rotated;
  });

  it('keeps the fixed schedule when a receiver answers 503 with Retry-After: 0, and records the Retry-After as sent', async () => {
    const [delivered] = (
      await call(service.url, '/api/webhooks/deliveries?event=publish.completed&outcome=delivered', { key: orgA.key })
    ).json().deliveries;
    receiver.answerWith((delivery) =>
      delivery.event?.handle === delivered.handle ? { status: 503, headers: { 'Retry-After': '0' } } : 200,
    );
    try {
      expect(
        (await call(service.url, `/api/webhooks/deliveries/${delivered.handle}/resend`, { key: orgA.key, method: 'POST' })).status,
      ).toBe(202);
      const state = await eventually(
        async () => {
          const [listed] = (await call(service.url, `/api/webhooks/deliveries?handle=${delivered.handle}`, { key: orgA.key })).json()
            .deliveries;
          return listed.attempts.at(-1).status === 503 ? listed : undefined;
        },
        15_000,
        'the refused attempt',
      );
      const refused = state.attempts.at(-1);
      expect(refused).toMatchObject({ status: 503, retry_after: '0' });
      expect(refused).not.toHaveProperty('retry_after_honoured');
      expect(state).toMatchObject({ outcome: 'pending', attempts_made: delivered.attempts_made + 1 });
      // The decision is taken just before the answer is recorded, so the minute counts from a moment before finished_at.
      const wait = Date.parse(state.next_attempt_at) - Date.parse(refused.finished_at);
      expect(wait).toBeLessThanOrEqual(60_000);
      expect(wait).toBeGreaterThan(55_000);
    } finally {
      receiver.answerWith(() => 200);
    }
  });
});
