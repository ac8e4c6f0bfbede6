/**
 * Describe's service: the image and its data URL are held within the process's memory budget (a describe waits,
 * before it downloads, while others hold the room; the room is given back however the call ends), and each
 * description's chat usage is recorded under its id.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DescribedPrompts, DescribeService, describeHeldBytes } from '../../src/service/describe-service.js';
import type { AttachmentRef } from '../../src/service/jobs.js';
import { MemoryBudget } from '../../src/service/memory-budget.js';
import type { Description } from '../../src/service/prompt-help.js';
import { DescribeUsage } from '../../src/service/usage-log.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';
import { declaredPng } from '../emulators/gateway/png-bomb.js';
import { flatPng } from '../fakes/images.js';
import { ManualClock } from '../fakes/manual-clock.js';
import { silentLogger } from '../fakes/memory-logger.js';

const opened: Storage[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const DECLARED = 1_000;
const image = (name: string): AttachmentRef => ({
  url: `https://cdn.discordapp.com/attachments/1/2/${name}`,
  filename: name,
  size: DECLARED,
  contentType: 'image/png',
});
const answer: Description = {
  description: 'A lighthouse at dusk.',
  prompts: ['a lighthouse at dusk, oil painting'],
  used: { model: 'gpt-4o-mini', requestId: 'req_1', usage: { inputTokens: 812, outputTokens: 96, totalTokens: 908 } },
};

/** A chat call the test settles by hand. */
function pendingCall() {
  let settle!: (outcome: { ok: true } | { ok: false }) => void;
  const promise = new Promise<Description>((resolve, reject) => {
    settle = (outcome) => (outcome.ok ? resolve(answer) : reject(new Error('chat failed')));
  });
  return { promise, settle };
}

async function setup(budget: MemoryBudget, served?: Buffer) {
  const clock = new ManualClock('2026-11-25T12:00:00Z');
  const storage = await openStorage({ url: 'memory://', defaults: { limit: 5, period: 'day' }, jobLeaseMs: 600_000, logger: silentLogger, clock });
  opened.push(storage);
  const bytes = served ?? (await flatPng(8, 8)).bytes;
  const downloads: string[] = [];
  const calls: ReturnType<typeof pendingCall>[] = [];
  const asked: number[] = [];
  const service = new DescribeService({
    help: {
      describe: () => {
        const call = pendingCall();
        calls.push(call);
        return call.promise;
      },
    },
    records: storage.records('described-prompts', DescribedPrompts),
    download: (ref) => {
      downloads.push(ref.filename);
      return Promise.resolve(bytes);
    },
    maxAttachmentBytes: 10_000,
    ttlMs: 3_600_000,
    memory: {
      referenceBytes: budget.referenceBytes,
      takeReferences: (held) => {
        asked.push(held);
        return budget.takeReferences(held);
      },
    },
    usage: storage.records('describe-usage', DescribeUsage),
    clock,
    logger: silentLogger,
  });
  return { service, storage, downloads, calls, asked, clock };
}

describe('DescribeService', () => {
  it('refuses an image declaring more than MAX_DECODE_PIXELS from its header, before the vision model sees it, and gives its room back', async () => {
    const budget = new MemoryBudget({ totalBytes: 3_000_000, answerBytes: 1_000_000 });
    const { service, calls } = await setup(budget, declaredPng(20_000, 20_000));
    await expect(service.describe({ guildId: null, channelId: null, userId: 'u1' }, image('bomb.png'))).rejects.toMatchObject({
      identifier: 'input.attachmentInvalid',
      context: { param: 'bomb.png' },
    });
    expect(calls).toHaveLength(0);
    expect(budget.inUse).toBe(0);
  });

  it('holds an image and its data URL within the memory budget: a second describe downloads only once the first is done', async () => {
    const budget = new MemoryBudget({ totalBytes: describeHeldBytes(DECLARED) + 500, answerBytes: 500 });
    const { service, downloads, calls, asked } = await setup(budget);
    const place = { guildId: 'g1', channelId: 'c1', userId: 'u1' };

    const first = service.describe(place, image('first.png'));
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    const second = service.describe({ ...place, userId: 'u2' }, image('second.png'));
    await vi.waitFor(() => expect(asked).toHaveLength(2));
    // The second asked for its room and waits: nothing downloaded while the first holds the budget.
    expect(asked).toEqual([describeHeldBytes(DECLARED), describeHeldBytes(DECLARED)]);
    expect(downloads).toEqual(['first.png']);
    expect(budget.inUse).toBe(describeHeldBytes(DECLARED));

    calls[0]!.settle({ ok: true });
    await first;
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    expect(downloads).toEqual(['first.png', 'second.png']);
    calls[1]!.settle({ ok: false });
    await expect(second).rejects.toThrow('chat failed');
    // Given back whether the call answered or failed.
    expect(budget.inUse).toBe(0);
  });

  it('never asks for more than the budget has: a large declared image is capped at its room', async () => {
    const budget = new MemoryBudget({ totalBytes: 2_000, answerBytes: 500 });
    const { service, calls, asked } = await setup(budget);
    const described = service.describe({ guildId: null, channelId: null, userId: 'u1' }, image('big.png'));
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    expect(asked).toEqual([budget.referenceBytes]);
    calls[0]!.settle({ ok: true });
    await described;
    expect(budget.inUse).toBe(0);
  });

  it("records each description's chat usage under its id: who asked, where, the model and its tokens", async () => {
    const { service, storage, calls, clock } = await setup(new MemoryBudget());
    const described = service.describe({ guildId: 'g1', channelId: 'c1', userId: 'u7' }, image('photo.png'));
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    calls[0]!.settle({ ok: true });
    const { id } = await described;
    expect(await storage.records('describe-usage', DescribeUsage).get(id)).toEqual({
      v: 1,
      describeId: id,
      guildId: 'g1',
      userId: 'u7',
      promptHelp: answer.used,
      settledAt: clock.now(),
    });
  });
});
