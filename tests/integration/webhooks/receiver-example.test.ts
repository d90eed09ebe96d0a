// Runs the receiver published on /docs/webhooks/ exactly as a reader would copy it, and sends it
// copies of events the way the service does (each copy a new X-Svc-Delivery and a fresh signature).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEventBody } from '../../../src/lib/webhooks/event-body.ts';
import { signPayload } from '../../../src/lib/webhooks/index.ts';
import { examplesOf } from '../../support/docs-examples.ts';
import { node } from '../../support/run.ts';
import { sharedSite } from '../../support/shared-site.ts';

const SECRET = 'whsec_receiver-example-test';
const HANDLE = '6f1c2b0e-3a4d-4e5f-8a9b-0c1d2e3f4a5b';

let receiver: ChildProcess;
let port: number;
let output = '';

beforeAll(async () => {
  const { dist } = await sharedSite('samples-and-hostile');
  const examples = examplesOf(readFileSync(path.join(dist, 'docs/webhooks/index.html'), 'utf8'));
  const dir = mkdtempSync(path.join(tmpdir(), 'receiver-example-'));
  for (const file of ['verify.mjs', 'receiver.mjs']) writeFileSync(path.join(dir, file), examples.get(file)!);
  receiver = spawn(node, ['receiver.mjs'], { cwd: dir, env: { ...process.env, PORT: '0', WEBHOOK_SECRETS: SECRET } });
  receiver.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  port = await new Promise<number>((resolve, reject) => {
    receiver.once('exit', (code) => reject(new Error(`receiver.mjs exited with ${code}: ${output}`)));
    receiver.stdout!.on('data', () => {
      const listening = /listening on port (\d+)/.exec(output);
      if (listening) resolve(Number(listening[1]));
    });
  });
});

afterAll(async () => {
  if (receiver.exitCode === null && receiver.signalCode === null) {
    receiver.kill();
    await new Promise((resolve) => receiver.once('exit', resolve));
  }
});

/** Sends one copy of an event as the service sends every attempt: new delivery id, delivered_at and signature. */
async function deliver(event: string, options: { deliveredAt: Date; tamper?: boolean }): Promise<number> {
  const body = buildEventBody(
    {
      event,
      handle: HANDLE,
      tool: 'garments.publish',
      organizationId: 'org_example',
      dataJson: JSON.stringify({
        handle: HANDLE,
        status: event.endsWith('completed') ? 'complete' : 'failed',
        page_url: '/p/',
        error: 'no',
      }),
    },
    options.deliveredAt,
  );
  const signature = signPayload(SECRET, Math.floor(Date.now() / 1000), body);
  const response = await fetch(`http://127.0.0.1:${port}/garment-press`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'Svc-Webhooks/1',
      'X-Svc-Event': event,
      'X-Svc-Delivery': randomUUID(),
      'X-Svc-Signature': signature,
    },
    body: options.tamper ? body.replace('"no"', '"yes"') : body,
  });
  await response.arrayBuffer();
  return response.status;
}

/** Stops the receiver and returns everything it printed after it started listening. */
async function stopAndReadOutput(): Promise<string[]> {
  const exited = new Promise((resolve) => receiver.once('exit', resolve));
  receiver.kill();
  await exited;
  return output.split('\n').filter((line) => line !== '' && !line.startsWith('listening'));
}

describe('the receiver example on /docs/webhooks/', () => {
  it('acts once on an event delivered again with a new X-Svc-Delivery, and separately on another event of the same handle', async () => {
    const first = new Date(Date.UTC(2026, 0, 1));
    // The first copy, then a retry of it after a crash: same handle and event, new delivery id.
    expect(await deliver('publish.completed', { deliveredAt: first })).toBe(204);
    expect(await deliver('publish.completed', { deliveredAt: new Date(first.getTime() + 60_000) })).toBe(204);
    // A forged copy is refused and changes nothing.
    expect(await deliver('publish.failed', { deliveredAt: first, tamper: true })).toBe(400);
    // Another event name for the same handle is another event.
    expect(await deliver('publish.failed', { deliveredAt: first })).toBe(204);

    expect(await stopAndReadOutput()).toEqual(['published: /p/', 'publishing failed: no']);
  });
});
