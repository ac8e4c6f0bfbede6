/**
 * ImageService records what each job that reached the gateway cost: delivered, or made and not posted (the member
 * is not charged, the operator was); a job refused before the gateway leaves nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FairQueue } from '../../src/service/fair-queue.js';
import { ImageService } from '../../src/service/image-service.js';
import { JobUsage, UsageLog } from '../../src/service/usage-log.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';
import { FakeGateway } from '../fakes/fake-gateway.js';
import { FakeResponder } from '../fakes/fake-responder.js';
import { flatPng } from '../fakes/images.js';
import { imageResult, imagineJob } from '../fakes/jobs.js';
import { silentLogger } from '../fakes/memory-logger.js';

const opened: Storage[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function setup(limit = 5) {
  const storage = await openStorage({ url: 'memory://', defaults: { limit, period: 'day' }, jobLeaseMs: 60_000, logger: silentLogger });
  opened.push(storage);
  const gateway = new FakeGateway();
  const log = new UsageLog(storage.records('job-usage', JobUsage));
  const clock = { now: () => 1_800_000_000_000 };
  const service = new ImageService({
    gateway,
    logger: silentLogger,
    clock,
    holds: {
      quotas: storage.quotas,
    },
    produce: {
      queue: new FairQueue(),
      download: async () => Buffer.alloc(0),
      partialImages: 0,
    },
    listeners: {
      usage: log,
    },
  });
  return { gateway, service, log };
}

describe('ImageService usage records', () => {
  it('records a delivered job with its usage and request id', async () => {
    const { gateway, service, log } = await setup();
    const image = await flatPng();
    gateway.returns(imageResult([image, image], { usage: { inputTokens: 5, outputTokens: 544, costUsd: 0.04 }, requestId: 'req-1' }));
    const job = imagineJob({ prompt: 'two', n: 2, quality: 'low', size: { width: 1024, height: 1024 } });
    await service.run(job, new FakeResponder());
    expect(await log.get(job.id)).toMatchObject({
      kind: 'imagine',
      requested: 2,
      delivered: 2,
      quality: 'low',
      size: '1024x1024',
      usage: { inputTokens: 5, outputTokens: 544, costUsd: 0.04 },
      requestId: 'req-1',
      settledAt: 1_800_000_000_000,
    });
  });

  it('records images that were made but could not be posted as delivered 0', async () => {
    const { gateway, service, log } = await setup();
    gateway.returns(imageResult([await flatPng()], { usage: { outputTokens: 272 } }));
    const responder = new FakeResponder();
    responder.deliverError = new Error('Discord is down');
    const job = imagineJob({ prompt: 'lost' });
    await expect(service.run(job, responder)).rejects.toThrow();
    expect(await log.get(job.id)).toMatchObject({ delivered: 0, requested: 1, usage: { outputTokens: 272 } });
  });

  it('records nothing for a job refused before the gateway', async () => {
    const { service, log } = await setup(0);
    const job = imagineJob({ prompt: 'blocked' });
    await expect(service.run(job, new FakeResponder())).rejects.toThrow();
    expect(await log.get(job.id)).toBeUndefined();
  });
});
