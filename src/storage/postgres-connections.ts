/**
 * The connections one bot process opens on PostgreSQL, and the check at start that the server (and the role and
 * database, where they set a CONNECTION LIMIT) has that many left. A process's pools open connections as they need
 * them, so a store shared by too many processes used to fail later, under load, with "too many clients"; now the
 * process that would not fit refuses to start and says which numbers to change.
 */
import pg from 'pg';
import { StorageUnavailableError } from './errors.js';
import { withTimeout } from './with-timeout.js';

/** What one process opens at most, by pool. */
export interface ConnectionPlan {
  /** keyv's store (records, limits): POSTGRES_POOL_SIZE. */
  keyv: number;
  /** The quota ledger (quotas, spend, usage counters, history): POSTGRES_POOL_SIZE. */
  ledger: number;
  /** Job slots: one per job holding or acquiring one (MAX_CONCURRENT_JOBS); 0 without cluster slots. */
  slots: number;
  /** The slots' LISTEN connection (releases wake waiters); 0 without cluster slots. */
  listen: number;
}

export const connectionsOf = (plan: ConnectionPlan): number => plan.keyv + plan.ledger + plan.slots + plan.listen;

/** What the server reported: its limits and the connections in use (the check's own not counted). */
export interface ConnectionRoom {
  maxConnections: number;
  /** Kept for superusers (superuser_reserved_connections, and reserved_connections from PostgreSQL 16); 0 for a superuser. */
  reserved: number;
  inUse: number;
  role: { name: string; limit: number; inUse: number };
  database: { name: string; limit: number; inUse: number };
}

const ROOM = `SELECT current_setting('max_connections')::int AS max,
  current_setting('superuser_reserved_connections')::int + coalesce(nullif(current_setting('reserved_connections', true), '')::int, 0) AS reserved,
  r.rolsuper AS superuser, r.rolconnlimit AS role_limit, current_user AS role,
  d.datconnlimit AS db_limit, current_database() AS db,
  (SELECT count(*)::int FROM pg_stat_activity WHERE backend_type = 'client backend') AS in_use,
  (SELECT count(*)::int FROM pg_stat_activity WHERE backend_type = 'client backend' AND usename = current_user) AS role_in_use,
  (SELECT count(*)::int FROM pg_stat_activity WHERE backend_type = 'client backend' AND datname = current_database()) AS db_in_use
  FROM pg_roles r, pg_database d WHERE r.rolname = current_user AND d.datname = current_database()`;

interface RoomRow {
  max: number;
  reserved: number;
  superuser: boolean;
  role_limit: number;
  role: string;
  db_limit: number;
  db: string;
  in_use: number;
  role_in_use: number;
  db_in_use: number;
}

/** Reads the server's limits and use over one short connection of its own, closed before the pools open. */
export async function readConnectionRoom(url: string, options: { connectTimeoutMs: number; applicationName: string }): Promise<ConnectionRoom> {
  const client = new pg.Client({ connectionString: url, application_name: options.applicationName, connectionTimeoutMillis: options.connectTimeoutMs });
  client.on('error', () => undefined);
  try {
    await withTimeout(client.connect(), options.connectTimeoutMs);
    const { rows } = await withTimeout(client.query<RoomRow>(ROOM), options.connectTimeoutMs);
    const row = rows[0];
    if (row === undefined) throw new Error('pg_roles or pg_database did not list the current user or database');
    // The check's own connection closes before the pools open.
    return {
      maxConnections: row.max,
      reserved: row.superuser ? 0 : row.reserved,
      inUse: row.in_use - 1,
      role: { name: row.role, limit: row.role_limit, inUse: row.role_in_use - 1 },
      database: { name: row.db, limit: row.db_limit, inUse: row.db_in_use - 1 },
    };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Connections left for this process, and what bounds them. */
export function connectionsLeft(room: ConnectionRoom): { left: number; bound: string } {
  const bounds = [
    {
      left: room.maxConnections - room.reserved - room.inUse,
      bound: `max_connections ${room.maxConnections}${room.reserved > 0 ? `, ${room.reserved} reserved for superusers` : ''}, ${room.inUse} in use`,
    },
  ];
  if (room.role.limit >= 0)
    bounds.push({ left: room.role.limit - room.role.inUse, bound: `role ${room.role.name}'s CONNECTION LIMIT ${room.role.limit}, ${room.role.inUse} in use` });
  if (room.database.limit >= 0)
    bounds.push({
      left: room.database.limit - room.database.inUse,
      bound: `database ${room.database.name}'s CONNECTION LIMIT ${room.database.limit}, ${room.database.inUse} in use`,
    });
  return bounds.reduce((a, b) => (b.left < a.left ? b : a));
}

/** The refusal when `plan` does not fit in `room`; undefined when it does. */
export function connectionShortfall(plan: ConnectionPlan, room: ConnectionRoom, display: string): string | undefined {
  const needed = connectionsOf(plan);
  const { left, bound } = connectionsLeft(room);
  if (needed <= left) return undefined;
  const parts = [`keyv ${plan.keyv}`, `ledger ${plan.ledger}`, ...(plan.slots > 0 ? [`job slots ${plan.slots}`, `listen ${plan.listen}`] : [])];
  return (
    `Too few PostgreSQL connections left at ${display}: this process opens up to ${needed} (${parts.join(', ')}) ` +
    `and ${Math.max(left, 0)} are left (${bound}). Raise max_connections (or the CONNECTION LIMIT), ` +
    `lower POSTGRES_POOL_SIZE or MAX_CONCURRENT_JOBS, or run fewer processes on this database.`
  );
}

/** Refuses to start (StorageUnavailableError) when `plan` does not fit in what the server has left. */
export async function checkConnections(
  url: string,
  plan: ConnectionPlan,
  options: { connectTimeoutMs: number; applicationName: string; display: string },
): Promise<void> {
  const shortfall = connectionShortfall(plan, await readConnectionRoom(url, options), options.display);
  if (shortfall !== undefined) throw new StorageUnavailableError(shortfall);
}
