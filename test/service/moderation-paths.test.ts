/**
 * The moderation gate on the service's paths: an image job's moderation refusal is refunded and counted (the member
 * warned, then paused), a paused member's next job is refused before anything is reserved, journalled or sent (with
 * the refusal in the server's usage totals), a job queued before the pause is stopped at its turn, and a paused
 * member's describe is refused before the image is downloaded.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { UserFacingError } from '../../src/errors.js';
import { GatewayError } from '../../src/gateway/errors.js';
import { DescribedPrompts, DescribeService } from '../../src/service/describe-service.js';
import { FairQueue } from '../../src/service/fair-queue.js';
import { ImageService } from '../../src/service/image-service.js';
import { ModerationGate } from '../../src/service/moderation-gate.js';
import { isoDate } from '../../src/core/periods.js';
import type { ImageResult } from '../../src/core/images.js';
import { phrase } from '../../src/core/phrase.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';
import { deferred, FakeGateway } from '../fakes/fake-gateway.js';
import { FakeResponder } from '../fakes/fake-responder.js';
import { flatPng } from '../fakes/images.js';
import { GUILD_ID, imageResult, imagineJob, memberSubject, MEMBER_ID } from '../fakes/jobs.js';
import { ManualClock } from '../fakes/manual-clock.js';
import { silentLogger } from '../fakes/memory-logger.js';

const HOUR = 3_600_000;
const opened: Storage[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function setup(queue: { concurrency?: number } = {}) {
  const clock = new ManualClock('2026-06-01T12:00:00Z');
  const storage = await openStorage({ url: 'memory://', defaults: { limit: 5, period: 'day' }, jobLeaseMs: 600_000, logger: silentLogger, clock });
  opened.push(storage);
  const moderation = new ModerationGate({ store: storage.strikes, policy: { strikes: 2, windowMs: HOUR, pauseMs: HOUR }, clock, logger: silentLogger });
  const gateway = new FakeGateway();
  const images = new ImageService({
    gateway,
    logger: silentLogger,
    clock,
    rules: {
      moderation,
    },
    holds: {
      quotas: storage.quotas,
      journal: storage.journal,
    },
    produce: {
      queue: new FairQueue(queue),
      download: () => Promise.reject(new Error('these jobs have no attachments')),
    },
    listeners: {
      totals: storage.usageTotals,
    },
  });
  return { storage, clock, gateway, images, moderation };
}

/** The error `run` fails with. */
async function failure(run: Promise<unknown>): Promise<UserFacingError> {
  const error: unknown = await run.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (error instanceof UserFacingError) return error;
  throw new Error(`expected a UserFacingError, got ${String(error)}`);
}

describe('moderation strikes on the service’s paths', () => {
  it('counts a moderation refusal (refunded like any failure), then refuses the paused member before reserving or sending anything', async () => {
    const { storage, clock, gateway, images } = await setup();
    const refusal = () => new GatewayError('rejected by the safety system', { category: 'content_rejected' });
    gateway.fails(refusal()).fails(refusal());
    expect(await failure(images.run(imagineJob({ n: 2 }), new FakeResponder()))).toEqual(
      new UserFacingError('gateway.contentRejected', { detail: phrase('detail.moderation.warning', { left: 1, windowHours: 1, pauseHours: 1 }) }),
    );
    const paused = await failure(images.run(imagineJob(), new FakeResponder()));
    expect(paused).toMatchObject({ identifier: 'moderation.pausedNow', context: { resetsAt: clock.now() + HOUR, limit: 2 } });
    expect(paused.cause).toBeInstanceOf(GatewayError);
    expect(await storage.quotas.status(memberSubject())).toMatchObject({ used: 0, reserved: 0 });

    gateway.returns(imageResult([await flatPng(64, 64)]));
    const responder = new FakeResponder();
    expect(await failure(images.run(imagineJob(), responder))).toMatchObject({ identifier: 'moderation.paused', context: { resetsAt: clock.now() + HOUR } });
    expect(gateway.calls).toHaveLength(2);
    expect(responder.deliveries).toEqual([]);
    expect(await storage.quotas.status(memberSubject())).toMatchObject({ used: 0, reserved: 0 });
    // Nothing journalled: no process would find a job of it to claim.
    expect(await storage.journal.claimAbandoned()).toEqual([]);
    const [day] = await storage.usageTotals.days(GUILD_ID, [isoDate(clock.now())]);
    expect(day?.refusals).toEqual({ 'gateway.contentRejected': 1, 'moderation.pausedNow': 1, 'moderation.paused': 1 });

    // Another member of the same server is not paused; the member is again once the pause is over.
    await expect(images.run(imagineJob({}, '200000000000000002'), new FakeResponder())).resolves.toBeUndefined();
    clock.advance(HOUR);
    gateway.returns(imageResult([await flatPng(64, 64)]));
    await expect(images.run(imagineJob(), new FakeResponder())).resolves.toBeUndefined();
  });

  it('refuses a job that was queued before its member was paused once its turn comes, before it is sent', async () => {
    const { storage, gateway, images } = await setup({ concurrency: 1 });
    gateway.fails(new GatewayError('rejected by the safety system', { category: 'content_rejected' }));
    await failure(images.run(imagineJob(), new FakeResponder()));
    const held = deferred<ImageResult>();
    gateway.next(() => held.promise);
    const running = failure(images.run(imagineJob(), new FakeResponder()));
    await gateway.waitForCalls(2);
    const queued = failure(images.run(imagineJob(), new FakeResponder()));
    held.reject(new GatewayError('rejected by the safety system', { category: 'content_rejected' }));
    expect((await running).identifier).toBe('moderation.pausedNow');
    expect((await queued).identifier).toBe('moderation.paused');
    expect(gateway.calls).toHaveLength(2);
    expect(await storage.quotas.status(memberSubject())).toMatchObject({ used: 0, reserved: 0 });
  });

  it('refuses a paused member’s describe before the image is downloaded', async () => {
    const { storage, moderation } = await setup();
    const downloads: string[] = [];
    const describe = new DescribeService({
      help: { describe: () => Promise.reject(new Error('not reached')) },
      records: storage.records('described-prompts', DescribedPrompts),
      download: (ref) => {
        downloads.push(ref.filename);
        return Promise.reject(new Error('not reached'));
      },
      maxAttachmentBytes: 10_000,
      ttlMs: HOUR,
      moderation,
      logger: silentLogger,
    });
    const job = imagineJob();
    const refusal = new UserFacingError('gateway.contentRejected');
    await moderation.counted(refusal, job);
    await moderation.counted(refusal, job);
    const image = { url: 'https://cdn.discordapp.com/attachments/1/2/a.png', filename: 'a.png', size: 100 };
    const refused = await failure(describe.describe({ guildId: GUILD_ID, channelId: null, userId: MEMBER_ID }, image));
    expect(refused.identifier).toBe('moderation.paused');
    expect(downloads).toEqual([]);
  });
});
