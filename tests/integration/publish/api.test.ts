// The publish API in process over real HTTP and real SQLite, with the site build replaced by a
// stand-in the test controls (real builds are covered by service.test.ts).
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlitePublishStore, type PublishStore } from '../../../src/lib/publish/index.ts';
import { startPublishService, type PublishService } from '../../../src/lib/service/index.ts';
import type { SiteBuildOutcome } from '../../../src/lib/publish/site-build-process.ts';
import { projectRoot } from '../../support/records.ts';
import { callTool, httpClient } from '../mcp/support.ts';
import { call, eventually, fingerprint, sampleRecordAs, UUID } from './support.ts';

const BODY_LIMIT = 256 * 1024;
const CAP_SECONDS = 1.5;

/** The stand-in build: counts runs; a test may hold the next build open or make it fail. */
const builds = {
  count: 0,
  hold: undefined as Promise<void> | undefined,
  outcome: { ok: true, output: 'built', seconds: 0.1 } as SiteBuildOutcome,
};

let work: string;
let recordsDir: string;
let service: PublishService;
let store: PublishStore;
let key: string;
let otherKey: string;
const logLines: string[] = [];

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'publish-api-'));
  recordsDir = path.join(work, 'records');
  cpSync(path.join(projectRoot, 'records'), recordsDir, { recursive: true });
  const dataDir = path.join(work, 'data');
  service = await startPublishService({
    dataDir,
    recordsDir,
    outDir: path.join(work, 'out'),
    port: 0,
    site: 'https://garments.example/',
    maxBodyBytes: BODY_LIMIT,
    // Callbacks in these tests point at a closed loopback port: refused at once, never delivered.
    allowLoopbackCallbacks: true,
    longPollCapSeconds: CAP_SECONDS,
    gatherMs: 50,
    buildSite: async () => {
      builds.count += 1;
      await builds.hold;
      return builds.outcome;
    },
    log: (line) => logLines.push(line),
  });
  // The admin CLI's own store, opened beside the running service as the CLI would be.
  store = openSqlitePublishStore(path.join(dataDir, 'publish.db'));
  key = (await store.createApiKey((await store.createOrganization('Acme')).id)).key;
  otherKey = (await store.createApiKey((await store.createOrganization('Other')).id)).key;
});

afterAll(async () => {
  await service?.close({ graceMs: 1000 });
  store?.close();
});

/** Publishes and returns the handle. */
async function publish(record: unknown, query = ''): Promise<string> {
  const answer = await call(service.url, `/api/publish${query}`, { key, body: { record } });
  expect(answer.status, answer.text).toBe(202);
  return answer.json().handle as string;
}

async function generation(handle: string, query = '', withKey = key) {
  return call(service.url, `/api/generations/${handle}${query}`, { key: withKey });
}

/** Holds the next builds open until the returned function is called. */
function holdBuilds(): () => void {
  let release!: () => void;
  builds.hold = new Promise<void>((resolve) => (release = resolve));
  return () => {
    builds.hold = undefined;
    release();
  };
}

describe('POST /api/publish', () => {
  it('answers 202 at once with a UUID handle, a status_url and a Location header', async () => {
    const answer = await call(service.url, '/api/publish', { key, body: { record: sampleRecordAs('api-first-tee') } });
    expect(answer.status).toBe(202);
    const { handle, status_url } = answer.json();
    expect(handle).toMatch(UUID);
    expect(status_url).toBe(`/api/generations/${handle}`);
    expect(answer.headers.get('location')).toBe(status_url);
    const done = (await generation(handle, '?wait=1')).json();
    expect(done).toEqual({
      handle,
      resource_id: 'api-first-tee/svc',
      status: 'complete',
      done: true,
      progress: 1,
      stage: 'complete',
      page_url: 'https://garments.example/garments/api-first-tee/svc/',
      error: '',
      problems: [],
      superseded_by: null,
    });
    expect(JSON.parse(readFileSync(path.join(recordsDir, 'api-first-tee.svc.json'), 'utf8')).slug).toBe('api-first-tee');
  });

  it('accepts a bare record as the body, with callback_url in the query string', async () => {
    const answer = await call(service.url, `/api/publish?callback_url=${encodeURIComponent('https://127.0.0.1:9/hook')}`, {
      key,
      body: sampleRecordAs('api-bare-tee'),
    });
    expect(answer.status, answer.text).toBe(202);
    const task = await store.getTask(answer.json().handle);
    expect(task?.callbackUrl).toBe('https://127.0.0.1:9/hook');
    expect(answer.json()).not.toHaveProperty('callback_url_warning');
  });

  it('accepts a callback_url whose host does not resolve now (.invalid never does): each delivery looks it up again', async () => {
    const callbackUrl = 'https://hooks.garment-press.invalid/hook';
    const answer = await call(service.url, '/api/publish', {
      key,
      body: { record: sampleRecordAs('api-unresolved-tee'), callback_url: callbackUrl },
    });
    expect(answer.status, answer.text).toBe(202);
    expect((await store.getTask(answer.json().handle))?.callbackUrl).toBe(callbackUrl);
    // The integrator hears why its events may not arrive, as webhook check-url would tell it.
    expect(answer.json().callback_url_warning).toMatch(
      /^could not resolve host hooks\.garment-press\.invalid \(\w+\) now; each delivery looks it up again, so check the address for a typo$/,
    );
  });

  it('reads a JSON body whatever Content-Type curl -d gives it', async () => {
    const answer = await call(service.url, '/api/publish', {
      key,
      rawBody: JSON.stringify({ record: sampleRecordAs('api-form-tee') }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(answer.status).toBe(202);
  });

  describe('refusals change nothing', () => {
    let before: { records: string[]; tasks: Record<string, number> };
    const snapshot = async () => ({ records: fingerprint(recordsDir), tasks: await store.taskCounts() });

    beforeAll(async () => {
      // Let earlier publishes finish writing before taking the fingerprint.
      await eventually(async () => ((await store.unfinishedTasks()).length === 0 ? true : undefined), 10_000, 'earlier tasks to end');
    });

    it.each([
      ['no key', {}, 401, 'unauthorized'],
      ['a wrong key', { key: 'gpk_wrong' }, 401, 'invalid_api_key'],
    ])('refuses %s with 401 and WWW-Authenticate: Bearer', async (_, auth, status, code) => {
      before = await snapshot();
      const answer = await call(service.url, '/api/publish', { ...auth, body: { record: sampleRecordAs('api-refused') } });
      expect(answer.status).toBe(status);
      expect(answer.json().error.code).toBe(code);
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer realm="garment-press"/);
      expect(await snapshot()).toEqual(before);
    });

    it.each([
      [
        'malformed JSON',
        '{"record": {"slug": }',
        'invalid_json',
        'the request body is not JSON: line 1, column 21: expected a JSON value, got "}"',
      ],
      ['an empty body', '', 'invalid_json', 'the request body is not JSON: line 1, column 1: expected a JSON value, got end of file'],
      [
        'a JSON array',
        '[1]',
        'invalid_request',
        'expected a record (with schema_version) as the body, or { "record": {...} or "<record text>", "callback_url": "https://..." }, got an array',
      ],
      [
        'a misspelt field',
        '{"record": {}, "callbackUrl": "https://x.example/"}',
        'invalid_request',
        'unknown field "callbackUrl"; expected a record (with schema_version) as the body, or { "record": {...} or "<record text>", "callback_url": "https://..." }',
      ],
      [
        'a missing record',
        '{"callback_url": "https://x.example/"}',
        'invalid_request',
        'missing "record"; expected a record (with schema_version) as the body, or { "record": {...} or "<record text>", "callback_url": "https://..." }',
      ],
      ['a record that is not an object', '{"record": 7}', 'invalid_request', '"record" must be a JSON object or its text, got a number'],
      [
        'a record as text that is not JSON',
        '{"record": "tee"}',
        'invalid_request',
        '"record" as text must be a record\'s JSON text: line 1, column 2: expected "true", got "e"',
      ],
      [
        'a callback_url that is not a string',
        '{"record": {}, "callback_url": 5}',
        'invalid_request',
        '"callback_url" must be a string, got a number',
      ],
      [
        'bytes that are not UTF-8',
        Buffer.from([0x7b, 0xff, 0x7d]),
        'invalid_body',
        'the request body is not UTF-8 text: line 1, column 2: byte 0xFF is not part of a UTF-8 character',
      ],
      [
        'a record nested 50,000 deep',
        `{"record": {"a": ${'['.repeat(50_000)}${']'.repeat(50_000)}}}`,
        'invalid_request',
        '"record" is nested too deeply to be a record',
      ],
    ])('refuses %s with 400 and says what is wrong', async (_, rawBody, code, message) => {
      before = await snapshot();
      const answer = await call(service.url, '/api/publish', { key, rawBody, headers: { 'Content-Type': 'application/json' } });
      expect(answer.status).toBe(400);
      expect(answer.json()).toEqual({ error: { code, message } });
      expect(await snapshot()).toEqual(before);
    });

    it('refuses callback_url given both in the body and in the query string', async () => {
      const answer = await call(service.url, '/api/publish?callback_url=https%3A%2F%2Fa.example%2F', {
        key,
        body: { record: sampleRecordAs('api-refused'), callback_url: 'https://b.example/' },
      });
      expect(answer.status).toBe(400);
      expect(answer.json().error.message).toMatch(/both in the body and in the query string/);
    });

    it.each([
      ['http://hooks.example.com/x', 'callback_url refused: scheme must be https, got http'],
      ['https://10.1.2.3/x', 'callback_url refused: address 10.1.2.3 is private'],
      ['https://hooks.internal/x', 'callback_url refused: host hooks.internal is a private name (.internal)'],
      ['not a url', 'callback_url refused: not an absolute URL'],
    ])('refuses the callback_url %s with 422 callback_url_refused', async (callbackUrl, message) => {
      before = await snapshot();
      const answer = await call(service.url, '/api/publish', {
        key,
        body: { record: sampleRecordAs('api-refused'), callback_url: callbackUrl },
      });
      expect(answer.status).toBe(422);
      expect(answer.json()).toEqual({ error: { code: 'callback_url_refused', message } });
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a body declared far over the limit with 413 at once, and closes the connection', async () => {
      before = await snapshot();
      const answer = await rawPost({ 'Content-Length': String(64 * BODY_LIMIT) }, (req) => req.write('{"record":'));
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.text).error.code).toBe('payload_too_large');
      expect(answer.headers.connection).toBe('close');
      expect(await snapshot()).toEqual(before);
    });

    it('lets a client that goes on sending a body somewhat over the limit read its 413, without a broken pipe', async () => {
      before = await snapshot();
      // Like fetch, this client sends its whole body before it reads the answer.
      const length = 2 * BODY_LIMIT;
      const port = new URL(service.url).port;
      const outcome = await new Promise<{ answer: string; error: string | undefined }>((resolve) => {
        const socket = connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: true });
        let answer = '';
        let error: string | undefined;
        socket.on('data', (bytes: Buffer) => (answer += bytes.toString('utf8')));
        socket.on('error', (failure: NodeJS.ErrnoException) => (error = failure.code ?? failure.message));
        socket.on('close', () => resolve({ answer, error }));
        socket.write(
          `POST /api/publish HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`,
        );
        const chunk = Buffer.alloc(length / 16, 0x20);
        let sent = 0;
        const sendNext = () => {
          if (error !== undefined) return;
          if (sent++ === 16) return void socket.end();
          socket.write(chunk, () => setTimeout(sendNext, 20));
        };
        sendNext();
      });
      expect(outcome.error).toBeUndefined();
      expect(outcome.answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(outcome.answer).toContain('"payload_too_large"');
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a chunked body that grows over the limit with 413, and stops reading', async () => {
      before = await snapshot();
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let written = 0;
      const answer = await rawPost({ 'Transfer-Encoding': 'chunked' }, (req) => {
        // Keeps sending until the server answers: far more than the limit if nobody stopped it.
        const pump = () => {
          while (written < 64 * 1024 * 1024 && req.write(chunk)) written += chunk.length;
          if (written < 64 * 1024 * 1024) req.once('drain', pump);
        };
        pump();
      });
      expect(answer.status).toBe(413);
      expect(written).toBeLessThan(16 * 1024 * 1024);
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a loopback callback_url unless the test-only setting is on', async () => {
      const strict = await startPublishService({
        dataDir: path.join(work, 'strict-data'),
        recordsDir,
        outDir: path.join(work, 'out'),
        port: 0,
        buildSite: async () => builds.outcome,
        log: () => {},
      });
      try {
        const strictStore = openSqlitePublishStore(path.join(work, 'strict-data', 'publish.db'));
        const strictKey = (await strictStore.createApiKey((await strictStore.createOrganization('Strict')).id)).key;
        await strictStore.close();
        before = await snapshot();
        const answer = await call(strict.url, '/api/publish', {
          key: strictKey,
          body: { record: sampleRecordAs('api-refused'), callback_url: 'https://127.0.0.1:9/hook' },
        });
        expect(answer.status).toBe(422);
        expect(answer.json().error.message).toBe('callback_url refused: address 127.0.0.1 is loopback');
        expect(await snapshot()).toEqual(before);
      } finally {
        await strict.close();
      }
    });

    it('answers a wrong method with 405 and Allow, and an unknown route with 404', async () => {
      const wrongMethod = await call(service.url, '/api/publish', { key });
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.headers.get('allow')).toBe('POST');
      const unknown = await call(service.url, '/api/publishes', { key, method: 'POST', body: {} });
      expect(unknown.status).toBe(404);
      expect(unknown.json().error.code).toBe('not_found');
    });
  });
});

describe('the task', () => {
  it('ends failed with every validator message in error, without writing or building', async () => {
    const buildsBefore = builds.count;
    const filesBefore = fingerprint(recordsDir);
    const record = sampleRecordAs('Not A Slug');
    delete record.claim_target_base;
    const handle = await publish(record);
    const answer = (await generation(handle, '?wait=1')).json();
    expect(answer).toMatchObject({ status: 'failed', done: true, stage: 'failed', progress: 1, page_url: '', resource_id: '' });
    expect(answer.error.split('\n')).toEqual([
      'record: /claim_target_base: missing required property "claim_target_base"',
      'record: /slug: must match ^[a-z0-9]+(?:-[a-z0-9]+)*$; got "Not A Slug"',
    ]);
    expect(answer.problems).toEqual([
      { pointer: '/claim_target_base', message: 'missing required property "claim_target_base"' },
      { pointer: '/slug', message: 'must match ^[a-z0-9]+(?:-[a-z0-9]+)*$; got "Not A Slug"' },
    ]);
    expect(builds.count).toBe(buildsBefore);
    expect(fingerprint(recordsDir)).toEqual(filesBefore);
  });

  it('fails every task of a failed build with an incident id and no build output, and puts the records folder back', async () => {
    // The sample records were in the folder before the service: nobody's until the operator grants one.
    await store.owners.grant('ridgeline-rk6210-heavyweight-tee', (await store.organizationForKey(key))!);
    const existing = path.join(recordsDir, 'ridgeline-rk6210-heavyweight-tee.svc.json');
    const originalText = readFileSync(existing, 'utf8');
    const filesBefore = fingerprint(recordsDir).map((line) => line.split(' ')[0]);
    builds.outcome = { ok: false, output: 'validate: 7 files\nastro: the renderer crashed', seconds: 0.1 };
    try {
      const changed = { ...sampleRecordAs('ridgeline-rk6210-heavyweight-tee'), record_revision: 'changed-by-a-failed-build' };
      const handles = [await publish(sampleRecordAs('api-doomed-tee')), await publish(changed)];
      const answers = await Promise.all(handles.map(async (handle) => (await generation(handle, '?wait=1.5')).json()));
      for (const answer of answers) {
        expect(answer.status).toBe('failed');
        expect(answer.error).toMatch(
          /^the site build failed; this is not a problem in your record \(incident inc_[0-9a-f]{12}, in the service's log\)/,
        );
        expect(answer.error).not.toContain('astro');
        expect(answer.error).not.toContain(work);
        const incident = /inc_[0-9a-f]{12}/.exec(answer.error)![0];
        expect(logLines.find((line) => line.startsWith(`incident ${incident}: `))).toContain('astro: the renderer crashed');
      }
      expect(answers.map((answer) => answer.resource_id)).toEqual(['api-doomed-tee/svc', 'ridgeline-rk6210-heavyweight-tee/svc']);
    } finally {
      builds.outcome = { ok: true, output: 'built', seconds: 0.1 };
    }
    expect(existsSync(path.join(recordsDir, 'api-doomed-tee.svc.json'))).toBe(false);
    expect(readFileSync(existing, 'utf8')).toBe(originalText);
    expect(fingerprint(recordsDir).map((line) => line.split(' ')[0])).toEqual(filesBefore);
  });

  it('gives twenty publishes arriving together one shared build, and tasks arriving during it the next one', async () => {
    const release = holdBuilds();
    const buildsBefore = builds.count;
    const first = await Promise.all(Array.from({ length: 20 }, (_, i) => publish(sampleRecordAs(`api-batch-${i}`))));
    await eventually(() => (builds.count > buildsBefore ? true : undefined), 5000, 'the shared build to start');
    const duringBuild = await Promise.all(Array.from({ length: 5 }, (_, i) => publish(sampleRecordAs(`api-late-${i}`))));
    for (const handle of duringBuild) {
      expect((await generation(handle)).json().stage).toBe('waiting for build');
    }
    release();
    const answers = await Promise.all([...first, ...duringBuild].map(async (handle) => (await generation(handle, '?wait=1.5')).json()));
    expect(answers.every((answer) => answer.status === 'complete')).toBe(true);
    expect(builds.count - buildsBefore).toBe(2);
  });
});

describe('GET /api/generations/<handle>', () => {
  it('long-polls: answers as soon as the task ends, well before the wait is over', async () => {
    const release = holdBuilds();
    const handle = await publish(sampleRecordAs('api-polled-tee'));
    // The build is held: the task waits in it, and a long poll started now cannot answer 'complete' until released.
    await eventually(async () => ((await generation(handle)).json().stage === 'building site' ? true : undefined), 10_000, 'the build');
    const polling = generation(handle, `?wait=${CAP_SECONDS}`);
    let answered = false;
    void polling.then(() => (answered = true));
    expect((await generation(handle)).json()).toMatchObject({ status: 'running', done: false });
    expect(answered).toBe(false);
    release();
    // Woken by the task's end: a poll that ran out its wait would have answered 'running'.
    expect((await polling).json()).toMatchObject({ status: 'complete', done: true });
  });

  it('never waits longer than the cap, however long the caller asks for', async () => {
    const release = holdBuilds();
    try {
      const handle = await publish(sampleRecordAs('api-slow-tee'));
      const started = performance.now();
      const answer = (await generation(handle, '?wait=3600')).json();
      const waited = performance.now() - started;
      expect(answer).toMatchObject({ status: 'running', done: false });
      expect(waited).toBeGreaterThanOrEqual(CAP_SECONDS * 1000 - 50);
      expect(waited).toBeLessThan(CAP_SECONDS * 1000 + 1000);
    } finally {
      release();
    }
  });

  it('caps an MCP wait_seconds over the cap as ?wait is capped, rather than refusing it', async () => {
    const release = holdBuilds();
    const client = await httpClient(service.url, key);
    try {
      const handle = await publish(sampleRecordAs('mcp-slow-tee'));
      const started = performance.now();
      const polled = await callTool(client, 'garments.get_generation', { handle, wait_seconds: 3600 });
      const waited = performance.now() - started;
      expect(polled.isError).toBeFalsy();
      expect(polled.structuredContent).toMatchObject({ handle, status: 'running', done: false });
      expect(waited).toBeGreaterThanOrEqual(CAP_SECONDS * 1000 - 50);
      expect(waited).toBeLessThan(CAP_SECONDS * 1000 + 1000);
    } finally {
      release();
      await client.close();
    }
  });

  it('answers at once without wait, with the current stage and progress', async () => {
    const release = holdBuilds();
    try {
      const handle = await publish(sampleRecordAs('api-quick-look'));
      const answer = await eventually(
        async () => {
          const current = (await generation(handle)).json();
          return current.stage === 'building site' ? current : undefined;
        },
        5000,
        'the building stage',
      );
      expect(answer).toEqual({
        handle,
        resource_id: 'api-quick-look/svc',
        status: 'running',
        done: false,
        progress: 0.5,
        stage: 'building site',
        page_url: '',
        error: '',
        problems: [],
        superseded_by: null,
      });
    } finally {
      release();
    }
  });

  it('reads a handle written in upper case as the same handle, as UUIDs are case-insensitive', async () => {
    const handle = await publish(sampleRecordAs('api-upper-tee'));
    const answer = await generation(handle.toUpperCase(), '?wait=1.5');
    expect(answer.status).toBe(200);
    expect(answer.json()).toMatchObject({ handle, status: 'complete' });
  });

  it('refuses an invalid wait with 400', async () => {
    const handle = await publish(sampleRecordAs('api-wait-tee'));
    const answer = await generation(handle, '?wait=-3');
    expect(answer.status).toBe(400);
    expect(answer.json().error).toEqual({
      code: 'invalid_wait',
      message: `wait: expected a number of seconds, 0 or more (a wait over ${CAP_SECONDS} is capped), got "-3"`,
    });
  });

  it("answers another organization's handle exactly as an unknown one: 404", async () => {
    const handle = await publish(sampleRecordAs('api-private-tee'));
    const unknownHandle = '00000000-0000-4000-8000-000000000000';
    const foreign = await generation(handle, '', otherKey);
    const unknown = await generation(unknownHandle, '', otherKey);
    expect(foreign.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(foreign.text.replace(handle, 'H')).toBe(unknown.text.replace(unknownHandle, 'H'));
    expect((await generation('not-a-uuid', '', otherKey)).status).toBe(404);
  });

  it('serves the stored text of an ended task, byte for byte the same on every call', async () => {
    const handle = await publish(sampleRecordAs('api-stable-tee'));
    const first = await generation(handle, '?wait=1.5');
    const second = await generation(handle);
    expect(second.text).toBe(first.text);
    expect(second.text).toBe((await store.getTask(handle))?.resultJson);
    expect(second.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });
});

describe('GET /api/webhooks/deliveries and /api/health', () => {
  it("lists only the caller's organization's attempts, and needs a key", async () => {
    expect((await call(service.url, '/api/webhooks/deliveries')).status).toBe(401);
    const answer = await call(service.url, '/api/webhooks/deliveries?limit=5', { key: otherKey });
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ deliveries: [], next_before: null });
    expect((await call(service.url, '/api/webhooks/deliveries?limit=0', { key })).status).toBe(400);
  });

  it('reports the build counts without a key', async () => {
    const answer = await call(service.url, '/api/health');
    expect(answer.status).toBe(200);
    expect(answer.json()).toMatchObject({ status: 'ok', builds: { started: expect.any(Number), this_run: expect.any(Number) } });
  });
});

describe('logs', () => {
  it('write one line per request and per task transition, and never an API key', () => {
    const text = logLines.join('\n');
    expect(text).toMatch(/^http POST \/api\/publish 202 \d+ ms$/m);
    expect(text).toMatch(/^task [0-9a-f-]{36} running: building site$/m);
    expect(text).not.toContain(key);
    expect(text).not.toContain(otherKey);
    expect(text).not.toContain('callback_url=');
  });
});

/** Posts to /api/publish with the given headers through node:http, so the body can be streamed. */
function rawPost(headers: Record<string, string>, send: (request: ReturnType<typeof httpRequest>) => void) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }>((resolve, reject) => {
    const request = httpRequest(`${service.url}/api/publish`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers },
    });
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text });
        request.destroy();
      });
    });
    // The server closing the connection while the client still sends is expected here.
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    send(request);
  });
}
