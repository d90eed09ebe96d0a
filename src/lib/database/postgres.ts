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
      // The pool listens only to idle connections: one ended by the server between two queries here would throw its 'error'.
      let lost: Error | undefined;
      const onLost = (error: Error) => {
        lost = error;
      };
      client.on('error', onLost);
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.off('error', onLost);
        // A connection that failed is closed rather than handed to the next user.
        client.release(lost);
      }
    },
    close: () => pool.end(),
  };
}

/** SQLSTATEs of a server that is gone or refusing: connection exceptions, shutdowns, a database dropped. */
const UNAVAILABLE_STATES = /^(08...|57P0[1-3]|3D000)$/;

/**
 * Whether `error` says the PostgreSQL server or database is unavailable (stopped, unreachable, dropped)
 * rather than that a request was wrong: the service answers 503 for it and tries again later.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, syscall, message } = error as { code?: unknown; syscall?: unknown; message?: unknown };
  if (syscall === 'connect') return true;
  if (typeof code === 'string' && UNAVAILABLE_STATES.test(code)) return true;
  return typeof message === 'string' && /^(Connection terminated|timeout exceeded when trying to connect)/.test(message);
}

function redactPassword(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:/@]*):[^@]*@/i, '$1:***@');
}
