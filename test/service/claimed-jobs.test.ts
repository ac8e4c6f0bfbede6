/**
 * A process whose jobs another process claimed (it looked dead while the store was out of reach) stops them where they
 * are (issue 29): the gateway call is cut, nothing is delivered, the quota is not charged, and the job ends with
 * JobClaimedError, which the error boundary answers with nothing (the claimer told the member already).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ClaimedJobs, JobClaimedError } from '../../src/service/claimed-jobs.js';
import { FairQueue } from '../../src/service/fair-queue.js';
import { ImageService } from '../../src/service/image-service.js';
import type { ImageResult } from '../../src/core/images.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';
import { deferred, FakeGateway } from '../fakes/fake-gateway.js';
import { FakeResponder } from '../fakes/fake-responder.js';
import { flatPng } from '../fakes/images.js';
import { imageResult, imagineJob, memberSubject } from '../fakes/jobs.js';
import { memoryLogger } from '../fakes/memory-logger.js';

const opened: Storage[] = [];
afterEach(async () => {
  for (const storage of opened.splice(0)) await storage.close();
});

async function setup() {
  const storage = await openStorage({ url: 'memory://', defaults: { limit: 5, period: 'day' }, jobLeaseMs: 600_000, logger: memoryLogger().logger });
  opened.push(storage);
  const claims = new ClaimedJobs();
  const gateway = new FakeGateway();
  const service = new ImageService({
    gateway,
    claims,
    logger: memoryLogger().logger,
    holds: {
      quotas: storage.quotas,
    },
    produce: {
      queue: new FairQueue(),
      download: () => Promise.reject(new Error('none')),
    },
  });
  return { storage, claims, gateway, service };
}

describe('a job another process claimed', () => {
  it('is cut during its gateway call: not delivered, not charged, ended with JobClaimedError', async () => {
    const { storage, claims, gateway, service } = await setup();
    const aborted = deferred<undefined>();
    gateway.next(
      (_request, options) =>
        new Promise<ImageResult>((_resolve, reject) => {
          options.signal.addEventListener('abort', () => {
            aborted.resolve(undefined);
            reject(new Error('aborted'));
          });
        }),
    );
    const job = imagineJob();
    const responder = new FakeResponder();
    const running = service.run(job, responder);
    await gateway.waitForCalls(1);
    expect(claims.stop([job.id, 'not-running'])).toBe(1);
    await aborted.promise;
    await expect(running).rejects.toBeInstanceOf(JobClaimedError);
    expect(responder.deliveries).toEqual([]);
    expect(await storage.quotas.status(memberSubject())).toMatchObject({ used: 0, reserved: 0 });
  });

  it('is not delivered when the claim lands after the answer', async () => {
    const { storage, claims, gateway, service } = await setup();
    const job = imagineJob();
    const png = await flatPng(1024, 1024);
    gateway.next(async () => {
      claims.stop([job.id]);
      return imageResult([png]);
    });
    const responder = new FakeResponder();
    await expect(service.run(job, responder)).rejects.toBeInstanceOf(JobClaimedError);
    expect(responder.deliveries).toEqual([]);
    expect(await storage.quotas.status(memberSubject())).toMatchObject({ used: 0, reserved: 0 });
  });

  it('leaves other jobs alone, and forgets settled ones', async () => {
    const { claims, gateway, service } = await setup();
    gateway.returns(imageResult([await flatPng(1024, 1024)]));
    const job = imagineJob();
    const responder = new FakeResponder();
    await service.run(job, responder);
    expect(responder.deliveries).toHaveLength(1);
    expect(claims.stop([job.id])).toBe(0);
    expect(claims.claimed(job.id)).toBe(false);
  });
});
