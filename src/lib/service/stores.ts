import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { type DatabaseLocation, openPostgresDatabase, type PostgresDatabase } from '../database/index.ts';
import {
  type Clock,
  type Coordination,
  createLocalCoordination,
  createPostgresCoordination,
  openPostgresPublishStore,
  openSqlitePublishStore,
  type PublishStore,
} from '../publish/index.ts';

/** The service's stores on one database, with the coordination of the instances sharing it. */
export interface ServiceStores {
  location: DatabaseLocation;
  store: PublishStore;
  coordination: Coordination;
  /** The PostgreSQL database, when that is where the state lives. */
  postgres?: PostgresDatabase;
  close(): Promise<void>;
}

/** This instance's name unless given: the machine and the process. */
export function defaultInstanceName(): string {
  return `${hostname()}:${process.pid}`;
}

/** Opens the publish store (migrating it) and the coordination for `location`; SQLite's folder is created if missing. */
export async function openServiceStores(
  location: DatabaseLocation,
  { instance = defaultInstanceName(), now = Date.now, log }: { instance?: string; now?: Clock; log?: (line: string) => void } = {},
): Promise<ServiceStores> {
  if (location.kind === 'sqlite') {
    mkdirSync(location.dataDir, { recursive: true });
    const store = openSqlitePublishStore(path.join(location.dataDir, 'publish.db'), { now });
    return { location, store, coordination: createLocalCoordination(instance), close: () => store.close() };
  }
  const postgres = openPostgresDatabase(location.url);
  try {
    const store = await openPostgresPublishStore(postgres, { now });
    const coordination = createPostgresCoordination(postgres, {
      instance,
      connectionString: location.url,
      ...(log === undefined ? {} : { log }),
    });
    return {
      location,
      store,
      coordination,
      postgres,
      async close() {
        await coordination.close();
        await postgres.close();
      },
    };
  } catch (error) {
    await postgres.close();
    throw error;
  }
}
