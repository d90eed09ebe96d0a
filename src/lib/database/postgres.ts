import pg from 'pg';
import type { PoolClient, PoolConfig } from 'pg';

/** A PostgreSQL database reached through a pool of connections. */
export interface PostgresDatabase {
  /** The connection string without its password, for messages. */
  name: string;
  pool: pg.Pool;
  /** Runs `work` on one connection inside BEGIN … COMMIT, rolling back if it throws. */
  inTransaction: <T>(work: (client: PoolClient) => Promise<T>) => Promise<T>;
  close(): Promise<void>;
}

/** Whether a --database value names a PostgreSQL database rather than a folder. */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/** Opens a pool on `url` (postgres://user:password@host/db, or ?host=/socket/folder for a unix socket). */
export function openPostgresDatabase(url: string, options: Pick<PoolConfig, 'max'> = {}): PostgresDatabase {
  // BIGINT columns hold milliseconds since 1970, well inside a double; COUNT(*) is a BIGINT too.
  const types = { getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === 20 ? Number : pg.types.getTypeParser(oid, format)) };
  // A server that does not answer fails a request after 30 s instead of holding it (health gives up sooner, on its own clock).
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, types, connectionTimeoutMillis: 30_000 } as PoolConfig);
  // An idle connection the server drops must not take the process down; the next query reconnects.
  pool.on('error', () => {});
  const name = redactPassword(url);
  return {
    name,
    pool,
    async inTransaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

function redactPassword(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:/@]*):[^@]*@/i, '$1:***@');
}
