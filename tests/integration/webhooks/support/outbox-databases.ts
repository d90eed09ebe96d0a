// The databases the outbox suite runs against, each a fresh empty one per test.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresDatabase } from '../../../../src/lib/database/index.ts';
import type { OutboxDatabase } from '../../../../src/lib/webhooks/index.ts';
import { freshPostgresDatabase } from '../../../support/postgres.ts';

/** A fresh database, how another process reaches it, and how to let it go. */
export interface TestDatabase {
  database: OutboxDatabase;
  /** What `webhook deliver --db` takes to reach the same database from another process. */
  address: string;
  /** Opens it again on a connection pool of its own, as another instance would (SQLite: the same path). */
  reopen(): OutboxDatabase;
  close(): Promise<void>;
}

/** A kind of database the outbox runs on. */
export interface OutboxTestDatabase {
  name: string;
  create(): Promise<TestDatabase>;
}

const sqlite: OutboxTestDatabase = {
  name: 'SQLite',
  async create() {
    const path = join(mkdtempSync(join(tmpdir(), 'webhook-outbox-')), 'outbox.sqlite');
    return { database: path, address: path, reopen: () => path, close: async () => {} };
  },
};

/** PostgreSQL in the test cluster: a new database per call. */
export const postgresql: OutboxTestDatabase = {
  name: 'PostgreSQL',
  async create() {
    const url = await freshPostgresDatabase();
    const pools = [openPostgresDatabase(url)];
    return {
      database: pools[0]!,
      address: url,
      reopen() {
        const pool = openPostgresDatabase(url);
        pools.push(pool);
        return pool;
      },
      close: async () => {
        // A test may have closed a pool already, to make its instance vanish.
        await Promise.all(pools.map((pool) => pool.close().catch(() => {})));
      },
    };
  },
};

/** Every adapter the outbox has. */
export const outboxDatabases: OutboxTestDatabase[] = [sqlite, postgresql];
