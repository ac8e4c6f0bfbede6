/**
 * The money limits and the cost confirmation inside ImageService (issue 17), on the real ledger (memory store) with
 * its failures scripted: a refused estimate gives the images back; a spend commit or refund that fails is logged and
 * never fails the job; a model without prices is refused while a limit applies; a request asked about only where it
 * could run, and only when the server keeps confirmations and the destination can ask.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UserFacingError } from '../../src/errors.js';
import { FairQueue } from '../../src/service/fair-queue.js';
import { GatewayError } from '../../src/gateway/errors.js';
import { ImageService } from '../../src/service/image-service.js';
import type { CostConfirmation, ImageJob } from '../../src/core/jobs.js';
import type { PromptModel } from '../../src/ports/prompt-model.js';
import type { SpendLedger } from '../../src/ports/spend-ledger.js';
import { ENHANCE_INSTRUCTION, PromptHelp } from '../../src/service/prompt-help.js';
import { DEFAULT_SETTINGS, type ServerSettings } from '../../src/core/server-settings.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';
import { FakeGateway } from '../fakes/fake-gateway.js';
import { FakeResponder } from '../fakes/fake-responder.js';
import { flatPng } from '../fakes/images.js';
import { imageResult, imagineJob, memberSubject, GUILD_ID } from '../fakes/jobs.js';
import { ManualClock } from '../fakes/manual-clock.js';
import { LEVEL, memoryLogger } from '../fakes/memory-logger.js';

const opened: Storage[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

/** gpt-image-1 at 1024x1024, high: about $0.17 an image. */
const PRICED = { model: 'gpt-image-1', size: { width: 1024, height: 1024 }, quality: 'high' } as const;

async function setup(
  options: {
    settings?: Partial<ServerSettings>;
    failCommit?: boolean;
    failRefund?: boolean;
    confirmations?: boolean;
    chat?: PromptModel;
    promptModel?: string;
  } = {},
) {
  const clock = new ManualClock('2025-06-01T12:00:00Z');
  const { logger, find } = memoryLogger();
  const storage = await openStorage({ url: 'memory://', defaults: { limit: 5, period: 'day' }, jobLeaseMs: 600_000, logger, clock });
  opened.push(storage);
  const spend: SpendLedger = {
    reserve: (subject, jobId, usd) => storage.spend.reserve(subject, jobId, usd),
    renew: (jobId) => storage.spend.renew(jobId),
    commit: (jobId, usd) => (options.failCommit ? Promise.reject(new Error('store down')) : storage.spend.commit(jobId, usd)),
    refund: (jobId) => (options.failRefund ? Promise.reject(new Error('store down')) : storage.spend.refund(jobId)),
    status: (subject) => storage.spend.status(subject),
    setLimit: (target, limit) => storage.spend.setLimit(target, limit),
  };
  const stashed: ImageJob[] = [];
  const gateway = new FakeGateway();
  const service = new ImageService({
    gateway,
    logger,
    clock,
    rules: {
      settings: { get: async () => ({ ...DEFAULT_SETTINGS, ...options.settings }) },
      confirmations:
        options.confirmations === false
          ? undefined
          : {
              stashConfirmation: async (job) => {
                stashed.push(job);
                return job.id;
              },
            },
      promptHelp:
        options.chat &&
        new PromptHelp({ chat: options.chat, promptModel: options.promptModel ?? 'gpt-4o-mini', visionModel: undefined, maxTokens: 400, logger }),
    },
    holds: {
      quotas: storage.quotas,
      spend,
    },
    produce: {
      queue: new FairQueue(),
      download: () => Promise.reject(new Error('no attachments')),
    },
  });
  return { service, gateway, storage, find, stashed };
}

const failure = async (run: Promise<void>): Promise<UserFacingError> => {
  const error = await run.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (error instanceof UserFacingError) return error;
  throw new Error(`expected a UserFacingError, got ${String(error)}`);
};

/** A responder that can ask for confirmation, and records what it asked. */
class AskingResponder extends FakeResponder {
  readonly asked: CostConfirmation[] = [];
  async confirmCost(confirmation: CostConfirmation): Promise<void> {
    this.asked.push(confirmation);
  }
}

describe('ImageService with money limits', () => {
  it('gives the images back when the estimate does not fit, and holds nothing', async () => {
    const { service, storage } = await setup();
    await storage.spend.setLimit({ kind: 'server', guildId: GUILD_ID }, { usd: 0.1, period: 'day' });
    const error = await failure(service.run(imagineJob(PRICED), new FakeResponder()));
    expect(error.identifier).toBe('spend.exceeded');
    expect(error.context).toMatchObject({ limitUsd: 0.1, remainingUsd: 0.1 });
    expect(await storage.quotas.status(memberSubject())).toMatchObject({ used: 0, reserved: 0 });
    expect(await storage.spend.status(memberSubject())).toMatchObject({ spent: 0, reserved: 0 });
  });

  it('refuses a model without prices while a limit applies, and lets it run without one', async () => {
    const { service, storage, gateway } = await setup();
    gateway.returns(imageResult([await flatPng(1024, 1024)]));
    await service.run(imagineJob({ model: 'gpt-image-2' }), new FakeResponder());
    await storage.spend.setLimit({ kind: 'server', guildId: GUILD_ID }, { usd: 5, period: 'day' });
    const error = await failure(service.run(imagineJob({ model: 'gpt-image-2' }), new FakeResponder()));
    expect(error).toMatchObject({ identifier: 'spend.unpriced', context: { model: 'gpt-image-2' } });
    expect(await storage.quotas.status(memberSubject())).toMatchObject({ used: 1, reserved: 0 });
  });

  it('logs a spend commit that fails and still delivers; the estimate lapses with its lease', async () => {
    const { service, storage, gateway, find } = await setup({ failCommit: true });
    await storage.spend.setLimit({ kind: 'server', guildId: GUILD_ID }, { usd: 5, period: 'day' });
    gateway.returns(imageResult([await flatPng(1024, 1024)]));
    const responder = new FakeResponder();
    await service.run(imagineJob(PRICED), responder);
    expect(responder.deliveries).toHaveLength(1);
    expect(find('spend commit failed; the estimate lapses with its lease')).toEqual([expect.objectContaining({ level: LEVEL.error })]);
    expect(await storage.quotas.status(memberSubject())).toMatchObject({ used: 1 });
  });

  it('logs a spend refund that fails after a gateway failure, and refunds the images', async () => {
    const { service, storage, gateway, find } = await setup({ failRefund: true });
    await storage.spend.setLimit({ kind: 'server', guildId: GUILD_ID }, { usd: 5, period: 'day' });
    gateway.fails(new GatewayError('boom', { category: 'gateway_failure', status: 500 }));
    expect((await failure(service.run(imagineJob(PRICED), new FakeResponder()))).identifier).toBe('gateway.failure');
    expect(find('spend refund failed; the estimate lapses with its lease')).toEqual([expect.objectContaining({ level: LEVEL.error })]);
    expect(await storage.quotas.status(memberSubject())).toMatchObject({ used: 0, reserved: 0 });
  });
});

describe('ImageService cost confirmation', () => {
  it('asks above the threshold, holding nothing; a confirmed job is not asked again', async () => {
    const { service, storage, gateway, stashed } = await setup({ settings: { confirmAboveUsd: 0.1 } });
    const responder = new AskingResponder();
    await service.run(imagineJob(PRICED), responder);
    expect(responder.asked).toHaveLength(1);
    // 4,160 output tokens and one preview's 100 at $40 per million, and the prompt's tokens.
    expect(responder.asked[0]).toMatchObject({ thresholdUsd: 0.1, estimateUsd: 0.170425 });
    expect(stashed).toHaveLength(1);
    expect(await storage.quotas.status(memberSubject())).toMatchObject({ used: 0, reserved: 0 });
    gateway.returns(imageResult([await flatPng(1024, 1024)]));
    await service.run({ ...imagineJob(PRICED), confirmed: true }, responder);
    expect(responder.asked).toHaveLength(1);
    expect(responder.deliveries).toHaveLength(1);
  });

  it('refuses at once, without asking, what the quota or the money limit would refuse anyway', async () => {
    const { service, storage } = await setup({ settings: { confirmAboveUsd: 0.1 } });
    const responder = new AskingResponder();
    expect((await failure(service.run(imagineJob({ ...PRICED, n: 6 }), responder))).identifier).toBe('quota.exceeded');
    await storage.spend.setLimit({ kind: 'server', guildId: GUILD_ID }, { usd: 0.15, period: 'day' });
    expect((await failure(service.run(imagineJob(PRICED), responder))).identifier).toBe('spend.exceeded');
    expect(responder.asked).toEqual([]);
  });

  it('runs unasked where confirmations cannot be kept, or the destination cannot ask', async () => {
    const unkept = await setup({ settings: { confirmAboveUsd: 0.1 }, confirmations: false });
    unkept.gateway.returns(imageResult([await flatPng(1024, 1024)]));
    const responder = new AskingResponder();
    await unkept.service.run(imagineJob(PRICED), responder);
    expect(responder.asked).toEqual([]);
    expect(responder.deliveries).toHaveLength(1);

    const plain = await setup({ settings: { confirmAboveUsd: 0.1 } });
    plain.gateway.returns(imageResult([await flatPng(1024, 1024)]));
    const quiet = new FakeResponder();
    await plain.service.run(imagineJob(PRICED), quiet);
    expect(quiet.deliveries).toHaveLength(1);
    expect(plain.stashed).toEqual([]);
  });
});

describe('ImageService.present', () => {
  it("posts an earlier result's image as a card of its own, with the actions its model offers, and charges nothing", async () => {
    const { storage, gateway } = await setup();
    const { logger, find } = memoryLogger();
    const png = (await flatPng(1024, 1024)).bytes;
    const failing = { remember: () => Promise.reject(new Error('store down')) };
    const service = new ImageService({
      gateway,
      logger,
      holds: {
        quotas: storage.quotas,
      },
      produce: {
        queue: new FairQueue(),
        download: async () => png,
      },
      listeners: {
        archive: failing,
      },
    });
    const responder = new FakeResponder();
    const ref = { url: 'https://cdn.discordapp.com/attachments/1/2/a-1.png', filename: 'a-1.png', size: png.length };
    await service.present(imagineJob({ model: 'gpt-image-1' }), ref, responder);
    expect(responder.deliveries[0]).toMatchObject({ model: 'gpt-image-1', actions: { edits: true, masks: true, enlarge: false } });
    expect(gateway.calls).toHaveLength(0);
    expect(await storage.quotas.status(memberSubject())).toMatchObject({ used: 0, reserved: 0 });
    // Its buttons could not be stored: logged, and the card is posted anyway.
    expect(find('could not store job for its buttons')).toEqual([expect.objectContaining({ level: LEVEL.warn })]);

    const notImage = new ImageService({
      gateway,
      logger: memoryLogger().logger,
      holds: {
        quotas: storage.quotas,
      },
      produce: {
        queue: new FairQueue(),
        download: async () => Buffer.from('not an image'),
      },
    });
    expect((await failure(notImage.present(imagineJob(), ref, new FakeResponder()))).identifier).toBe('input.attachmentInvalid');
  });

  it("goes through the clicker's line like any action: beyond their queued limit it is refused, and it waits its turn", async () => {
    const { storage, gateway } = await setup();
    const png = (await flatPng(1024, 1024)).bytes;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const downloads: string[] = [];
    const service = new ImageService({
      gateway,
      logger: memoryLogger().logger,
      holds: {
        quotas: storage.quotas,
      },
      produce: {
        queue: new FairQueue({ perMemberRunning: 1, perMemberQueued: 1 }),
        perMemberQueued: 1,
        download: async (ref) => {
          downloads.push(ref.filename);
          await held;
          return png;
        },
      },
    });
    const ref = (name: string) => ({ url: `https://cdn.discordapp.com/attachments/1/2/${name}`, filename: name, size: png.length });
    const first = service.present(imagineJob(), ref('a-1.png'), new FakeResponder());
    const second = service.present(imagineJob(), ref('a-2.png'), new FakeResponder());
    const third = service.present(imagineJob(), ref('a-3.png'), new FakeResponder());
    expect((await failure(third)).identifier).toBe('queue.full');
    // One at a time for this member: the second waits for the first.
    await vi.waitFor(() => expect(downloads).toEqual(['a-1.png']));
    release();
    await Promise.all([first, second]);
    expect(downloads).toEqual(['a-1.png', 'a-2.png']);
  });
});

describe('ImageService metering enhance (issue 29)', () => {
  /** A chat model whose every answer reports `costUsd`, counting its calls. */
  const chat = (costUsd: number) => {
    const calls: string[] = [];
    const model: PromptModel = {
      complete: async (request) => {
        calls.push(request.model);
        return { text: 'a vivid lighthouse at dusk, oil painting', model: request.model, usage: { inputTokens: 90, outputTokens: 12, costUsd } };
      },
    };
    return { model, calls };
  };

  it("estimates the enhance call and the rewritten prompt's longest form with the images", async () => {
    const { service } = await setup({ settings: { confirmAboveUsd: 0.1 }, chat: chat(0.01).model });
    const responder = new AskingResponder();
    await service.run(imagineJob(PRICED), responder);
    await service.run({ ...imagineJob(PRICED), enhance: true }, responder);
    const [plain, enhanced] = responder.asked.map((a) => a.estimateUsd);
    const promptChars = imagineJob(PRICED).request.prompt.length;
    // gpt-4o-mini reads the instruction and the prompt (a token per four characters, 16 for the framing) at $0.15 per
    // million and may answer 400 tokens at $0.60; gpt-image-1 then reads the rewritten prompt at its longest (400
    // tokens) instead of the member's, at $5 per million.
    const chatUsd = ((Math.ceil((ENHANCE_INSTRUCTION.length + promptChars) / 4) + 16) * 0.15 + 400 * 0.6) / 1e6;
    const longerPromptUsd = ((400 - Math.ceil(promptChars / 4)) * 5) / 1e6;
    expect(enhanced! - plain!).toBeCloseTo(chatUsd + longerPromptUsd, 6);
  });

  it('charges the enhance call when the image call then fails, and gives the images back', async () => {
    const { service, storage, gateway } = await setup({ chat: chat(0.03).model });
    await storage.spend.setLimit({ kind: 'server', guildId: GUILD_ID }, { usd: 5, period: 'day' });
    gateway.fails(new GatewayError('boom', { category: 'gateway_failure', status: 500 }));
    await failure(service.run({ ...imagineJob(PRICED), enhance: true }, new FakeResponder()));
    expect(await storage.spend.status(memberSubject())).toMatchObject({ spent: 0.03, reserved: 0 });
    expect(await storage.quotas.status(memberSubject())).toMatchObject({ used: 0, reserved: 0 });
  });

  it('charges the images and the enhance call together when delivered', async () => {
    const { service, storage, gateway } = await setup({ chat: chat(0.03).model });
    await storage.spend.setLimit({ kind: 'server', guildId: GUILD_ID }, { usd: 5, period: 'day' });
    gateway.returns({ ...imageResult([await flatPng(1024, 1024)]), usage: { costUsd: 0.2 } });
    await service.run({ ...imagineJob(PRICED), enhance: true }, new FakeResponder());
    expect(await storage.spend.status(memberSubject())).toMatchObject({ spent: 0.23, reserved: 0 });
  });

  it('refuses enhance with a chat model whose prices are not known while a limit applies, before anything is called', async () => {
    const { model, calls } = chat(0.01);
    const { service, storage, gateway } = await setup({ chat: model, promptModel: 'house-chat' });
    await storage.spend.setLimit({ kind: 'server', guildId: GUILD_ID }, { usd: 5, period: 'day' });
    const error = await failure(service.run({ ...imagineJob(PRICED), enhance: true }, new FakeResponder()));
    expect(error).toEqual(new UserFacingError('spend.unpriced', { model: 'house-chat' }));
    expect(calls).toEqual([]);
    expect(gateway.calls).toHaveLength(0);
    expect(await storage.quotas.status(memberSubject())).toMatchObject({ used: 0, reserved: 0 });
  });
});
