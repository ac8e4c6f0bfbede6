/**
 * Seeing and ending the bot's PostgreSQL sessions from outside, as an operator or a database restart would, for the
 * tests of dropped connections.
 */
import pg from 'pg';
import { eventually } from '../storage/helpers.js';

/**
 * Two clients of the test's own: `admin` reads pg_stat_activity and terminates sessions, `locker` holds locks in a
 * transaction. They are apart because pg_stat_activity read inside a transaction is that transaction's snapshot.
 */
export class PostgresSessions {
  readonly #admin: pg.Client;
  readonly #locker: pg.Client;

  private constructor(admin: pg.Client, locker: pg.Client) {
    this.#admin = admin;
    this.#locker = locker;
  }

  static async connect(url: string): Promise<PostgresSessions> {
    const admin = new pg.Client({ connectionString: url, application_name: 'imagine-bot-test-admin' });
    const locker = new pg.Client({ connectionString: url, application_name: 'imagine-bot-test-locker' });
    await Promise.all([admin.connect(), locker.connect()]);
    return new PostgresSessions(admin, locker);
  }

  /** Locks the row at `key` of `table` until {@link release}, so a write of it (or a conditional one) waits. */
  async lockRow(table: string, key: string): Promise<void> {
    await this.#locker.query('BEGIN');
    await this.#locker.query(`SELECT 1 FROM ${table} WHERE key = $1 FOR UPDATE`, [key]);
  }

  /** Ends the locker's transaction: whatever waited for its lock goes on. */
  async release(): Promise<void> {
    await this.#locker.query('ROLLBACK');
  }

  /** Resolves once `count` sessions named `applicationName` wait for a lock. */
  async waitForLockWaiters(applicationName: string, count = 1): Promise<void> {
    const sql = "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'";
    await eventually(
      async () => (await this.#admin.query<{ n: number }>(sql, [applicationName])).rows[0]?.n === count,
      `${applicationName} to wait for a lock`,
    );
  }

  /** The sessions named by one of `applicationNames`. */
  async count(applicationNames: readonly string[]): Promise<number> {
    const { rows } = await this.#admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ANY($1)', [
      applicationNames,
    ]);
    return rows[0]?.n ?? 0;
  }

  /** Terminates every session named by one of `applicationNames` and returns how many there were. */
  async terminate(applicationNames: readonly string[]): Promise<number> {
    // With a timeout, pg_terminate_backend returns once each backend has exited (PostgreSQL 14+), not when it has been
    // signalled: otherwise a lock released right after could let a statement of a dying backend finish first.
    const killed = await this.#admin.query('SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE application_name = ANY($1)', [
      applicationNames,
    ]);
    return killed.rowCount ?? 0;
  }

  /** Deletes the bot's rows under `namespace`, in keyv's table and the ledger's. */
  async deleteNamespace(namespace: string): Promise<void> {
    for (const table of ['public.keyv', 'quota_ledger']) await this.#admin.query(`DELETE FROM ${table} WHERE starts_with(key, $1)`, [`${namespace}:`]);
  }

  async close(): Promise<void> {
    await Promise.all([this.#admin.end(), this.#locker.end()]);
  }
}
