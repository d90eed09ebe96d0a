// Two `serve` processes on one PostgreSQL database and one records and output folder, as the README's
// "Beyond one machine" runs them, with a receiver for their deliveries: shared by the instance tests.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { freshPostgresDatabase } from '../../support/postgres.ts';
import {
  call,
  eventually,
  type Organization,
  type Receiver,
  type ServeProcess,
  type ServiceWorkspace,
  sampleRecordAs,
  serviceWorkspace,
  startReceiver,
  startServe,
  stopServe,
} from './support.ts';

/** What `GET /api/health` says of the instance and the build lease. */
export interface Health {
  status: string;
  instance: string;
  build_lease: { holder: string | null; held_here: boolean };
}

/** Instances `a` (the builder, started first) and `b` on one database, an organization and a receiver. */
export interface InstancePair {
  a: ServeProcess;
  b: ServeProcess;
  workspace: ServiceWorkspace;
  acme: Organization;
  receiver: Receiver;
  /** Publishes `record` (default: a sample record under `slug`) on `on`, with a callback; returns the handle. */
  publish(on: ServeProcess, slug: string, record?: Record<string, unknown>): Promise<string>;
  /** Long-polls `handle` on `on` until it ends; returns the final projection. */
  finalState(on: ServeProcess, handle: string): Promise<{ status: string; done: boolean; stage: string }>;
  /** The deliveries `on` lists for `handles`, once none is pending (the receiver answers before the outbox records it). */
  recordedDeliveries(on: ServeProcess, handles: string[]): Promise<Array<Record<string, unknown>>>;
  /** The events the receiver accepted for each handle, once every handle has one. */
  receivedEvents(handles: string[]): Promise<Map<string, number>>;
  health(on: ServeProcess): Promise<Health>;
  stop(): Promise<void>;
}

/** Starts the pair in a new workspace (named from `prefix`) and database; `a` holds the lease before `b` starts. */
export async function startInstancePair(prefix: string, { envOfA = {} }: { envOfA?: NodeJS.ProcessEnv } = {}): Promise<InstancePair> {
  const databaseUrl = await freshPostgresDatabase();
  const workspace = await serviceWorkspace(prefix, ['Acme'], { databaseUrl });
  const [acme] = workspace.organizations as [Organization];
  const receiver = await startReceiver(workspace.certificate, () => [acme.secret]);
  const started: ServeProcess[] = [];

  /** Starts instance `name` on the shared database and folders, with a data folder of its own (its space reserve). */
  const startInstance = async (name: string, env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> => {
    const dataDir = path.join(workspace.work, `data-${name}`);
    mkdirSync(dataDir, { recursive: true });
    const instance = await startServe(
      [
        ...['--database', databaseUrl, '--instance', name, '--records', workspace.recordsDir, '--out', workspace.outDir],
        ...['--data', dataDir, '--allow-loopback-callbacks', '--trust-ca', workspace.certificate.certFile],
      ],
      { ...process.env, SITE_URL: 'https://garments.example', ...env },
    );
    started.push(instance);
    return instance;
  };
  const health = async (on: ServeProcess): Promise<Health> => (await call(on.url, '/api/health')).json();

  const a = await startInstance('a', envOfA);
  // b starts only once a holds the lease, to know which one builds.
  await eventually(async () => ((await health(a)).build_lease.holder === 'a' ? true : undefined), 10_000, 'a to hold the lease');
  const b = await startInstance('b');

  return {
    a,
    b,
    workspace,
    acme,
    receiver,
    async publish(on, slug, record = sampleRecordAs(slug)) {
      const answer = await call(on.url, '/api/publish', {
        key: acme.key,
        body: { record, callback_url: `${receiver.url}/hooks/${slug}` },
      });
      expect(answer.status, answer.text).toBe(202);
      return answer.json().handle;
    },
    async finalState(on, handle) {
      for (;;) {
        const answer = await call(on.url, `/api/generations/${handle}?wait=50`, { key: acme.key });
        expect(answer.status, answer.text).toBe(200);
        if (answer.json().done) return answer.json();
      }
    },
    recordedDeliveries: (on, handles) =>
      eventually(
        async () => {
          const listed = (await call(on.url, '/api/webhooks/deliveries?limit=100', { key: acme.key })).json().deliveries;
          const found = listed.filter((entry: { handle: string }) => handles.includes(entry.handle));
          return found.length === handles.length && found.every((entry: { outcome: string }) => entry.outcome !== 'pending')
            ? found
            : undefined;
        },
        30_000,
        'the deliveries recorded',
      ),
    receivedEvents: (handles) =>
      eventually(
        () =>
          handles.every((handle) => receiver.acceptedFor(handle).length > 0)
            ? new Map(handles.map((handle) => [handle, receiver.deliveries.filter((delivery) => delivery.event?.handle === handle).length]))
            : undefined,
        30_000,
        `events for ${handles.length} tasks`,
      ),
    health,
    async stop() {
      for (const instance of started) await stopServe(instance);
      await receiver.close();
    },
  };
}

/** The state letter /proc gives a process (T stopped, Z exited but not yet reaped), or undefined once it is gone. */
export function processState(pid: number): string | undefined {
  try {
    return /^\d+ \(.*\) (\S)/s.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

/** Stops and resumes processes, remembering the stopped ones so a failed test can resume them all. */
export function processSignals() {
  const stopped = new Set<number>();
  return {
    signal(pid: number, name: 'SIGSTOP' | 'SIGCONT'): void {
      process.kill(pid, name);
      if (name === 'SIGSTOP') stopped.add(pid);
      else stopped.delete(pid);
    },
    /** Notes a process that stopped itself. */
    noteStopped: (pid: number) => stopped.add(pid),
    resumeAll(): void {
      for (const pid of stopped) process.kill(pid, 'SIGCONT');
      stopped.clear();
    },
  };
}
