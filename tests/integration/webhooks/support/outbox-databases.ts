// The databases the outbox suite runs against, each a fresh empty one per test.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OutboxDatabase } from '../../../../src/lib/webhooks/index.ts';

/** A kind of database the outbox runs on, and how a test gets a fresh one. */
export interface OutboxTestDatabase {
  name: string;
  /** A new empty database; every outbox opened on it shares its state. */
  create(): Promise<OutboxDatabase>;
}

const sqlite: OutboxTestDatabase = {
  name: 'SQLite',
  create: async () => join(mkdtempSync(join(tmpdir(), 'webhook-outbox-')), 'outbox.sqlite'),
};

/** Every adapter the outbox has. */
export const outboxDatabases: OutboxTestDatabase[] = [sqlite];
