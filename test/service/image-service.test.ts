import { afterEach, describe, expect, it } from 'vitest';
import { UserFacingError, type UserErrorIdentifier } from '../../src/errors.js';
import { FairQueue, QueueCancelledError, type FairQueueOptions } from '../../src/service/fair-queue.js';
import { GatewayError, GatewayHttpError, type GatewayErrorCategory } from '../../src/gateway/errors.js';
import { ImageService } from '../../src/service/image-service.js';
import type { ImageJob } from '../../src/core/jobs.js';
import type { QuotaStatus } from '../../src/core/quota.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';
import { deferred, FakeGateway } from '../fakes/fake-gateway.js';
import { FakeResponder } from '../fakes/fake-responder.js';
import { flatPng, noisyPng } from '../fakes/images.js';
import { imageResult, imagineJob, memberSubject, GUILD_ID, MEMBER_ID } from '../fakes/jobs.js';
import { ManualClock } from '../fakes/manual-clock.js';
import { LEVEL, memoryLogger } from '../fakes/memory-logger.js';

const opened: Storage[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

/** Records what the service asks the archive to remember. */
class FakeArchive {
  readonly remembered: { jobId: string; messageIds: string[] }[] = [];
  failWith: Error | undefined;

  async remember(job: ImageJob, messageIds: string[]): Promise<void> {
    if (this.failWith) throw this.failWith;
    this.remembered.push({ jobId: job.id, messageIds });
  }
}

interface SetupOptions {
  queue?: FairQueueOptions;
  perMemberQueued?: number;
  progressIntervalMs?: number;
}

async function setup(options: SetupOptions = {}) {
  const clock = new ManualClock('2025-06-01T12:00:00Z');
  const { logger, find } = memoryLogger();
  const storage = await openStorage({ url: 'memory://', defaults: { limit: 5, period: 'day' }, jobLeaseMs: 600_000, logger, clock });
  opened.push(storage);
  const gateway = new FakeGateway();
  const queue = new FairQueue(options.queue);
  const archive = new FakeArchive();
  const service = new ImageService({
    gateway,
    logger,
    clock,
    holds: {
      quotas: storage.quotas,
    },
    produce: {
      queue,
      download: async () => {
        throw new Error('these jobs have no attachments');
      },
      perMemberQueued: options.perMemberQueued,
      progressIntervalMs: options.progressIntervalMs,
    },
    listeners: {
      archive,
    },
  });
  const quota = (userId = MEMBER_ID): Promise<QuotaStatus> => storage.quotas.status(memberSubject(userId));
  return { service, gateway, queue, archive, storage, clock, find, quota };
}

/** Runs the job and returns the UserFacingError it failed with. */
async function failure(run: Promise<void>): Promise<UserFacingError> {
  const error = await run.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (error instanceof UserFacingError) return error;
  throw new Error(`expected a UserFacingError, got ${String(error)}`);
}

describe('ImageService.run', () => {
  it('delivers the images and commits exactly the delivered count', async () => {
    const { service, gateway, quota } = await setup();
    const images = await Promise.all([flatPng(1536, 1024), flatPng(1536, 1024), flatPng(1536, 1024)]);
    gateway.returns(imageResult(images));
    const responder = new FakeResponder();

    await service.run(imagineJob({ n: 3, size: { width: 1536, height: 1024 } }), responder);

    expect(await quota()).toMatchObject({ used: 3, reserved: 0, remaining: 2 });
    expect(responder.deliveries).toHaveLength(1);
    expect(responder.deliveries[0]?.files.map((f) => f.bytes)).toEqual(images.map((i) => i.bytes));
    expect(responder.deliveries[0]?.notices).toEqual([]);
    expect(gateway.calls).toEqual([
      expect.objectContaining({ kind: 'generate', request: expect.objectContaining({ n: 3, size: { width: 1536, height: 1024 } }) as unknown }),
    ]);
  });

  it('charges only what the gateway returned when it made fewer images than asked, and says so on the result', async () => {
    const { service, gateway, quota } = await setup();
    gateway.returns(imageResult([await flatPng()]));
    const responder = new FakeResponder();
    await service.run(imagineJob({ n: 4 }), responder);
    expect(await quota()).toMatchObject({ used: 1, reserved: 0 });
    expect(responder.deliveries[0]?.notices).toEqual([{ kind: 'fewer', requested: 4, received: 1, charged: 1 }]);
  });

  it('remembers the delivered job with its message ids for the buttons', async () => {
    const { service, gateway, archive } = await setup();
    gateway.returns(imageResult([await flatPng()]));
    const job = imagineJob();
    await service.run(job, new FakeResponder());
    expect(archive.remembered).toEqual([{ jobId: job.id, messageIds: ['500000000000000001'] }]);
  });

  it('still succeeds, and logs a warning, when the archive cannot store the job', async () => {
    const { service, gateway, archive, quota, find } = await setup();
    archive.failWith = new Error('disk full');
    gateway.returns(imageResult([await flatPng()]));
    await service.run(imagineJob(), new FakeResponder());
    expect(await quota()).toMatchObject({ used: 1 });
    expect(find('could not store job for its buttons')).toEqual([expect.objectContaining({ level: LEVEL.warn })]);
  });

  it.each<[GatewayErrorCategory, UserErrorIdentifier]>([
    ['invalid_key', 'gateway.unavailable'],
    ['balance_exhausted', 'gateway.unavailable'],
    ['unknown_model', 'gateway.unknownModel'],
    ['bad_parameter', 'gateway.badParameter'],
    ['content_rejected', 'gateway.contentRejected'],
    ['busy', 'gateway.busy'],
    ['timed_out', 'gateway.timedOut'],
    ['gateway_failure', 'gateway.failure'],
    ['endpoint_missing', 'gateway.endpointMissing'],
    ['cancelled', 'job.cancelled'],
  ])('refunds fully when the gateway fails with %s, and answers %s', async (category, identifier) => {
    const { service, gateway, quota } = await setup();
    const cause = new GatewayError(`gateway said ${category}`, { category });
    gateway.fails(cause);
    const responder = new FakeResponder();

    const error = await failure(service.run(imagineJob({ n: 2 }), responder));

    expect(error.identifier).toBe(identifier);
    expect(error.cause).toBe(cause);
    expect(await quota()).toMatchObject({ used: 0, reserved: 0, remaining: 5 });
    expect(responder.deliveries).toEqual([]);
  });

  it('names the models on offer when the model is unknown', async () => {
    const { service, gateway } = await setup();
    gateway.fails(GatewayHttpError.fromResponse(404, JSON.stringify({ error: { message: 'The model `nope` does not exist', code: 'model_not_found' } }), {}));
    const error = await failure(service.run(imagineJob({ model: 'nope' }), new FakeResponder()));
    expect(error.identifier).toBe('gateway.unknownModel');
    expect(error.context.models).toEqual(['gpt-image-1', 'dall-e-3']);
  });

  it('names the parameter the gateway refused', async () => {
    const { service, gateway } = await setup();
    gateway.fails(new GatewayError('bad quality', { category: 'bad_parameter', param: 'quality' }));
    const error = await failure(service.run(imagineJob({ quality: 'high' }), new FakeResponder()));
    expect(error).toMatchObject({ identifier: 'gateway.badParameter', context: { param: 'quality' } });
  });

  it('refunds when the images cannot be delivered, and rethrows the delivery error', async () => {
    const { service, gateway, archive, quota } = await setup();
    gateway.returns(imageResult([await flatPng(), await flatPng()]));
    const deliveryError = new Error('Missing Access');

    await expect(service.run(imagineJob({ n: 2 }), new FakeResponder({ deliverError: deliveryError }))).rejects.toBe(deliveryError);

    expect(await quota()).toMatchObject({ used: 0, reserved: 0 });
    expect(archive.remembered).toEqual([]);
  });

  it('refuses a job over the quota with when it resets, without calling the gateway', async () => {
    const { service, gateway, quota } = await setup();
    gateway.returns(imageResult(await Promise.all([1, 2, 3, 4].map(() => flatPng()))));
    await service.run(imagineJob({ n: 4 }), new FakeResponder());

    const error = await failure(service.run(imagineJob({ n: 2 }), new FakeResponder()));

    const after = await quota();
    expect(error.identifier).toBe('quota.exceeded');
    expect(error.context).toEqual({ limit: 5, remaining: 1, requested: 2, resetsAt: after.resetsAt });
    expect(after.resetsAt).toBe(Date.parse('2025-06-02T00:00:00Z'));
    expect(after).toMatchObject({ used: 4, reserved: 0 });
    expect(gateway.calls).toHaveLength(1);
  });

  it('tells a member with limit 0 that generation is blocked, without calling the gateway', async () => {
    const { service, gateway, storage } = await setup();
    await storage.quotas.setLimit({ kind: 'server', guildId: GUILD_ID }, { limit: 0, period: 'day' });

    const error = await failure(service.run(imagineJob(), new FakeResponder()));

    expect(error.identifier).toBe('quota.blocked');
    expect(gateway.calls).toEqual([]);
  });

  it.each([
    ['size 999x999', { size: { width: 999, height: 999 } }, 'size'],
    ['compression with png', { outputFormat: 'png' as const, outputCompression: 50 }, 'outputCompression'],
    ['transparent jpeg', { background: 'transparent' as const, outputFormat: 'jpeg' as const }, 'background'],
    ['a blank prompt', { prompt: '   ' }, 'prompt'],
  ])('refuses %s as input.invalid before reserving or calling the gateway', async (_name, request, param) => {
    const { service, gateway, quota } = await setup();

    const error = await failure(service.run(imagineJob(request), new FakeResponder()));

    expect(error.identifier).toBe('input.invalid');
    expect(error.context.param).toBe(param);
    expect(await quota()).toMatchObject({ used: 0, reserved: 0 });
    expect(gateway.calls).toEqual([]);
  });

  it('does not charge an image too large to post, and says so', async () => {
    const { service, gateway, quota } = await setup();
    const small = await flatPng();
    const noisy = await noisyPng();
    const limit = 1024;
    expect(small.bytes.length).toBeLessThanOrEqual(limit);
    gateway.returns(imageResult([small, noisy]));
    const responder = new FakeResponder({ maxFileBytes: limit });

    await service.run(imagineJob({ n: 2 }), responder);

    expect(await quota()).toMatchObject({ used: 1, reserved: 0 });
    expect(responder.deliveries[0]?.files).toHaveLength(1);
    expect(responder.deliveries[0]?.notices).toEqual([{ kind: 'dropped', count: 1 }]);
  });

  it('refunds and answers delivery.failed when no image can be posted', async () => {
    const { service, gateway, quota } = await setup();
    gateway.returns(imageResult([await noisyPng()]));
    const error = await failure(service.run(imagineJob(), new FakeResponder({ maxFileBytes: 1024 })));
    expect(error.identifier).toBe('delivery.failed');
    expect(await quota()).toMatchObject({ used: 0, reserved: 0 });
  });

  it('passes a streamed partial image to the responder as a preview', async () => {
    const { service, gateway } = await setup({ progressIntervalMs: 1 });
    const responder = new FakeResponder();
    const partial = { index: 0, bytes: (await flatPng()).bytes, format: 'png' as const };
    const final = await flatPng();
    gateway.next(async (_request, options) => {
      options.partial(partial);
      await responder.waitForProgress((p) => p.stage === 'generating' && p.preview !== undefined);
      return imageResult([final]);
    });

    await service.run(imagineJob(), responder);

    expect(gateway.calls[0]?.options).toMatchObject({ stream: true, partialImages: 1 });
    expect(responder.progressUpdates).toContainEqual(expect.objectContaining({ stage: 'generating', preview: partial }));
    expect(responder.deliveries).toHaveLength(1);
  });

  it('shows a task the gateway queued as queued at the gateway, then as generating', async () => {
    const { service, gateway } = await setup({ progressIntervalMs: 1 });
    const responder = new FakeResponder();
    const final = await flatPng();
    gateway.next(async (_request, options) => {
      options.taskStatus('queued');
      await responder.waitForProgress((p) => p.stage === 'gatewayQueued');
      options.taskStatus('generating');
      await responder.waitForProgress((p) => p.stage === 'generating');
      return imageResult([final]);
    });

    await service.run(imagineJob(), responder);

    const stages = responder.progressUpdates.map((p) => p.stage);
    expect(stages.indexOf('gatewayQueued')).toBeLessThan(stages.lastIndexOf('generating'));
    expect(responder.deliveries).toHaveLength(1);
  });

  it('refuses a job past the per-member waiting cap with queue.full, refunding only that job', async () => {
    const { service, gateway, quota } = await setup({ queue: { concurrency: 1, perMemberRunning: 1, perMemberQueued: 1 }, perMemberQueued: 1 });
    const first = deferred<undefined>();
    const image = await flatPng();
    gateway.next(async () => {
      await first.promise;
      return imageResult([image]);
    });
    gateway.returns(imageResult([image]));
    const running = service.run(imagineJob(), new FakeResponder());
    await gateway.waitForCalls(1);
    const waitingResponder = new FakeResponder();
    const waiting = service.run(imagineJob(), waitingResponder);
    await waitingResponder.waitForProgress((p) => p.stage === 'queued');

    const error = await failure(service.run(imagineJob(), new FakeResponder()));

    expect(error).toMatchObject({ identifier: 'queue.full', context: { limit: 1 } });
    expect(await quota()).toMatchObject({ used: 0, reserved: 2 });
    first.resolve(undefined);
    await Promise.all([running, waiting]);
    expect(await quota()).toMatchObject({ used: 2, reserved: 0 });
  });

  it('answers job.cancelled and refunds when the queue has been closed', async () => {
    const { service, queue, quota, gateway } = await setup();
    await queue.close();
    const error = await failure(service.run(imagineJob(), new FakeResponder()));
    expect(error.identifier).toBe('job.cancelled');
    expect(await quota()).toMatchObject({ used: 0, reserved: 0 });
    expect(gateway.calls).toEqual([]);
  });

  it('calls the gateway without waiting for the acknowledgement, and cancels and refunds when it fails', async () => {
    const { service, gateway, quota } = await setup();
    const acknowledgement = deferred<undefined>();
    let abortedWith: unknown;
    gateway.next(
      (_request, options) =>
        new Promise((_resolve, reject) =>
          options.signal.addEventListener('abort', () => {
            abortedWith = options.signal.reason;
            reject(options.signal.reason as Error);
          }),
        ),
    );
    const responder = new FakeResponder({ ready: acknowledgement.promise });
    const running = failure(service.run(imagineJob(), responder));
    await gateway.waitForCalls(1);
    expect(await quota()).toMatchObject({ used: 0, reserved: 1 });

    acknowledgement.reject(new Error('Unknown interaction'));
    const error = await running;

    expect(error.identifier).toBe('job.unacknowledged');
    expect(abortedWith).toBeInstanceOf(QueueCancelledError);
    expect(responder.deliveries).toEqual([]);
    expect(await quota()).toMatchObject({ used: 0, reserved: 0 });
  });

  it('answers storage.unavailable, without calling the gateway, when the ledger cannot be reached', async () => {
    const { service, storage, gateway } = await setup();
    await storage.close();
    const error = await failure(service.run(imagineJob(), new FakeResponder()));
    expect(error.identifier).toBe('storage.unavailable');
    expect(gateway.calls).toEqual([]);
  });
});
