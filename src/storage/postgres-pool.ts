import pg from 'pg';
import type pino from 'pino';

/** SQLSTATEs of a CREATE TABLE IF NOT EXISTS that lost a race with another process's: the table is there. */
const ALREADY_CREATED = new Set(['23505', '42P07']);

/** Options of {@link createPostgresPool}. */
export interface PostgresPoolOptions {
  /** `application_name` of the pool's connections, so an operator can tell them apart in pg_stat_activity. */
  applicationName: string;
  /** How long getting a connection may take (pg's `connectionTimeoutMillis`). */
  connectTimeoutMs: number;
  /** Connections the pool keeps at most. */
  maxConnections: number;
  /** What the pool's 'error' listener logs at warn, with `{ err }`: a constant phrase. */
  lostMessage: string;
  logger: pino.Logger;
}

/**
 * A pg pool that survives its connections dropping. An idle connection that drops (a restart,
 * `pg_terminate_backend`) makes the pool emit 'error', which without a listener would end the process; this one
 * logs it, and the pool opens a new connection for the next call. A connection that drops during pool.query fails
 * that call only: pool.query guards the client it uses.
 */
export function createPostgresPool(url: string, options: PostgresPoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    application_name: options.applicationName,
    max: options.maxConnections,
    connectionTimeoutMillis: options.connectTimeoutMs,
  });
  pool.on('error', (err) => options.logger.warn({ err }, options.lostMessage));
  return pool;
}

/** Runs a `CREATE TABLE IF NOT EXISTS` statement, accepting that another process created the table at the same moment. */
export async function createTableIfMissing(pool: pg.Pool, statement: string): Promise<void> {
  try {
    await pool.query(statement);
  } catch (error) {
    if (!(error instanceof pg.DatabaseError && error.code !== undefined && ALREADY_CREATED.has(error.code))) throw error;
  }
}
