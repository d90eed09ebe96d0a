// An outbox.db written before numbered migrations (user_version 0) upgrades in place on open.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openOutbox } from '../../../src/lib/webhooks/index.ts';
import { SQLITE_OUTBOX_MIGRATIONS } from '../../../src/lib/webhooks/outbox-sqlite.ts';
import { startReceiver, type TestReceiver } from './support/receiver.ts';
import { createTestCertificate, type TestCertificate } from './support/tls.ts';

const T0 = Date.UTC(2026, 2, 1);
const SECRET = 'whsec_upgrade';
const HANDLE = '0d9c4a8e-2b1f-4c3d-9e8f-7a6b5c4d3e2f';

let certificate: TestCertificate;
let receiver: TestReceiver;

beforeAll(() => {
  certificate = createTestCertificate();
});

afterEach(async () => {
  await receiver?.close();
});

/** Writes an outbox file as the first outbox code did: its tables, no later columns, user_version 0, one pending event. */
function writeFirstVersionOutbox(path: string, callbackUrl: string): void {
  const db = new DatabaseSync(path);
  db.exec(SQLITE_OUTBOX_MIGRATIONS[0] as string);
  db.prepare(
    `INSERT INTO webhook_outbox (organization_id, callback_url, event, handle, tool, data_json, next_attempt_at, created_at)
     VALUES ('org_old', ?, 'design.completed', ?, 'design.generate', '{"status":"complete"}', ?, ?)`,
  ).run(callbackUrl, HANDLE, T0, T0);
  db.close();
}

describe('an outbox file from before numbered migrations', () => {
  it('is upgraded in place on open, keeping its pending event, which is then delivered', async () => {
    receiver = await startReceiver({
      certificate,
      secrets: () => [SECRET],
      now: () => T0,
      reply: () => ({ status: 503, headers: { 'retry-after': '30' } }),
    });
    const path = join(mkdtempSync(join(tmpdir(), 'outbox-upgrade-')), 'outbox.db');
    writeFirstVersionOutbox(path, receiver.url());

    const outbox = await openOutbox(path, {
      secretFor: () => SECRET,
      policy: { allowLoopback: true },
      trustedCa: certificate.cert,
      now: () => T0,
    });
    try {
      expect(await outbox.runDue()).toBe(1);
      const [delivery] = await outbox.listDeliveries('org_old', { handle: HANDLE });
      // The columns added since (the round's length, Retry-After) work on the old row; Retry-After leaves the schedule alone.
      expect(delivery).toMatchObject({
        state: 'pending',
        attemptsMade: 1,
        attemptLimit: 5,
        nextAttemptAt: new Date(T0 + 60_000).toISOString(),
      });
      expect(delivery!.attempts[0]).toMatchObject({ status: 503, retryAfter: '30' });
    } finally {
      await outbox.close();
    }
    const db = new DatabaseSync(path);
    expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: SQLITE_OUTBOX_MIGRATIONS.length });
    db.close();
  });
});
