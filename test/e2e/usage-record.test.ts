/**
 * Every settled job that reached the gateway leaves a usage record: model, size, quality, counts, the usage in
 * whatever shape the gateway sent it (normalised), the reported cost and the request id. Read back from the bot's
 * own SQLite file through a second connection, as a report would.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { JobUsage } from '../../src/service/usage-log.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';
import type { SuccessBehaviour } from '../emulators/gateway/index.js';
import { startHarness, type Harness } from './harness.js';
import { customIds, resultPost, settled } from './support.js';

describe('usage records, end to end', () => {
  let h: Harness;
  let storage: Storage;
  beforeAll(async () => {
    h = await startHarness({ sqlite: true, env: { QUOTA_DEFAULT_LIMIT: '100' } });
    storage = await openStorage({ url: h.config.STORAGE_URL, defaults: { limit: 5, period: 'day' }, jobLeaseMs: 60_000, logger: pino({ level: 'silent' }) });
  });
  afterAll(async () => {
    await storage.close();
    await (h as Harness | undefined)?.close();
  });

  // The emulator's usage for two 1024x1024 low-quality images of "a lighthouse": 3 text tokens in, 544 out.
  const TOKENS = { inputTokens: 3, outputTokens: 544, totalTokens: 547 };
  const PARTS = { inputTextTokens: 3, inputImageTokens: 0 };

  it.each<[string, Partial<SuccessBehaviour>, Record<string, number>]>([
    ['OpenAI with input_tokens_details', { usageShape: 'details' }, { ...TOKENS, ...PARTS }],
    ['OpenAI without details', { usageShape: 'plain' }, TOKENS],
    ['the chat shape', { usageShape: 'chat' }, { ...TOKENS, ...PARTS }],
    ['usage.cost in USD', { usageShape: 'cost' }, { ...TOKENS, ...PARTS, costUsd: 0.0421 }],
    ['usage.cost_in_usd_ticks', { usageShape: 'ticks' }, { ...TOKENS, ...PARTS, costUsd: 0.0421 }],
    ['the x-litellm-response-cost header', { usageShape: 'plain', headers: { 'x-litellm-response-cost': '0.0375' } }, { ...TOKENS, costUsd: 0.0375 }],
  ])('stores a delivered job with its usage sent as %s, normalised', async (_name, behaviour, usage) => {
    h.gateway.enqueue({ type: 'success', ...behaviour });
    const user = h.discord.fixtures.member;
    const options = [
      { name: 'prompt', type: 3, value: 'a lighthouse' },
      { name: 'size', type: 3, value: '1024x1024' },
      { name: 'quality', type: 3, value: 'low' },
      { name: 'count', type: 4, value: 2 },
    ];
    const handle = h.discord.slash('imagine', options, { user });
    await handle.waitFor(settled);
    const message = resultPost(handle)!.payload!;
    const jobId = customIds(message)[0]!.split(':')[1]!;
    // Recorded after the delivery, before the job's last log line.
    await h.waitForLog((entry) => entry.msg === 'image job delivered' && entry['jobId'] === jobId);
    const record = await storage.records('job-usage', JobUsage).get(jobId);
    expect(record).toMatchObject({
      jobId,
      guildId: h.discord.fixtures.guild.id,
      userId: user.id,
      kind: 'imagine',
      model: 'gpt-image-2',
      size: '1024x1024',
      quality: 'low',
      requested: 2,
      delivered: 2,
      requestId: expect.any(String) as string,
    });
    expect(record?.usage).toEqual(usage);
    expect(record?.cost).toEqual(usage['costUsd'] === undefined ? undefined : { usd: usage['costUsd'], source: 'reported' });
  });
});

describe('estimated cost, end to end', () => {
  it("stores a cost estimated from the usage and the operator's prices when the gateway reports none, labelled estimated", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'profiles-')), 'profiles.json');
    writeFileSync(file, JSON.stringify({ 'gpt-image-2': { prices: { inputTextPerMillion: 5, outputPerMillion: 40 } } }));
    const h = await startHarness({ sqlite: true, env: { MODEL_PROFILES_FILE: file } });
    const storage = await openStorage({
      url: h.config.STORAGE_URL,
      defaults: { limit: 5, period: 'day' },
      jobLeaseMs: 60_000,
      logger: pino({ level: 'silent' }),
    });
    try {
      h.gateway.enqueue({ type: 'success', usageShape: 'plain' });
      const options = [
        { name: 'prompt', type: 3, value: 'a lighthouse' },
        { name: 'size', type: 3, value: '1024x1024' },
        { name: 'quality', type: 3, value: 'low' },
      ];
      const handle = h.discord.slash('imagine', options, { user: h.discord.fixtures.member });
      await handle.waitFor(settled);
      const message = resultPost(handle)!.payload!;
      const jobId = customIds(message)[0]!.split(':')[1]!;
      await h.waitForLog((entry) => entry.msg === 'image job delivered' && entry['jobId'] === jobId);
      const record = await storage.records('job-usage', JobUsage).get(jobId);
      // 3 text tokens in at $5 and 272 out at $40 per million.
      expect(record?.usage).toEqual({ inputTokens: 3, outputTokens: 272, totalTokens: 275 });
      expect(record?.cost).toEqual({ usd: 0.010895, source: 'estimated' });
    } finally {
      await storage.close();
      await h.close();
    }
  });
});
