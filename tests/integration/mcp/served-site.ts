// The set-up the MCP and OpenAPI contract tests share: the sample records built into a site, served
// by real `serve` processes (on SQLite, or several instances on one PostgreSQL database), with
// organizations made by the admin CLI, Acme owning the sample tee, and an HTTPS receiver for events.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { copyOf, sampleRecords } from '../../support/records.ts';
import { runCli } from '../../support/run.ts';
import {
  type Organization,
  type Receiver,
  type ServeProcess,
  type ServiceWorkspace,
  serviceWorkspace,
  startReceiver,
  startServe,
  stopServe,
} from '../publish/support.ts';

/** The site's address in every served site. */
export const SITE = 'https://garments.example/';
/** The sample garment the first organization owns and publishes. */
export const SLUG = 'ridgeline-rk6210-heavyweight-tee';

/** A built site and the processes serving it. */
export interface ServedSite {
  workspace: ServiceWorkspace;
  /** One per name given, in order; the first owns SLUG. */
  organizations: Organization[];
  /** Verifies deliveries with the first organization's secret. */
  receiver: Receiver;
  /** The first instance (named "a" on PostgreSQL). */
  serve: ServeProcess;
  /** Starts another instance on the same database and folders (PostgreSQL only: SQLite allows one). */
  startInstance(name: string): Promise<ServeProcess>;
  /** Stops every instance and the receiver. */
  close(): Promise<void>;
}

/**
 * Copies the sample records into a new workspace (named from `prefix`), builds them, makes the
 * organizations, grants SLUG to the first, starts the receiver and one `serve` instance; on
 * `databaseUrl` when given, else on SQLite in the workspace's data folder.
 */
export async function startServedSite(
  prefix: string,
  organizationNames: readonly string[],
  { databaseUrl }: { databaseUrl?: string } = {},
): Promise<ServedSite> {
  const workspace = await serviceWorkspace(prefix, organizationNames, databaseUrl === undefined ? {} : { databaseUrl });
  const { recordsDir, outDir, certificate, organizations } = workspace;
  const built = runCli('build.ts', ['--records', recordsDir, '--out', outDir, '--site', SITE]);
  expect(built.status, built.stderr).toBe(0);
  // The sample records were in the folder before the service: nobody's until the operator grants one.
  await workspace.admin('garment', 'grant', '--slug', SLUG, '--org', organizations[0]!.id);
  const receiver = await startReceiver(certificate, () => [organizations[0]!.secret]);
  const instances: ServeProcess[] = [];
  const startInstance = async (name: string) => {
    const dataDir = databaseUrl === undefined ? workspace.dataDir : path.join(workspace.work, `data-${name}`);
    mkdirSync(dataDir, { recursive: true });
    const instance = await startServe([
      ...['--records', recordsDir, '--out', outDir, '--data', dataDir, '--site', SITE],
      ...(databaseUrl === undefined ? [] : ['--database', databaseUrl, '--instance', name]),
      ...['--allow-loopback-callbacks', '--trust-ca', certificate.certFile],
    ]);
    instances.push(instance);
    return instance;
  };
  return {
    workspace,
    organizations,
    receiver,
    serve: await startInstance('a'),
    startInstance,
    async close() {
      await Promise.all(instances.map(stopServe));
      await receiver.close();
    },
  };
}

/** The sample commerce record of SLUG with another `record_revision`: each publish of it changes the garment. */
export function teeRevision(revision: string): Record<string, any> {
  const sample = sampleRecords().find(({ record }) => record.slug === SLUG && record.projection === 'svc');
  if (sample === undefined) throw new Error(`records/ has no ${SLUG}.svc.json`);
  return { ...(copyOf(sample.record) as unknown as Record<string, any>), record_revision: revision };
}
