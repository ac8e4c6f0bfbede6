/** The start-up check's arithmetic: the tightest of the server's, the role's and the database's limits bounds a process. */
import { describe, expect, it } from 'vitest';
import { connectionShortfall, connectionsLeft, type ConnectionRoom } from '../../src/storage/postgres-connections.js';
import { postgresConnectionPlan } from '../../src/storage/open-backend.js';

const room = (over: Partial<ConnectionRoom> = {}): ConnectionRoom => ({
  maxConnections: 100,
  reserved: 3,
  inUse: 60,
  role: { name: 'bot', limit: -1, inUse: 40 },
  database: { name: 'imagine', limit: -1, inUse: 50 },
  ...over,
});

describe('PostgreSQL connections at start', () => {
  it('plans POSTGRES_POOL_SIZE for keyv and for the ledger, one per job slot and a listener', () => {
    expect(postgresConnectionPlan({ poolSize: 10, slots: { limits: { global: 16, perMember: 2 }, holdMs: 1 } })).toEqual({
      keyv: 10,
      ledger: 10,
      slots: 16,
      listen: 1,
    });
    expect(postgresConnectionPlan({})).toEqual({ keyv: 10, ledger: 10, slots: 0, listen: 0 });
  });

  it("counts max_connections less the superusers' reserve and the connections in use", () => {
    expect(connectionsLeft(room())).toEqual({ left: 37, bound: 'max_connections 100, 3 reserved for superusers, 60 in use' });
    const plan = { keyv: 10, ledger: 10, slots: 16, listen: 1 };
    expect(connectionShortfall(plan, room({ inUse: 60 }), 'postgres://db:5432/imagine')).toBeUndefined();
    expect(connectionShortfall(plan, room({ inUse: 61 }), 'postgres://db:5432/imagine')).toBe(
      'Too few PostgreSQL connections left at postgres://db:5432/imagine: this process opens up to 37 (keyv 10, ledger 10, job slots 16, listen 1) ' +
        'and 36 are left (max_connections 100, 3 reserved for superusers, 61 in use). Raise max_connections (or the CONNECTION LIMIT), ' +
        'lower POSTGRES_POOL_SIZE or MAX_CONCURRENT_JOBS, or run fewer processes on this database.',
    );
  });

  it("is bound by the role's or the database's CONNECTION LIMIT when tighter", () => {
    expect(connectionsLeft(room({ role: { name: 'bot', limit: 50, inUse: 40 } })).bound).toBe("role bot's CONNECTION LIMIT 50, 40 in use");
    expect(connectionsLeft(room({ database: { name: 'imagine', limit: 55, inUse: 50 } }))).toEqual({
      left: 5,
      bound: "database imagine's CONNECTION LIMIT 55, 50 in use",
    });
    expect(connectionShortfall({ keyv: 2, ledger: 2, slots: 0, listen: 0 }, room({ inUse: 97 }), 'x')).toContain(
      'opens up to 4 (keyv 2, ledger 2) and 0 are left',
    );
  });
});
