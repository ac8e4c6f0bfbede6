import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { type Socket, createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sqlite3 from 'sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QuotaSubject } from '../../src/core/quota.js';
import { StorageUnavailableError } from '../../src/storage/errors.js';
import { openStorage } from '../../src/storage/open-storage.js';
import { ManualClock, silentLogger } from './helpers.js';

const base = { defaults: { limit: 5, period: 'day' }, jobLeaseMs: 60_000, logger: silentLogger } as const;
const alice: QuotaSubject = { guildId: 'g1', userId: 'alice', roleIds: ['r1'] };

async function expectUnavailable(url: string, host: string): Promise<void> {
  const started = Date.now();
  const error: unknown = await openStorage({ ...base, url, connectTimeoutMs: 2_000 }).catch((e: unknown) => e);
  expect(Date.now() - started).toBeLessThan(4_000);
  expect(error).toBeInstanceOf(StorageUnavailableError);
  const message = String(error);
  expect(message).toContain(`Cannot connect to storage at ${host}`);
  expect(message).not.toContain('s3cret');
}

describe('openStorage', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'imagine-bot-open-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('fails fast and clearly when Redis cannot be reached, without the password', async () => {
    await expectUnavailable('redis://:s3cret@127.0.0.1:1', 'redis://127.0.0.1:1');
  });

  it('fails fast and clearly when PostgreSQL cannot be reached, without the password', async () => {
    await expectUnavailable('postgres://postgres:s3cret@127.0.0.1:1/test', 'postgres://127.0.0.1:1/test');
  });

  it.each([
    ['redis', 'redis://:s3cret@127.0.0.1'],
    ['postgres', 'postgres://postgres:s3cret@127.0.0.1'],
  ])('gives up on a %s server that accepts but never answers', async (_, prefix) => {
    const sockets: Socket[] = [];
    const server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no TCP address');
    const { port } = address;
    const started = Date.now();
    await expect(openStorage({ ...base, url: `${prefix}:${port}/test`, connectTimeoutMs: 300 })).rejects.toThrow(/Cannot connect to storage at .*127\.0\.0\.1/);
    expect(Date.now() - started).toBeLessThan(2_000);
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fails clearly when the SQLite file cannot be created', async () => {
    const blocker = path.join(dir, 'blocker');
    await writeFile(blocker, 'a file where a folder should be');
    await expectUnavailable(`sqlite://${blocker}/bot.sqlite`, `sqlite://${blocker}/bot.sqlite`);
  });

  it('rejects an unknown scheme with the list of supported ones', async () => {
    await expect(openStorage({ ...base, url: 'mysql://u:s3cret@db/bot' })).rejects.toThrow(/Unsupported storage URL scheme "mysql:\/\/".*sqlite:\/\/PATH/);
  });

  it('creates parent folders and keeps data across close and re-open of a SQLite file', async () => {
    const url = `sqlite://${dir}/a/b/bot.sqlite`;
    const clock = new ManualClock('2025-03-12T12:00:00Z');
    const first = await openStorage({ ...base, url, clock });
    await first.quotas.setLimit({ kind: 'role', guildId: 'g1', roleId: 'r1' }, { limit: 9, period: 'week' });
    await first.quotas.reserve(alice, 'job', 4);
    await first.quotas.commit('job', 3);
    await first.quotas.reserve(alice, 'open', 2);
    await first.close();
    expect((await stat(path.join(dir, 'a/b/bot.sqlite'))).isFile()).toBe(true);

    const second = await openStorage({ ...base, url, clock });
    expect(await second.quotas.status(alice)).toMatchObject({ limit: 9, period: 'week', source: 'role', used: 3, reserved: 2 });
    await second.quotas.refund('open');
    expect(await second.quotas.status(alice)).toMatchObject({ used: 3, reserved: 0, remaining: 6 });
    await second.close();
  });

  it('throws StorageUnavailableError (fail closed) when the store fails mid-request', async () => {
    const file = path.join(dir, 'bot.sqlite');
    const storage = await openStorage({ ...base, url: `sqlite://${file}` });
    await storage.quotas.reserve(alice, 'before', 1);
    await dropTables(file);
    const failure: unknown = await storage.quotas.reserve(alice, 'during', 1).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(StorageUnavailableError);
    expect(failure).toMatchObject({ code: 'storage.unavailable', message: expect.stringContaining(`sqlite://${file}`) as string });
    expect(failure instanceof Error && String(failure.cause)).toContain('no such table');
    await expect(storage.quotas.commit('before', 1)).rejects.toBeInstanceOf(StorageUnavailableError);
    await expect(storage.quotas.status(alice)).rejects.toBeInstanceOf(StorageUnavailableError);
    await storage.close();
  });

  it('refuses every operation after close', async () => {
    const storage = await openStorage({ ...base, url: 'memory://' });
    await storage.close();
    await storage.close();
    await expect(storage.quotas.reserve(alice, 'late', 1)).rejects.toThrow(/memory:\/\/ is closed/);
  });
});

/** Drops keyv's table (limits, records) and the ledger's (usage, jobs) under the open storage. */
async function dropTables(file: string): Promise<void> {
  const db = new sqlite3.Database(file);
  await new Promise<void>((resolve, reject) => db.exec('DROP TABLE keyv; DROP TABLE quota_ledger', (err) => (err ? reject(err) : resolve())));
  await new Promise<void>((resolve, reject) => db.close((err) => (err ? reject(err) : resolve())));
}
