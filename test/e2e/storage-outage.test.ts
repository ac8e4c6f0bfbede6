/**
 * The bot on PostgreSQL losing every connection it has (keyv's and the quota ledger's) mid-run, as a database
 * restart or an operator's pg_terminate_backend would do: the bot stays up, the request in that window gets the
 * storage message and costs nothing, and the request after it succeeds.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { periodWindow } from '../../src/core/periods.js';
import { scopeOf, usageKey } from '../../src/storage/quota-records.js';
import { PostgresSessions } from '../support/postgres-sessions.js';
import { imagineOptions, startHarness, type Harness } from './harness.js';
import { ephemeralError, resultPost, quotaText, settled } from './support.js';

const POSTGRES_URL = process.env['POSTGRES_URL'];
const TITLE = 'the bot on PostgreSQL losing its connections';

describe.skipIf(!POSTGRES_URL)(POSTGRES_URL ? TITLE : `${TITLE}: skipped because POSTGRES_URL is not set`, () => {
  const names = { namespace: `imagine-bot-test-${randomUUID()}`, applicationName: `imagine-bot-test-${randomUUID().slice(0, 8)}` };
  let h: Harness;
  let sessions: PostgresSessions;

  beforeAll(async () => {
    sessions = await PostgresSessions.connect(POSTGRES_URL ?? '');
    h = await startHarness({ env: { STORAGE_URL: POSTGRES_URL ?? '', QUOTA_DEFAULT_LIMIT: '5' }, storageNames: names });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
    await sessions.deleteNamespace(names.namespace);
    await sessions.close();
  });

  it('stays up: the request in that window gets the storage message and costs nothing, the next one succeeds', async () => {
    const { member, guild } = h.discord.fixtures;
    const imagine = async (prompt: string) => {
      const handle = h.discord.slash('imagine', imagineOptions(prompt), { user: member });
      await handle.waitFor(settled);
      return handle;
    };
    expect(resultPost(await imagine('before'))).toBeDefined();
    // The card is posted before the job's quota commit: wait for the commit, so the lock below holds up only the
    // next request's reservation (the commit, caught by it instead, would fail and free the reservation to succeed).
    await h.waitForLog('image job delivered');
    expect(await quotaText(h.discord, member)).toContain('4 of 5 images left');
    const requestsBefore = h.gateway.imageRequests().length;

    // Hold the member's usage row, so the next reservation waits inside its statement on a ledger connection.
    const usage = usageKey(scopeOf(guild.id), member.id, periodWindow('day', Date.now()));
    await sessions.lockRow('quota_ledger', `${names.namespace}:${usage}`);
    const during = imagine('during');
    await sessions.waitForLockWaiters(`${names.applicationName}-ledger`);
    const killed = await sessions.terminate([names.applicationName, `${names.applicationName}-ledger`]);
    await sessions.release();

    expect(killed).toBeGreaterThanOrEqual(2);
    expect(ephemeralError(await during)).toContain("I can't check quotas right now");
    // keyv's connections were idle: the pool's listener logged their loss instead of the process ending.
    await h.waitForLog('storage connection lost');
    expect(h.gateway.imageRequests().length).toBe(requestsBefore);
    expect(await quotaText(h.discord, member)).toContain('4 of 5 images left');

    expect(resultPost(await imagine('after'))).toBeDefined();
    expect(await quotaText(h.discord, member)).toContain('3 of 5 images left');
    expect(h.logs.map((line) => JSON.parse(line) as { level: number }).filter((entry) => entry.level >= 60)).toEqual([]);
  });
});
