/**
 * Describe is metered (issue 29): its chat call's estimate is held in the spend ledger where a money limit applies
 * (refused before anything is downloaded when it does not fit, or when the vision model's prices are unknown), its
 * cost charged once the model answered, given back when it did not; each description counts in the usage totals and
 * its CSV; and an admin's cap on describes per member and period holds, a failed describe giving its place back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DescribedPrompts, DescribeService } from '../../src/service/describe-service.js';
import type { AttachmentRef } from '../../src/core/jobs.js';
import { ModelProfiles } from '../../src/core/model-profiles.js';
import { isoDate } from '../../src/core/periods.js';
import type { Description } from '../../src/service/prompt-help.js';
import type { ServerSettings } from '../../src/core/server-settings.js';
import { DEFAULT_SETTINGS } from '../../src/core/server-settings.js';
import { DescribeUsage, JobUsage } from '../../src/service/usage-log.js';
import { UsageReport } from '../../src/service/usage-report.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';
import { flatPng } from '../fakes/images.js';
import { ManualClock } from '../fakes/manual-clock.js';
import { memoryLogger, silentLogger } from '../fakes/memory-logger.js';

const opened: Storage[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const GUILD = '100000000000000001';
const MEMBER = '200000000000000001';
const place = { guildId: GUILD, channelId: '300000000000000001', userId: MEMBER, roleIds: [] };
const image: AttachmentRef = { url: 'https://cdn.discordapp.com/attachments/1/2/photo.png', filename: 'photo.png', size: 1_000, contentType: 'image/png' };
const answer: Description = {
  description: 'A lighthouse at dusk.',
  prompts: ['a lighthouse at dusk, oil painting'],
  used: { model: 'gpt-4o-mini', requestId: 'req_1', usage: { inputTokens: 812, outputTokens: 96, totalTokens: 908 } },
};
/** 812 input and 96 output tokens at gpt-4o-mini's $0.15 and $0.60 per million, in millionths of a dollar. */
const ANSWER_USD = Math.round(812 * 0.15 + 96 * 0.6) / 1e6;
const profiles = new ModelProfiles();

async function setup(options: { settings?: Partial<ServerSettings>; fails?: () => boolean; model?: string } = {}) {
  const clock = new ManualClock('2026-11-25T12:00:00Z');
  const storage = await openStorage({ url: 'memory://', defaults: { limit: 5, period: 'day' }, jobLeaseMs: 600_000, logger: silentLogger, clock });
  opened.push(storage);
  const bytes = (await flatPng(8, 8)).bytes;
  const downloads: string[] = [];
  const model = options.model ?? 'gpt-4o-mini';
  const settings: ServerSettings = { ...DEFAULT_SETTINGS, ...options.settings };
  const describeUsage = storage.records('describe-usage', DescribeUsage);
  const service = new DescribeService({
    help: {
      describe: () =>
        options.fails?.() ? Promise.reject(new Error('the vision model failed')) : Promise.resolve({ ...answer, used: { ...answer.used, model } }),
      describeCall: (maxSide) => ({ model, inputChars: 400, imageTokens: maxSide === 2048 ? 765 : 0, maxOutputTokens: 500 }),
    },
    records: storage.records('described-prompts', DescribedPrompts),
    download: (ref) => {
      downloads.push(ref.filename);
      return Promise.resolve(bytes);
    },
    maxAttachmentBytes: 10_000_000,
    ttlMs: 3_600_000,
    settings: { get: () => Promise.resolve(settings) },
    spend: storage.spend,
    pricesOf: (name) => profiles.of(name).profile.prices,
    totals: storage.usageTotals,
    counts: storage.describeCounts,
    usage: describeUsage,
    clock,
    logger: silentLogger,
  });
  const report = new UsageReport({ totals: storage.usageTotals, jobs: storage.records('job-usage', JobUsage), describes: describeUsage });
  const limitSpend = (usd: number) => storage.spend.setLimit({ kind: 'member', guildId: GUILD, userId: MEMBER }, { usd, period: 'day' });
  const spend = () => storage.spend.status({ guildId: GUILD, userId: MEMBER, roleIds: [] });
  return { service, storage, downloads, clock, report, limitSpend, spend };
}

const refusal = (identifier: string): unknown => expect.objectContaining({ name: 'UserFacingError', identifier }) as unknown;

describe('describe, metered', () => {
  it('refuses a member over their money limit before anything is downloaded, and holds nothing', async () => {
    const { service, downloads, limitSpend, spend } = await setup();
    await limitSpend(0.0001);
    await expect(service.describe(place, image)).rejects.toEqual(refusal('spend.exceeded'));
    await limitSpend(0);
    await expect(service.describe(place, image)).rejects.toEqual(refusal('quota.blocked'));
    expect(downloads).toEqual([]);
    expect(await spend()).toMatchObject({ spent: 0, reserved: 0 });
  });

  it('multiplies the money limit by the perks the server gives the member (boosters here)', async () => {
    const boosters = { lane: 'normal', quotaMultiplier: 1, moneyMultiplier: 10 } as const;
    const { service, limitSpend } = await setup({ settings: { priority: { boosters, roles: [] } } });
    await limitSpend(0.0001);
    await expect(service.describe(place, image)).rejects.toEqual(refusal('spend.exceeded'));
    await expect(service.describe({ ...place, booster: true }, image)).resolves.toMatchObject({ description: answer.description });
  });

  it("charges the call's cost (its usage at the vision model's prices) to the money limit once the model answered", async () => {
    const { service, limitSpend, spend } = await setup();
    await limitSpend(1);
    await service.describe(place, image);
    const status = await spend();
    expect(status?.spent).toBe(ANSWER_USD);
    expect(status?.reserved).toBe(0);
  });

  it('gives the hold back when the vision model did not answer', async () => {
    const { service, limitSpend, spend } = await setup({ fails: () => true });
    await limitSpend(1);
    await expect(service.describe(place, image)).rejects.toThrow();
    expect(await spend()).toMatchObject({ spent: 0, reserved: 0 });
  });

  it('refuses a vision model of unknown prices where a money limit applies, and describes with it where none does', async () => {
    const limited = await setup({ model: 'secret-vision-model' });
    await limited.limitSpend(1);
    await expect(limited.service.describe(place, image)).rejects.toEqual(refusal('spend.unpriced'));
    expect(limited.downloads).toEqual([]);
    const free = await setup({ model: 'secret-vision-model' });
    await expect(free.service.describe(place, image)).resolves.toMatchObject({ description: answer.description });
  });

  it('counts each description in the usage totals (calls and cost, per member) and lists it in the CSV', async () => {
    const { service, report, clock } = await setup();
    const { id } = await service.describe(place, image);
    const summary = await report.summary(GUILD, 'day', clock.now());
    expect(summary).toMatchObject({ promptHelpCalls: 1, images: 0, jobs: 0, jobIds: [id] });
    expect(summary.promptHelpUsd).toBeCloseTo(ANSWER_USD, 6);
    const csv = (await report.csv(summary)).split('\r\n');
    expect(csv[1]).toBe(`${id},${new Date(clock.now()).toISOString()},${MEMBER},describe,,,,0,0,,,,gpt-4o-mini,${ANSWER_USD},estimated,,`);
    expect(isoDate(clock.now())).toBe('2026-11-25');
  });

  it("holds an admin's cap on describes per member and period; a failed describe gives its place back", async () => {
    let failing = false;
    const { service, downloads, clock } = await setup({ settings: { describeLimit: { count: 2, period: 'day' } }, fails: () => failing });
    await service.describe(place, image);
    failing = true;
    await expect(service.describe(place, image)).rejects.toThrow();
    failing = false;
    await service.describe(place, image);
    const refused = await service.describe(place, image).catch((err: unknown) => err);
    expect(refused).toEqual(refusal('describe.limit'));
    expect(refused).toMatchObject({ context: { limit: 2, resetsAt: Date.parse('2026-11-26T00:00:00Z') } });
    expect(downloads).toHaveLength(3);
    // Another member has their own count; the next day, the member has theirs again.
    await service.describe({ ...place, userId: '200000000000000002' }, image);
    clock.advance(12 * 3_600_000);
    await service.describe(place, image);
  });

  it('refuses every describe under a cap of 0', async () => {
    const { service, downloads } = await setup({ settings: { describeLimit: { count: 0, period: 'week' } } });
    await expect(service.describe(place, image)).rejects.toEqual(refusal('describe.limit'));
    expect(downloads).toEqual([]);
  });

  it('logs, and does not fail the member, when the store fails while a describe settles', async () => {
    const clock = new ManualClock('2026-11-25T12:00:00Z');
    const storage = await openStorage({ url: 'memory://', defaults: { limit: 5, period: 'day' }, jobLeaseMs: 600_000, logger: silentLogger, clock });
    opened.push(storage);
    const bytes = (await flatPng(8, 8)).bytes;
    const log = memoryLogger();
    const broken = () => Promise.reject(new Error('store down'));
    let fails = false;
    const service = new DescribeService({
      help: {
        describe: () => (fails ? Promise.reject(new Error('the vision model failed')) : Promise.resolve(answer)),
        describeCall: () => ({ model: 'gpt-4o-mini', inputChars: 400, imageTokens: 765, maxOutputTokens: 500 }),
      },
      records: storage.records('described-prompts', DescribedPrompts),
      download: () => Promise.resolve(bytes),
      maxAttachmentBytes: 10_000_000,
      ttlMs: 3_600_000,
      settings: { get: () => Promise.resolve({ ...DEFAULT_SETTINGS, describeLimit: { count: 5, period: 'day' } }) },
      // Holds succeed; every settling write fails.
      spend: { ...storage.spend, reserve: () => Promise.resolve({ ok: true, held: true }), commit: broken, refund: broken },
      pricesOf: (name) => profiles.of(name).profile.prices,
      totals: { add: broken },
      counts: { add: (_g, _u, _w, by) => (by > 0 ? Promise.resolve(1) : broken()) },
      usage: { ...storage.records('describe-usage', DescribeUsage), set: broken },
      clock,
      logger: log.logger,
    });
    await expect(service.describe(place, image)).resolves.toMatchObject({ description: answer.description });
    expect(log.find('spend commit failed; the estimate lapses with its lease')).toHaveLength(1);
    expect(log.find('could not record the description’s usage')).toHaveLength(1);
    expect(log.find('could not count the description in the usage totals')).toHaveLength(1);
    fails = true;
    await expect(service.describe(place, image)).rejects.toThrow('the vision model failed');
    expect(log.find('spend refund failed; the estimate lapses with its lease')).toHaveLength(1);
    expect(log.find('could not give back a describe’s place under the cap')).toHaveLength(1);
  });
});
