/** keyv on PostgreSQL over the bot's own pool, in the table @keyv/postgres 2 left behind. */
import { randomUUID } from 'node:crypto';
import { Keyv } from 'keyv';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openPostgresKeyvStore, type PostgresKeyvStore } from '../../src/storage/postgres-keyv-store.js';
import { silentLogger } from './helpers.js';

const POSTGRES_URL = process.env['POSTGRES_URL'];

describe.skipIf(!POSTGRES_URL)(POSTGRES_URL ? 'keyv store on PostgreSQL' : 'keyv store on PostgreSQL: skipped because POSTGRES_URL is not set', () => {
  const url = POSTGRES_URL ?? '';
  // An underscore and a percent sign: clear() must take them literally, not as LIKE wildcards.
  const namespace = () => `imagine-bot-test_%${randomUUID().slice(0, 8)}`;
  let store: PostgresKeyvStore;
  let keyv: Keyv<unknown>;
  let ns: string;
  let admin: pg.Client;

  beforeEach(async () => {
    ns = namespace();
    store = await openPostgresKeyvStore(url, { applicationName: 'imagine-bot-test-keyv', connectTimeoutMs: 3_000, logger: silentLogger });
    keyv = new Keyv<unknown>(store, { namespace: ns, throwOnErrors: true });
    admin = new pg.Client({ connectionString: url, application_name: 'imagine-bot-test-admin' });
    await admin.connect();
  });
  afterEach(async () => {
    vi.useRealTimers();
    await admin.query('DELETE FROM public.keyv WHERE starts_with(key, $1)', [ns]);
    await Promise.all([store.disconnect(), admin.end()]);
  });

  it('reads what @keyv/postgres wrote: its table, its keys, its serialized values', async () => {
    await admin.query('INSERT INTO public.keyv (key, value) VALUES ($1, $2)', [
      `${ns}:limit:g1:server`,
      '{"value":{"v":1,"limit":3,"period":"day"},"expires":null}',
    ]);
    expect(await keyv.get('limit:g1:server')).toEqual({ v: 1, limit: 3, period: 'day' });
    const { rows } = await admin.query<{ data_type: string; character_maximum_length: number | null }>(
      "SELECT data_type, character_maximum_length FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'keyv' ORDER BY ordinal_position",
    );
    expect(rows).toEqual([
      { data_type: 'character varying', character_maximum_length: 255 },
      { data_type: 'text', character_maximum_length: null },
    ]);
  });

  it('gets many in the order asked, missing keys as undefined', async () => {
    await keyv.set('a', 1);
    await keyv.set('c', { three: 3 });
    await keyv.set('a', 'one');
    expect(await keyv.get(['c', 'b', 'a'])).toEqual([{ three: 3 }, undefined, 'one']);
    expect(await keyv.get('b')).toBeUndefined();
  });

  it('answers reads made at once (one statement for them all) each with its own values', async () => {
    await keyv.set('a', 'one');
    await keyv.set('b', 'two');
    const reads = await Promise.all([keyv.get('a'), keyv.get(['b', 'missing', 'a']), keyv.get('missing'), keyv.get('b')]);
    expect(reads).toEqual(['one', ['two', undefined, 'one'], undefined, 'two']);
  });

  it('deletes one or many, saying whether anything was there', async () => {
    await keyv.set('a', 1);
    await keyv.set('b', 2);
    expect(await keyv.delete('a')).toBe(true);
    expect(await keyv.delete('a')).toBe(false);
    expect(await keyv.deleteMany(['b', 'x'])).toBe(true);
    expect(await keyv.deleteMany(['b'])).toBe(false);
    expect(await keyv.has('b')).toBe(false);
  });

  it('removes expired values when they are read, one or many', async () => {
    vi.useFakeTimers({ now: Date.parse('2025-03-12T12:00:00Z'), toFake: ['Date'] });
    await keyv.set('short', 1, 1_000);
    await keyv.set('other', 2, 1_000);
    await keyv.set('long', 3);
    vi.setSystemTime(Date.parse('2025-03-12T12:00:02Z'));
    expect(await keyv.has('short')).toBe(false);
    expect(await keyv.get(['short', 'other', 'long'])).toEqual([undefined, undefined, 3]);
    const { rows } = await admin.query<{ key: string }>('SELECT key FROM public.keyv WHERE starts_with(key, $1) ORDER BY key', [ns]);
    expect(rows.map((r) => r.key)).toEqual([`${ns}:long`]);
  });

  it('clears its own namespace only', async () => {
    const neighbour = ns.replace('_%', 'xx');
    await admin.query('INSERT INTO public.keyv (key, value) VALUES ($1, $2)', [`${neighbour}:kept`, '{"value":1}']);
    await keyv.set('gone', 1);
    await keyv.clear();
    const { rows } = await admin.query<{ key: string }>('SELECT key FROM public.keyv WHERE key = ANY($1)', [[`${ns}:gone`, `${neighbour}:kept`]]);
    await admin.query('DELETE FROM public.keyv WHERE key = $1', [`${neighbour}:kept`]);
    expect(rows.map((r) => r.key)).toEqual([`${neighbour}:kept`]);
  });

  it('refuses calls once disconnected, and disconnects once', async () => {
    await Promise.all([store.disconnect(), store.disconnect()]);
    await expect(keyv.get('a')).rejects.toThrow(/pool/i);
  });
});
