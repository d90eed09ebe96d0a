// Runs the Node and Python examples of /docs/webhooks/ exactly as published against a real `serve`
// on loopback, as "Testing webhooks on your own machine" tells a reader to: the clients publish,
// poll, long-poll and list deliveries; the receivers, over https with a self-signed certificate,
// verify the service's real deliveries. The page's failure example must be what the service answers.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_MISTAKES, withMistakes } from '../../../src/lib/docs/failed-publish-example.ts';
import { signPayload } from '../../../src/lib/webhooks/index.ts';
import { decodeHtml, examplesOf } from '../../support/docs-examples.ts';
import { node } from '../../support/run.ts';
import { sharedSite } from '../../support/shared-site.ts';
import { eventually, type ServeProcess, type ServiceWorkspace, serviceWorkspace, startServe, stopServe } from '../publish/support.ts';

const run = promisify(execFile);
const TEE = 'ridgeline-rk6210-heavyweight-tee';

/** A receiver example running as a reader would start it, and everything it printed. */
interface RunningReceiver {
  child: ChildProcess;
  url: string;
  output: () => string;
}

let workspace: ServiceWorkspace;
let service: ServeProcess;
let page: string;
const receivers: RunningReceiver[] = [];

beforeAll(async () => {
  const { dist } = await sharedSite('samples-and-hostile');
  page = readFileSync(path.join(dist, 'docs/webhooks/index.html'), 'utf8');
  workspace = await serviceWorkspace('docs-examples-', ['Docs reader']);
  for (const [file, code] of examplesOf(page)) writeFileSync(path.join(workspace.work, file), code);
  // Step 2 of the page: the garments already in the records folder, given to the reader's organization.
  await workspace.admin('garment', 'adopt', '--org', workspace.organizations[0]!.id, '--records', workspace.recordsDir);
  const { recordsDir, outDir, dataDir, certificate } = workspace;
  const folders = { '--records': recordsDir, '--out': outDir, '--data': dataDir };
  service = await startServe([...Object.entries(folders).flat(), '--allow-loopback-callbacks', '--trust-ca', certificate.certFile]);
}, 120_000);

afterAll(async () => {
  for (const { child } of receivers) if (child.exitCode === null) child.kill();
  await stopServe(service);
  if (workspace) rmSync(workspace.work, { recursive: true, force: true });
});

/** Starts a receiver example over https on a free port, with the organization's secret. */
async function startReceiver(command: string, file: string): Promise<RunningReceiver> {
  const env = {
    ...process.env,
    PORT: '0',
    WEBHOOK_SECRETS: workspace.organizations[0]!.secret,
    TLS_CERT: workspace.certificate.certFile,
    TLS_KEY: path.join(path.dirname(workspace.certificate.certFile), 'receiver-key.pem'),
  };
  const child = spawn(command, [file], { cwd: workspace.work, env });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const port = await eventually(() => /listening on port (\d+)/.exec(output)?.[1], 20_000, `${file} to listen; it printed:\n${output}`);
  const receiver = { child, url: `https://127.0.0.1:${port}/garment-press`, output: () => output };
  receivers.push(receiver);
  return receiver;
}

/** Runs a client example as the page shows, against the service, with the organization's key. */
async function runClient(command: string, file: string, args: string[]): Promise<string> {
  const env = { ...process.env, GARMENT_PRESS_URL: service.url, GARMENT_PRESS_KEY: workspace.organizations[0]!.key };
  const { stdout } = await run(command, [file, ...args], { cwd: workspace.work, env, timeout: 120_000 });
  return stdout;
}

/** The JSON of the page's "A failed task" example. */
function failedTaskOnPage(): { error: string; problems: { pointer: string; message: string }[] } {
  const block = /aria-label="A failed task"[^>]*><code[^>]*>([\s\S]*?)<\/code>/.exec(page)![1]!;
  return JSON.parse(decodeHtml(block));
}

describe('the Node and Python examples on /docs/webhooks/, against npm run serve', () => {
  it('publish.py publishes, polls and long-polls to the live page, and receiver.py verifies the real delivery', async () => {
    const receiver = await startReceiver('python3', 'receiver.py');
    const printed = await runClient('python3', 'publish.py', [path.join(workspace.recordsDir, `${TEE}.svc.json`), receiver.url]);

    const lines = printed.trim().split('\n');
    expect(lines[0]).toMatch(/^handle [0-9a-f-]{36}$/);
    expect(lines).toContain(`published: ${service.url.replace('127.0.0.1', 'localhost')}/garments/${TEE}/svc/`);
    expect(lines.at(-1)).toMatch(/^delivery of publish\.completed: (pending|delivered) after [01] attempt\(s\)$/);
    await eventually(() => (receiver.output().includes(`published: `) ? true : undefined), 30_000, 'receiver.py to take the event');
    expect(receiver.output()).toContain(`published: ${service.url.replace('127.0.0.1', 'localhost')}/garments/${TEE}/svc/\n`);
  }, 180_000);

  it('publish.mjs prints every problem of the broken record, the very ones the page shows, and receiver.mjs takes the failure', async () => {
    const receiver = await startReceiver(node, 'receiver.mjs');
    const recordText = readFileSync(path.join(workspace.recordsDir, `${TEE}.svc.json`), 'utf8');
    writeFileSync(path.join(workspace.work, 'broken.json'), withMistakes(recordText, EXAMPLE_MISTAKES));
    const printed = await runClient(node, 'publish.mjs', ['broken.json', receiver.url]);

    const example = failedTaskOnPage();
    expect(example.problems.map((problem) => problem.pointer).sort()).toEqual(EXAMPLE_MISTAKES.map((mistake) => mistake.pointer).sort());
    const problemLines = printed.split('\n').filter((line) => line.startsWith('problem at '));
    expect(problemLines).toEqual(example.problems.map((problem) => `problem at ${problem.pointer}: ${problem.message}`));
    expect(printed).toMatch(/^failed: failed$/m);
    await eventually(() => (receiver.output().includes('publishing failed') ? true : undefined), 30_000, 'receiver.mjs to take the event');
    expect(receiver.output()).toContain(`publishing failed: ${example.error}\n`);
  }, 180_000);

  it('the service test event reaches both receivers, named as such', async () => {
    for (const receiver of receivers) {
      const answer = await fetch(`${service.url}/api/webhooks/test`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${workspace.organizations[0]!.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ callback_url: receiver.url }),
      });
      expect((await answer.json()).delivery.outcome).toBe('delivered');
      await eventually(
        () => (receiver.output().includes('test.completed from webhooks.send_test\n') ? true : undefined),
        10_000,
        'the test event',
      );
    }
  }, 60_000);
});

describe('verify.py on /docs/webhooks/', () => {
  it('accepts the service signature and rejects tampering, old and future times, as verify.mjs does', async () => {
    const body = '{"event":"publish.completed","handle":"6f1c2b0e-3a4d-4e5f-8a9b-0c1d2e3f4a5b","data":{"é":"ü"}}';
    const secret = 'whsec_test-secret';
    const t = 1_767_225_600;
    const header = signPayload(secret, t, body);
    const cases: [string, string | null, string[], number, boolean][] = [
      [body, header, [secret], t, true],
      [body, header, ['whsec_new-secret', secret], t + 300, true],
      [body, `${header},v1=${'0'.repeat(64)}`, [secret], t, true],
      [body, `t=${t},v1=${'0'.repeat(64)},${header.split(',')[1]}`, [secret], t, true],
      [body, header, [secret], t + 301, false],
      [body, header, [secret], t + 300.5, false],
      [body, header, [secret], t - 301, false],
      [`${body} `, header, [secret], t, false],
      [body, header, [secret.slice('whsec_'.length)], t, false],
      [body, null, [secret], t, false],
      [body, header.replace('v1=', 'v0='), [secret], t, false],
      [body, `t=${t},t=${t},${header.split(',')[1]}`, [secret], t, false],
      [body, header.replace(/v1=(.)/, 'v1=A'), [secret], t, false],
    ];
    const script = [
      'import json, sys',
      'from verify import verify_delivery',
      'cases = json.load(sys.stdin)',
      'print(json.dumps([verify_delivery(body.encode("utf-8"), header, secrets, now) for body, header, secrets, now, _ in cases]))',
    ].join('\n');
    const child = execFile('python3', ['-c', script], { cwd: workspace.work });
    child.stdin!.end(JSON.stringify(cases));
    const stdout = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`python3 exited with ${code}`))));
    });
    expect(JSON.parse(stdout)).toEqual(cases.map((c) => c[4]));
  });
});
