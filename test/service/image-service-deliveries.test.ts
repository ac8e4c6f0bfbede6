import { afterEach, describe, expect, it } from 'vitest';
import { FairQueue } from '../../src/service/fair-queue.js';
import { ImageService } from '../../src/service/image-service.js';
import type { Delivery } from '../../src/service/jobs.js';
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
  readonly started = deferred<void>();
  readonly finish = deferred<void>();
  override async deliver(delivery: Delivery): Promise<{ messageIds: string[] }> {
    this.started.resolve();
    await this.finish.promise;
    return super.deliver(delivery);
  }
}

describe('ImageService delivery slots', () => {
  it('reads a gateway answer only when a delivery slot is free, however many gateway calls run', async () => {
    const { logger } = memoryLogger();
    const storage = await openStorage({ url: 'memory://', defaults: { limit: 10, period: 'day' }, reservationTtlMs: 600_000, logger });
    opened.push(storage);
    const gateway = new FakeGateway();
    const image = await flatPng(16, 16);
    const bodyReadAt: string[] = [];
    for (const name of ['first', 'second']) {
      gateway.next(async (_request, options) => {
        await options.beforeBody?.({ contentLength: 800 });
        bodyReadAt.push(name);
        return imageResult([image]);
      });
    }
    const service = new ImageService({
      gateway,
      quotas: storage.quotas,
      queue: new FairQueue({ concurrency: 4, perMemberRunning: 4 }),
      download: async () => Buffer.alloc(0),
      logger,
      deliveryBudgetBytes: 1_000,
    });
    const slow = new GatedResponder();
    const fast = new FakeResponder();
    const first = service.run(imagineJob({ prompt: 'one' }), slow);
    await slow.started.promise;
    const second = service.run(imagineJob({ prompt: 'two' }), fast);
    await gateway.waitForCalls(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(bodyReadAt).toEqual(['first']);
    slow.finish.resolve();
    await Promise.all([first, second]);
    expect(bodyReadAt).toEqual(['first', 'second']);
    expect(fast.deliveries).toHaveLength(1);
  });
});

describe('ImageService progress', () => {
  it('posts no progress edit for a job that finishes within one interval, and a live "generating" one for a slower job', async () => {
    const { logger } = memoryLogger();
    const storage = await openStorage({ url: 'memory://', defaults: { limit: 10, period: 'day' }, reservationTtlMs: 600_000, logger });
    opened.push(storage);
    const gateway = new FakeGateway();
    const image = await flatPng(16, 16);
    const slow = deferred<void>();
    gateway.returns(imageResult([image]));
    gateway.next(async () => {
      await slow.promise;
      return imageResult([image]);
    });
    const service = new ImageService({
      gateway,
      quotas: storage.quotas,
      queue: new FairQueue(),
      download: async () => Buffer.alloc(0),
      logger,
      progressIntervalMs: 60_000,
    });
    const quick = new FakeResponder();
    await service.run(imagineJob({ prompt: 'quick' }), quick);
    expect(quick.progressUpdates).toEqual([]);

    const patient = new FakeResponder();
    const fastTicks = new ImageService({ gateway, quotas: storage.quotas, queue: new FairQueue(), download: async () => Buffer.alloc(0), logger, progressIntervalMs: 5 });
    const running = fastTicks.run(imagineJob({ prompt: 'slow' }), patient);
    const update = await patient.waitForProgress((p) => p.stage === 'generating');
    expect(update).toMatchObject({ stage: 'generating' });
    slow.resolve();
    await running;
    expect(patient.deliveries).toHaveLength(1);
  });
});
