import { afterEach, describe, expect, it } from 'vitest';
import { UserFacingError } from '../../src/errors.js';
import { FairQueue } from '../../src/service/fair-queue.js';
import { GatewayError } from '../../src/gateway/errors.js';
import { ImageService } from '../../src/service/image-service.js';
import { MemoryBudget } from '../../src/service/memory-budget.js';
import { StreamedDelivery } from '../../src/service/streaming/streamed-delivery.js';
import type { Delivery } from '../../src/core/jobs.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';
import { deferred, FakeGateway } from '../fakes/fake-gateway.js';
import { FakeResponder } from '../fakes/fake-responder.js';
import { flatPng } from '../fakes/images.js';
import { imageResult, imagineJob } from '../fakes/jobs.js';
import { memoryLogger } from '../fakes/memory-logger.js';

const opened: Storage[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

/** A responder whose deliveries finish only when the test says so. */
class GatedResponder extends FakeResponder {
  readonly started = deferred<undefined>();
  readonly finish = deferred<undefined>();
  override async deliver(delivery: Delivery): Promise<{ messageIds: string[] }> {
    this.started.resolve(undefined);
    await this.finish.promise;
    return super.deliver(delivery);
  }
}

describe('ImageService memory budget for answers', () => {
  it('reads a gateway answer only when it has room in the memory budget, however many gateway calls run', async () => {
    const { logger } = memoryLogger();
    const storage = await openStorage({ url: 'memory://', defaults: { limit: 10, period: 'day' }, jobLeaseMs: 600_000, logger });
    opened.push(storage);
    const gateway = new FakeGateway();
    const image = await flatPng(16, 16);
    const bodyReadAt: string[] = [];
    for (const name of ['first', 'second']) {
      gateway.next(async (_request, options) => {
        await options.admit(800);
        bodyReadAt.push(name);
        return imageResult([image]);
      });
    }
    const service = new ImageService({
      gateway,
      logger,
      holds: {
        quotas: storage.quotas,
      },
      produce: {
        queue: new FairQueue({ concurrency: 4, perMemberRunning: 4 }),
        download: async () => Buffer.alloc(0),
        streaming: new StreamedDelivery(),
        memory: new MemoryBudget({ totalBytes: 1_000, answerBytes: 900 }),
      },
    });
    const slow = new GatedResponder();
    const fast = new FakeResponder();
    const first = service.run(imagineJob({ prompt: 'one' }), slow);
    await slow.started.promise;
    const second = service.run(imagineJob({ prompt: 'two' }), fast);
    await gateway.waitForCalls(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(bodyReadAt).toEqual(['first']);
    slow.finish.resolve(undefined);
    await Promise.all([first, second]);
    expect(bodyReadAt).toEqual(['first', 'second']);
    expect(fast.deliveries).toHaveLength(1);
  });
});

describe('ImageService progress', () => {
  it('posts no progress edit for a job that finishes within one interval, and a live "generating" one for a slower job', async () => {
    const { logger } = memoryLogger();
    const storage = await openStorage({ url: 'memory://', defaults: { limit: 10, period: 'day' }, jobLeaseMs: 600_000, logger });
    opened.push(storage);
    const gateway = new FakeGateway();
    const image = await flatPng(16, 16);
    const slow = deferred<undefined>();
    gateway.returns(imageResult([image]));
    gateway.next(async () => {
      await slow.promise;
      return imageResult([image]);
    });
    const service = new ImageService({
      gateway,
      logger,
      holds: {
        quotas: storage.quotas,
      },
      produce: {
        queue: new FairQueue(),
        download: async () => Buffer.alloc(0),
        progressIntervalMs: 60_000,
      },
    });
    const quick = new FakeResponder();
    await service.run(imagineJob({ prompt: 'quick' }), quick);
    expect(quick.progressUpdates).toEqual([]);

    const patient = new FakeResponder();
    const fastTicks = new ImageService({
      gateway,
      logger,
      holds: {
        quotas: storage.quotas,
      },
      produce: {
        queue: new FairQueue(),
        download: async () => Buffer.alloc(0),
        progressIntervalMs: 5,
      },
    });
    const running = fastTicks.run(imagineJob({ prompt: 'slow' }), patient);
    const update = await patient.waitForProgress((p) => p.stage === 'generating');
    expect(update).toMatchObject({ stage: 'generating' });
    slow.resolve(undefined);
    await running;
    expect(patient.deliveries).toHaveLength(1);
  });
});

describe('ImageService answer buffers', () => {
  /** A service over memory storage whose gateway decodes each answer into the Buffer the service supplies. */
  async function serviceTakingBuffers() {
    const { logger } = memoryLogger();
    const storage = await openStorage({ url: 'memory://', defaults: { limit: 10, period: 'day' }, jobLeaseMs: 600_000, logger });
    opened.push(storage);
    const gateway = new FakeGateway();
    const image = await flatPng(16, 16);
    const service = new ImageService({
      gateway,
      logger,
      holds: {
        quotas: storage.quotas,
      },
      produce: {
        queue: new FairQueue({ concurrency: 4, perMemberRunning: 4 }),
        download: async () => Buffer.alloc(0),
        streaming: new StreamedDelivery(),
      },
    });
    const taken: ArrayBufferLike[] = [];
    /** The next call takes `count` answer Buffers (as retries would), then answers or fails. */
    const nextCall = (count: number, failure?: Error) =>
      gateway.next(async (_request, options) => {
        for (let i = 0; i < count; i += 1) taken.push((await options.buffer(1_000))?.buffer ?? new ArrayBuffer(0));
        if (failure) throw failure;
        return imageResult([image]);
      });
    return { service, taken, nextCall };
  }

  it("hands a job's Buffer to another job only once the first job is over, then reuses it", async () => {
    const { service, taken, nextCall } = await serviceTakingBuffers();
    nextCall(1);
    const slow = new GatedResponder();
    const first = service.run(imagineJob({ prompt: 'one' }), slow);
    await slow.started.promise;
    nextCall(1);
    await service.run(imagineJob({ prompt: 'two' }), new FakeResponder());
    // The first job is still delivering its images: its Buffer must not be decoded into again.
    expect(taken[1]).not.toBe(taken[0]);
    slow.finish.resolve(undefined);
    await first;
    nextCall(2);
    await service.run(imagineJob({ prompt: 'three' }), new FakeResponder());
    // Both earlier Buffers (the same memory, not equal copies) are decoded into again.
    expect(
      taken
        .slice(2)
        .map((buffer) => taken.indexOf(buffer))
        .sort(),
    ).toEqual([0, 1]);
  });

  it('gets the Buffer back from a job whose gateway call failed after taking it', async () => {
    const { service, taken, nextCall } = await serviceTakingBuffers();
    nextCall(1, new GatewayError('the answer broke off', { category: 'gateway_failure' }));
    await expect(service.run(imagineJob({ prompt: 'one' }), new FakeResponder())).rejects.toBeInstanceOf(UserFacingError);
    nextCall(1);
    await service.run(imagineJob({ prompt: 'two' }), new FakeResponder());
    expect(taken[1]).toBe(taken[0]);
  });
});
