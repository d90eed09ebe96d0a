import pg from 'pg';
import type { PostgresDatabase } from '../database/index.ts';
import type { Coordination, CoordinationListeners, LeaseFence } from './coordination.ts';
import { errorMessage, GarmentPressError } from '../errors.ts';

const TASK_ENDED_CHANNEL = 'garment_press_task_ended';
const TASK_WAITING_CHANNEL = 'garment_press_task_waiting';
const TASK_STAGE_CHANNEL = 'garment_press_task_stage';

/** How long the build lease lasts from its last renewal, on the database's clock. */
export const LEASE_DURATION_MS = 20_000;
/** How often the holder renews the lease, and how often the others try for it: a hung builder is replaced within LEASE_DURATION_MS + LEASE_CHECK_MS. */
export const LEASE_CHECK_MS = 5_000;
/** A lease row locked by a swap in progress is tried again at the next check rather than waited for. */
const LEASE_LOCK_TIMEOUT = '1s';
/** A swap stopped (SIGSTOP, a frozen machine) while holding the lease row lets it go after this, so the next builder is not kept out. */
const SWAP_IDLE_TIMEOUT = '10s';

/** Raised by swapUnderLease when the build's lease ran out or was taken: the site is left as it was. */
export class LeaseLostError extends GarmentPressError {}

/**
 * Instances on one PostgreSQL database: LISTEN/NOTIFY carries ended, moved and waiting tasks (no polling),
 * and the build_lease row is the build lease. Its holder renews it every LEASE_CHECK_MS on a
 * connection of its own; another instance takes it once it ran out (a hung holder: SIGSTOP, a stuck
 * event loop, a lost machine) or once the holder's lease connection is gone (a killed holder, at the
 * next check). Each taking counts a new term, and a build swaps its site in only while its term
 * still holds (swapUnderLease), so a holder that comes back after losing the lease changes nothing.
 */
export function createPostgresCoordination(
  database: PostgresDatabase,
  {
    instance,
    connectionString,
    log = () => {},
    checkMs = LEASE_CHECK_MS,
    durationMs = LEASE_DURATION_MS,
  }: { instance: string; connectionString: string; log?: (line: string) => void; checkMs?: number; durationMs?: number },
): Coordination {
  let listeners: CoordinationListeners | undefined;
  let listener: pg.Client | undefined;
  let leaseClient: pg.Client | undefined;
  /** The lease as this instance holds it: its term, and until when (performance.now()) it may act on it. */
  let lease: { term: number; actUntil: number } | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  const holds = () => lease !== undefined && performance.now() < lease.actUntil;

  /** A connection of its own; `onLost` is told once it closes after connecting (a server gone, a database dropped). */
  const connect = async (name: string, onLost: (client: pg.Client) => void) => {
    const client = new pg.Client({ connectionString, application_name: `garment-press ${instance} ${name}`, keepAlive: true });
    // A connection the server ends is reported through 'end' (and the next query's error), never thrown from here.
    client.on('error', () => {});
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    client.once('end', () => onLost(client));
    return client;
  };

  const loseLease = (why: string) => {
    if (lease === undefined) return;
    lease = undefined;
    log(`build lease lost by ${instance} (${why})`);
    listeners?.leaseChanged(false);
  };

  /** The database's expiry lies at least durationMs after `sentAt`: acting until then, less a tenth for clocks that drift, is safe. */
  const actUntilFrom = (sentAt: number) => sentAt + durationMs * 0.9;

  const takeLease = async (client: pg.Client) => {
    const sentAt = performance.now();
    const { rows } = await client.query<{ term: string; previous: string | null; ran_out: boolean | null }>(
      `WITH previous AS (SELECT instance, expires_at <= now() AS ran_out FROM build_lease WHERE id = 1)
       INSERT INTO build_lease AS l (id, instance, backend_pid, acquired_at, term, expires_at)
       VALUES (1, $1, pg_backend_pid(), $2, 1, now() + $3 * interval '1 millisecond')
       ON CONFLICT (id) DO UPDATE SET instance = excluded.instance, backend_pid = excluded.backend_pid,
         acquired_at = excluded.acquired_at, term = l.term + 1, expires_at = excluded.expires_at
       WHERE l.expires_at <= now() OR l.backend_pid = pg_backend_pid()
         OR NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = l.backend_pid)
       RETURNING l.term, (SELECT instance FROM previous) AS previous, (SELECT ran_out FROM previous) AS ran_out`,
      [instance, Date.now(), durationMs],
    );
    const taken = rows[0];
    if (taken === undefined || closed) return;
    // A BIGINT, which this connection reads as text.
    lease = { term: Number(taken.term), actUntil: actUntilFrom(sentAt) };
    const from =
      taken.previous === null
        ? ''
        : taken.ran_out
          ? `; ${taken.previous}'s lease ran out`
          : `; ${taken.previous}'s lease connection closed`;
    log(`build lease taken by ${instance} (term ${taken.term}${from})`);
    listeners?.leaseChanged(true);
  };

  const renewLease = async (client: pg.Client, held: { term: number }) => {
    const sentAt = performance.now();
    const { rowCount } = await client.query(
      `UPDATE build_lease SET expires_at = now() + $2 * interval '1 millisecond' WHERE id = 1 AND term = $1`,
      [held.term, durationMs],
    );
    if (lease !== held) return;
    if (rowCount === 0) loseLease('it ran out and another instance took it');
    else lease = { term: held.term, actUntil: actUntilFrom(sentAt) };
  };

  /** The connection the lease is taken and renewed on; its closing ends the lease at once. */
  const leaseConnection = async () => {
    if (leaseClient !== undefined) return leaseClient;
    const client = await connect('lease', (lost) => {
      if (leaseClient === lost) leaseClient = undefined;
      loseLease('its database connection closed');
    });
    await client.query(`SET lock_timeout = '${LEASE_LOCK_TIMEOUT}'`);
    leaseClient = client;
    return client;
  };

  const check = async () => {
    if (closed) return;
    try {
      const client = await leaseConnection();
      if (lease === undefined) await takeLease(client);
      else await renewLease(client, lease);
    } catch (error) {
      // A lease row locked by a swap in progress is no failure: the next check tries again.
      if ((error as { code?: string }).code !== '55P03') log(`build lease: could not reach the database: ${errorMessage(error)}`);
    }
    if (lease !== undefined && !holds()) loseLease('it could not be renewed in time');
  };

  const schedule = () => {
    if (closed) return;
    timer = setTimeout(() => void check().finally(schedule), checkMs);
  };

  /** Listens again a second from now, and again until the database answers. */
  const listenAgain = () => {
    if (!closed) setTimeout(() => void listen().catch(listenAgain), 1000);
  };

  const listen = async (): Promise<void> => {
    const client = await connect('listen', () => {
      listener = undefined;
      // Ended tasks missed meanwhile are found by the long polls' own reads, waiting ones by the next builder's resumption.
      listenAgain();
    });
    client.on('notification', ({ channel, payload = '' }) => {
      if (channel === TASK_ENDED_CHANNEL) listeners?.taskEnded(payload);
      else if (channel === TASK_STAGE_CHANNEL) listeners?.taskStageChanged(payload);
      else if (channel === TASK_WAITING_CHANNEL && holds()) listeners?.taskWaiting(payload);
    });
    await client.query(`LISTEN ${TASK_ENDED_CHANNEL}; LISTEN ${TASK_STAGE_CHANNEL}; LISTEN ${TASK_WAITING_CHANNEL}`);
    listener = client;
  };

  return {
    instance,
    get holdsLease() {
      return holds();
    },
    leaseFence() {
      // Terms start at 1: a build started without the lease never swaps.
      return { connectionString, term: lease?.term ?? 0 };
    },
    async announceTaskEnded(handle) {
      await database.pool.query('SELECT pg_notify($1, $2)', [TASK_ENDED_CHANNEL, handle]);
    },
    async announceTaskStage(handle) {
      await database.pool.query('SELECT pg_notify($1, $2)', [TASK_STAGE_CHANNEL, handle]);
    },
    async announceTaskWaiting(handle) {
      await database.pool.query('SELECT pg_notify($1, $2)', [TASK_WAITING_CHANNEL, handle]);
    },
    listen(given) {
      listeners = given;
    },
    async leaseHolder() {
      // The row alone may name a builder that hung or died: the holder is whoever's lease is current and connected.
      const { rows } = await database.pool.query<{ instance: string }>(
        `SELECT l.instance FROM build_lease l
         WHERE l.expires_at > now() AND EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = l.backend_pid)`,
      );
      return rows[0]?.instance ?? null;
    },
    async start() {
      await listen();
      await check();
      schedule();
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      lease = undefined;
      // Its lease connection closing lets the next instance take the lease at its next check.
      await Promise.all([listener?.end(), leaseClient?.end()].map((ending) => ending?.catch(() => {})));
    },
  };
}

/**
 * Runs `swap` (a build putting its new site in place) only while the lease the build started under
 * is still current, holding the lease row so no other instance takes the lease meanwhile; throws
 * LeaseLostError, swapping nothing, when the lease ran out or passed to another instance. The swap
 * asks again (`stillHeld`) between renaming the old site aside and the new one in: a swap whose process
 * was stopped for longer than SWAP_IDLE_TIMEOUT has lost its hold on the row by then, and puts nothing in.
 */
export async function swapUnderLease(
  { connectionString, term }: LeaseFence,
  swap: (stillHeld: () => Promise<void>) => Promise<void>,
): Promise<void> {
  const client = new pg.Client({ connectionString, application_name: 'garment-press build swap' });
  client.on('error', () => {});
  await client.connect();
  const lost = (why: string) =>
    new LeaseLostError(
      `the build lease this build started under (term ${term}) ${why} before its site was swapped in; the site was left as it was`,
    );
  try {
    await client.query(`SET idle_in_transaction_session_timeout = '${SWAP_IDLE_TIMEOUT}'`);
    await client.query('BEGIN');
    const { rowCount } = await client.query('SELECT 1 FROM build_lease WHERE id = 1 AND term = $1 AND expires_at > now() FOR SHARE', [
      term,
    ]);
    if (rowCount === 0) throw lost('ran out or passed to another instance');
    stopHereForTests();
    await swap(async () => {
      // The row is ours while this session lives; a session the server ended lets the next builder in.
      const held = await client.query('SELECT 1 FROM build_lease WHERE id = 1 AND term = $1', [term]).catch(() => undefined);
      if (held?.rowCount !== 1) throw lost('was let go while this build was stopped, and may have passed to another instance,');
    });
    await client.query('COMMIT');
  } finally {
    await client.end().catch(() => {});
  }
}

/** Test only: a build process told to (GARMENT_PRESS_TEST_STOP_IN_SWAP=1) stops itself once it holds the lease row in its swap. */
function stopHereForTests(): void {
  if (process.env.GARMENT_PRESS_TEST_STOP_IN_SWAP === '1') process.kill(process.pid, 'SIGSTOP');
}
