// The build lease on PostgreSQL, two instances' coordinations in one process: a holder that stops
// renewing loses the lease when it runs out, the next taking counts a new term, and a swap goes
// ahead only under the term that is current.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresDatabase, type PostgresDatabase } from '../../../src/lib/database/index.ts';
import { type Coordination, createPostgresCoordination, LeaseLostError, openPostgresPublishStore } from '../../../src/lib/publish/index.ts';
import { swapUnderLease } from '../../../src/lib/publish/postgres-coordination.ts';
import { freshPostgresDatabase } from '../../support/postgres.ts';
import { eventually } from './support.ts';

let url: string;
let database: PostgresDatabase;
const opened: Coordination[] = [];

/** A coordination whose lease lasts `durationMs`, renewed or tried for every `checkMs`. */
function coordination(instance: string, checkMs: number, durationMs = 1000): Coordination {
  const made = createPostgresCoordination(database, { instance, connectionString: url, checkMs, durationMs });
  made.listen({ taskEnded: () => {}, taskStageChanged: () => {}, taskWaiting: () => {}, leaseChanged: () => {} });
  opened.push(made);
  return made;
}

beforeAll(async () => {
  url = await freshPostgresDatabase();
  database = openPostgresDatabase(url);
  await openPostgresPublishStore(database);
});

afterAll(async () => {
  for (const made of opened) await made.close();
  await database?.close();
});

describe('the build lease', () => {
  it('passes from a holder that stops renewing to the next instance once it runs out, under a new term that alone may swap', async () => {
    // a renews once a minute: as good as hung, for a lease of one second.
    const a = coordination('a', 60_000);
    await a.start();
    expect(a.holdsLease).toBe(true);
    const b = coordination('b', 50);
    await b.start();
    expect(b.holdsLease).toBe(false);
    expect(await b.leaseHolder()).toBe('a');
    const stale = a.leaseFence()!;
    expect(stale.term).toBe(1);

    await eventually(() => (b.holdsLease ? true : undefined), 10_000, 'b to take the lease');
    expect(a.holdsLease).toBe(false);
    expect(await a.leaseHolder()).toBe('b');
    const current = b.leaseFence()!;
    expect(current.term).toBe(2);

    const swapped: string[] = [];
    await expect(swapUnderLease(stale, async () => void swapped.push('a'))).rejects.toThrow(LeaseLostError);
    await swapUnderLease(current, async () => void swapped.push('b'));
    expect(swapped).toEqual(['b']);
    await a.close();
    await b.close();
  });

  it('is held by nobody once its holder closes, and taken at the next try', async () => {
    const c = coordination('c', 50);
    await c.start();
    await eventually(async () => ((await c.leaseHolder()) === 'c' ? true : undefined), 10_000, 'c to hold the lease');
    const d = coordination('d', 50);
    await d.start();
    await c.close();
    await eventually(() => (d.holdsLease ? true : undefined), 10_000, 'd to take the lease');
    expect(await d.leaseHolder()).toBe('d');
  });
});
