import pg from 'pg';
import type { PostgresDatabase } from '../database/index.ts';
import type { Coordination, CoordinationListeners } from './coordination.ts';
import { errorMessage } from '../errors.ts';

/** The advisory lock whose holder is the builder ("gp-build" in ASCII). */
const BUILD_LEASE_LOCK = '7453507284198059108';
const TASK_ENDED_CHANNEL = 'garment_press_task_ended';
const TASK_WAITING_CHANNEL = 'garment_press_task_waiting';
const TASK_STAGE_CHANNEL = 'garment_press_task_stage';

/** How often an instance without the lease tries to take it; a dead builder's lock goes with its connection, so this bounds fail-over. */
export const LEASE_ATTEMPT_MS = 5_000;

/**
 * Instances on one PostgreSQL database: LISTEN/NOTIFY carries ended, moved and waiting tasks (no polling),
 * and a session advisory lock held on a connection of its own is the build lease. A builder that
 * dies loses its connection and so the lock; another instance takes it at its next attempt, within
 * LEASE_ATTEMPT_MS. The build_lease row names the holder for health.
 */
export function createPostgresCoordination(
  database: PostgresDatabase,
  {
    instance,
    connectionString,
    log = () => {},
    attemptMs = LEASE_ATTEMPT_MS,
  }: { instance: string; connectionString: string; log?: (line: string) => void; attemptMs?: number },
): Coordination {
  let listeners: CoordinationListeners | undefined;
  let listener: pg.Client | undefined;
  let leaseClient: pg.Client | undefined;
  let holdsLease = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  const connect = async (name: string, onLost: () => void) => {
    const client = new pg.Client({ connectionString, application_name: `garment-press ${instance} ${name}`, keepAlive: true });
    client.on('error', () => {});
    client.on('end', onLost);
    await client.connect();
    return client;
  };

  const loseLease = () => {
    leaseClient = undefined;
    if (!holdsLease) return;
    holdsLease = false;
    log(`build lease lost by ${instance} (its database connection closed)`);
    listeners?.leaseChanged(false);
  };

  const attemptLease = async () => {
    if (closed || holdsLease) return;
    try {
      leaseClient ??= await connect('lease', loseLease);
      const { rows } = await leaseClient.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS locked', [
        BUILD_LEASE_LOCK,
      ]);
      if (!rows[0]!.locked || closed) return;
      await leaseClient.query(
        `INSERT INTO build_lease (id, instance, backend_pid, acquired_at) VALUES (1, $1, pg_backend_pid(), $2)
         ON CONFLICT (id) DO UPDATE SET instance = excluded.instance, backend_pid = excluded.backend_pid, acquired_at = excluded.acquired_at`,
        [instance, Date.now()],
      );
      holdsLease = true;
      log(`build lease taken by ${instance}`);
      listeners?.leaseChanged(true);
    } catch (error) {
      log(`build lease: could not try for it: ${errorMessage(error)}`);
    }
  };

  const schedule = () => {
    if (closed) return;
    timer = setTimeout(() => void attemptLease().finally(schedule), attemptMs);
  };

  const listen = async (): Promise<void> => {
    const client = await connect('listen', () => {
      listener = undefined;
      // Reconnect; ended tasks missed meanwhile are found by the long polls' own reads.
      if (!closed) setTimeout(() => void listen().catch(() => {}), 1000);
    });
    client.on('notification', ({ channel, payload = '' }) => {
      if (channel === TASK_ENDED_CHANNEL) listeners?.taskEnded(payload);
      else if (channel === TASK_STAGE_CHANNEL) listeners?.taskStageChanged(payload);
      else if (channel === TASK_WAITING_CHANNEL && holdsLease) listeners?.taskWaiting(payload);
    });
    await client.query(`LISTEN ${TASK_ENDED_CHANNEL}; LISTEN ${TASK_STAGE_CHANNEL}; LISTEN ${TASK_WAITING_CHANNEL}`);
    listener = client;
  };

  return {
    instance,
    get holdsLease() {
      return holdsLease;
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
      // The row alone may name a dead builder: the holder is whoever's connection holds the lock now.
      const { rows } = await database.pool.query<{ instance: string }>(
        `SELECT l.instance FROM build_lease l JOIN pg_locks k ON k.pid = l.backend_pid
         WHERE k.locktype = 'advisory' AND k.granted AND ((k.classid::bigint << 32) | k.objid::bigint) = $1::bigint`,
        [BUILD_LEASE_LOCK],
      );
      return rows[0]?.instance ?? null;
    },
    async start() {
      await listen();
      await attemptLease();
      schedule();
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      holdsLease = false;
      await Promise.all([listener?.end(), leaseClient?.end()].map((ending) => ending?.catch(() => {})));
    },
  };
}
