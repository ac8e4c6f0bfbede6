/**
 * ImageService keeps its job's quota reservation alive from reserve until the job settles, on a real ledger
 * (memory://) and injected time: a job may wait in the queue far longer than one lease.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { UserFacingError } from '../../src/errors.js';
import { FairQueue } from '../../src/service/fair-queue.js';
import { ImageService } from '../../src/service/image-service.js';
import type { QuotaLedger } from '../../src/ports/quota-ledger.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';
import { deferred, FakeGateway } from '../fakes/fake-gateway.js';
import { FakeResponder } from '../fakes/fake-responder.js';
import { flatPng } from '../fakes/images.js';
import { imageResult, imagineJob, memberSubject } from '../fakes/jobs.js';
import { ManualClock } from '../fakes/manual-clock.js';
import { ManualTimers } from '../fakes/manual-timers.js';
import { LEVEL, memoryLogger } from '../fakes/memory-logger.js';

const LEASE_MS = 60_000;
const OTHER_MEMBER = '200000000000000002';
const opened: Storage[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

/** The real ledger, with renewals that fail while `failing` is above zero (one failure per call). */
class FlakyRenewals implements QuotaLedger {
  failing = 0;
  renewals = 0;
  readonly #ledger: QuotaLedger;

  constructor(ledger: QuotaLedger) {
    this.#ledger = ledger;
  }
  reserve: QuotaLedger['reserve'] = (...args) => this.#ledger.reserve(...args);
  commit: QuotaLedger['commit'] = (...args) => this.#ledger.commit(...args);
  refund: QuotaLedger['refund'] = (...args) => this.#ledger.refund(...args);
  status: QuotaLedger['status'] = (...args) => this.#ledger.status(...args);
  setLimit: QuotaLedger['setLimit'] = (...args) => this.#ledger.setLimit(...args);
  resetUsage: QuotaLedger['resetUsage'] = (...args) => this.#ledger.resetUsage(...args);
  renew: QuotaLedger['renew'] = async (jobId) => {
    this.renewals += 1;
    if (this.failing > 0) {
      this.failing -= 1;
      throw new Error('store unreachable');
    }
    await this.#ledger.renew(jobId);
  };
}

async function setup() {
  const clock = new ManualClock('2025-06-01T12:00:00Z');
  const timers = new ManualTimers(clock);
  const { logger, find } = memoryLogger();
  const storage = await openStorage({ url: 'memory://', defaults: { limit: 5, period: 'day' }, jobLeaseMs: LEASE_MS, logger, clock });
  opened.push(storage);
  const quotas = new FlakyRenewals(storage.quotas);
  const gateway = new FakeGateway();
  const service = new ImageService({
    gateway,
    logger,
    clock,
    holds: {
      quotas,
      jobLeaseMs: LEASE_MS,
      leaseTimers: timers,
    },
    produce: {
      // One job at a time: a second member's job waits in the queue for as long as the first one runs.
      queue: new FairQueue({ concurrency: 1 }),
      download: () => Promise.reject(new Error('these jobs have no attachments')),
    },
  });
  return { service, gateway, quotas, timers, find, status: () => storage.quotas.status(memberSubject()) };
}

/** Starts a job of another member that holds the only queue slot until `release` is called. */
async function occupyTheQueue(service: ImageService, gateway: FakeGateway) {
  const held = deferred<undefined>();
  const image = await flatPng();
  gateway.next(async () => {
    await held.promise;
    return imageResult([image]);
  });
  const running = service.run(imagineJob({}, OTHER_MEMBER), new FakeResponder());
  await gateway.waitForCalls(1);
  return { release: () => held.resolve(undefined), running };
}

describe('ImageService and the quota lease', () => {
  it('charges a job that waited 20 minutes in the queue exactly what it delivered, and holds its quota meanwhile', async () => {
    const { service, gateway, timers, status } = await setup();
    const blocker = await occupyTheQueue(service, gateway);
    const images = await Promise.all([flatPng(), flatPng(), flatPng(), flatPng()]);
    gateway.returns(imageResult(images));
    const responder = new FakeResponder();
    const waiting = service.run(imagineJob({ n: 4 }), responder);
    await responder.waitForProgress((p) => p.stage === 'queued');

    for (let minute = 1; minute <= 20; minute += 1) {
      await timers.advance(60_000);
      expect(await status()).toMatchObject({ used: 0, reserved: 4, remaining: 1 });
      if (minute % 5 === 0) {
        const again = await service.run(imagineJob({ n: 2 }), new FakeResponder()).catch((err: unknown) => err);
        expect(again).toBeInstanceOf(UserFacingError);
        expect(again).toMatchObject({ identifier: 'quota.exceeded' });
      }
    }
    blocker.release();
    await Promise.all([blocker.running, waiting]);

    expect(responder.deliveries).toHaveLength(1);
    expect(await status()).toMatchObject({ used: 4, reserved: 0, remaining: 1 });
    expect(timers.pending).toBe(0);
  });

  it('logs a failed renewal and retries it at the next tick, without failing the job', async () => {
    const { service, gateway, quotas, timers, find, status } = await setup();
    const blocker = await occupyTheQueue(service, gateway);
    gateway.returns(imageResult([await flatPng()]));
    const responder = new FakeResponder();
    const waiting = service.run(imagineJob({ n: 2 }), responder);
    await responder.waitForProgress((p) => p.stage === 'queued');
    quotas.failing = 2;

    // Two renewals (of both jobs) fail; the third tick renews both again before the lease lapses.
    await timers.advance(LEASE_MS - 1);
    expect(find('lease renewal failed; retrying at the next tick')).toEqual([
      expect.objectContaining({ level: LEVEL.warn }),
      expect.objectContaining({ level: LEVEL.warn }),
    ]);
    expect(await status()).toMatchObject({ reserved: 2 });
    await timers.advance(LEASE_MS * 2);
    expect(await status()).toMatchObject({ reserved: 2 });

    blocker.release();
    await Promise.all([blocker.running, waiting]);
    expect(await status()).toMatchObject({ used: 1, reserved: 0 });
    expect(quotas.renewals).toBe(2 * 8);
  });
});
