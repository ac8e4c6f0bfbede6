import { afterEach, describe, expect, it } from 'vitest';
import { UserFacingError } from '../../../src/errors.js';
import { FairQueue } from '../../../src/service/fair-queue.js';
import { ImageService } from '../../../src/service/image-service.js';
import type { JobOutcome } from '../../../src/core/job-outcome.js';
import type { SettledJob } from '../../../src/core/usage-totals.js';
import { DEFAULT_SETTINGS } from '../../../src/core/server-settings.js';
import { openStorage, type Storage } from '../../../src/storage/open-storage.js';
import { FakeGateway } from '../../fakes/fake-gateway.js';
import { FakeResponder } from '../../fakes/fake-responder.js';
import { flatPng } from '../../fakes/images.js';
import { imageResult, imagineJob, memberSubject } from '../../fakes/jobs.js';
import { ManualClock } from '../../fakes/manual-clock.js';
import { LEVEL, memoryLogger } from '../../fakes/memory-logger.js';

const opened: Storage[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

/** A service whose usage totals and audit channel fail, and whose metrics record how jobs ended. */
async function setup() {
  const clock = new ManualClock('2025-06-01T12:00:00Z');
  const { logger, find } = memoryLogger();
  const storage = await openStorage({ url: 'memory://', defaults: { limit: 1, period: 'day' }, jobLeaseMs: 600_000, logger, clock });
  opened.push(storage);
  const gateway = new FakeGateway();
  const outcomes: JobOutcome[] = [];
  const counted: SettledJob[] = [];
  const service = new ImageService({
    gateway,
    logger,
    clock,
    rules: { settings: { get: async () => ({ ...DEFAULT_SETTINGS, auditChannelId: '900' }) } },
    holds: { quotas: storage.quotas },
    produce: { queue: new FairQueue(), download: () => Promise.reject(new Error('no attachments')), partialImages: 0 },
    listeners: {
      totals: {
        add: async (_guildId, _day, job) => {
          counted.push(job);
          throw new Error('totals store down');
        },
      },
      audit: { job: () => Promise.reject(new Error('audit channel gone')) },
      metrics: { jobSettled: (outcome) => outcomes.push(outcome) },
    },
  });
  return { service, gateway, storage, find, outcomes, counted };
}

describe('the listeners of a settled job', () => {
  it('are each told once, and their failures are logged without changing what the member gets', async () => {
    const { service, gateway, storage, find, outcomes, counted } = await setup();
    gateway.returns(imageResult([await flatPng()]));
    const responder = new FakeResponder();
    await service.run(imagineJob(), responder);
    expect(responder.deliveries).toHaveLength(1);
    expect(await storage.quotas.status(memberSubject())).toMatchObject({ used: 1, reserved: 0 });
    expect(counted).toEqual([expect.objectContaining({ outcome: 'delivered', delivered: 1, reachedGateway: true })]);
    expect(find('could not count the job in the usage totals')).toEqual([expect.objectContaining({ level: LEVEL.warn })]);
    expect(find('could not tell the audit channel of the job')).toEqual([expect.objectContaining({ level: LEVEL.warn })]);

    // A refused job settles too: the member reads the refusal, not the listeners' failures.
    const refused = await service.run(imagineJob(), new FakeResponder()).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(UserFacingError);
    expect((refused as UserFacingError).identifier).toBe('quota.exceeded');
    expect(outcomes).toEqual(['delivered', 'refused']);
    expect(counted.map((job) => [job.outcome, job.reason])).toEqual([
      ['delivered', undefined],
      ['refused', 'quota.exceeded'],
    ]);
    expect(find('could not count the job in the usage totals')).toHaveLength(2);
  });
});
