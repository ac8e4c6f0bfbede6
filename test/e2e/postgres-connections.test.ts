/**
 * Issue 28: a bot process on PostgreSQL checks at start that the connections it may open (keyv's pool, the
 * ledger's, the job slots and their listener) are left on the server, and refuses to start with the numbers and
 * what to change when they are not. A role with a CONNECTION LIMIT of its own makes "few left" exact, whatever else
 * shares the server: a first bot runs as that role, the test holds that role's connections up to one short of what
 * a second process needs, and a second real bot process (`src/cli.ts`) says so and exits.
 */
import { once } from 'node:events';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage } from '../../src/storage/open-storage.js';
import { botProcessEnv } from './bot-process-env.js';
import { startBotProcess, stopBotProcess, type BotProcess } from './bot-process.js';
import { startHarness, type Harness } from './harness.js';

const POSTGRES_URL = process.env['POSTGRES_URL'];
const TITLE = 'a second bot process on PostgreSQL with too few connections left';
/** keyv 3 + ledger 3 + job slots 2 + listen 1. */
const SETTINGS = { POSTGRES_POOL_SIZE: '3', MAX_CONCURRENT_JOBS: '2' };
const NEEDED = 9;
const ROLE_LIMIT = 14;

describe.skipIf(!POSTGRES_URL)(POSTGRES_URL ? TITLE : `${TITLE}: skipped because POSTGRES_URL is not set`, () => {
  const role = `imagine_bot_test_${randomBytes(6).toString('hex')}`;
  const url = new URL(POSTGRES_URL ?? 'postgres://unset');
  url.username = role;
  url.password = '';
  const roleUrl = url.toString();
  const names = { namespace: `imagine-bot-test-${randomUUID()}`, applicationName: `imagine-bot-test-${randomUUID().slice(0, 8)}` };
  const admin = new pg.Client({ connectionString: POSTGRES_URL, application_name: 'imagine-bot-test-admin' });
  const held: pg.Client[] = [];
  let h: Harness | undefined;
  let second: BotProcess | undefined;

  beforeAll(async () => {
    await admin.connect();
    // The tables exist before the role uses them, so it owns nothing and DROP OWNED only takes its grants back.
    const storage = await openStorage({
      url: POSTGRES_URL ?? '',
      defaults: { limit: 5, period: 'day' },
      jobLeaseMs: 60_000,
      logger: pino({ level: 'silent' }),
    });
    await storage.close();
    await admin.query(`CREATE ROLE ${role} LOGIN CONNECTION LIMIT ${ROLE_LIMIT}`);
    await admin.query(`GRANT USAGE, CREATE ON SCHEMA public TO ${role}`);
    await admin.query(`GRANT ALL ON ALL TABLES IN SCHEMA public TO ${role}`);
  });
  afterAll(async () => {
    if (second) await stopBotProcess(second, 'SIGKILL');
    await Promise.all(held.map((client) => client.end()));
    await h?.close();
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [role]);
    await admin.query(`DROP OWNED BY ${role}`);
    await admin.query(`DROP ROLE ${role}`);
    await admin.end();
  });

  it('refuses to start, naming what it opens, what is left and what to change; the first keeps running', async () => {
    h = await startHarness({ env: { STORAGE_URL: roleUrl, ...SETTINGS }, storageNames: names });
    const inUse = async () => (await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = $1', [role])).rows[0]?.n ?? 0;
    // One short of what a second process needs (the first bot's pools may open more meanwhile: fewer still).
    const toHold = ROLE_LIMIT - (NEEDED - 1) - (await inUse());
    for (let i = 0; i < toHold; i++) {
      const client = new pg.Client({ connectionString: roleUrl, application_name: 'imagine-bot-test-holder' });
      await client.connect();
      held.push(client);
    }

    second = startBotProcess(botProcessEnv(h.discord, h.gateway, { STORAGE_URL: roleUrl, ...SETTINGS }));
    const [code] = (await once(second, 'exit')) as [number | null];
    expect(code).toBe(1);
    const display = `postgres://${url.host}${url.pathname}`;
    expect(second.output()).toContain(
      `imagine-bot could not start: Too few PostgreSQL connections left at ${display}: this process opens up to ${NEEDED} ` +
        '(keyv 3, ledger 3, job slots 2, listen 1) and ',
    );
    expect(second.output()).toMatch(
      new RegExp(
        `and [0-8] are left \\(role ${role}'s CONNECTION LIMIT ${ROLE_LIMIT}, \\d+ in use\\)\\. Raise max_connections \\(or the CONNECTION LIMIT\\), ` +
          'lower POSTGRES_POOL_SIZE or MAX_CONCURRENT_JOBS, or run fewer processes on this database\\.',
      ),
    );
    // The first still answers on its store.
    expect(h.bot.client.isReady()).toBe(true);
  });
});
