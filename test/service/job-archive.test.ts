import { afterEach, describe, expect, it } from 'vitest';
import { ArchivedJob, JobArchive, PENDING_EDIT_TTL_MS, PendingEdit } from '../../src/service/job-archive.js';
import type { AttachmentRef, ImageJob } from '../../src/service/jobs.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';
import { imagineJob } from '../fakes/jobs.js';
import { ManualClock } from '../fakes/manual-clock.js';
import { silentLogger } from '../fakes/memory-logger.js';

const JOB_TTL_MS = 7 * 24 * 60 * 60_000;
const opened: Storage[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function setup() {
  const clock = new ManualClock('2025-06-04T12:00:00Z');
  const storage = await openStorage({ url: 'memory://', defaults: { limit: 5, period: 'day' }, reservationTtlMs: 600_000, logger: silentLogger, clock });
  opened.push(storage);
  const archive = new JobArchive({
    jobs: storage.records('job', ArchivedJob),
    pendingEdits: storage.records('pending-edit', PendingEdit),
    jobTtlMs: JOB_TTL_MS,
  });
  return { archive, clock };
}

const image: AttachmentRef = { url: 'https://cdn.discordapp.com/attachments/1/2/cat.png?ex=1', filename: 'cat.png', size: 1234, contentType: 'image/png' };

describe('JobArchive', () => {
  it('recalls a remembered imagine job with its request, origin and message ids', async () => {
    const { archive } = await setup();
    const job = imagineJob({ n: 2, size: '1536x1024', quality: 'high', outputFormat: 'webp', outputCompression: 70 });

    await archive.remember(job, ['500000000000000001', '500000000000000002']);

    expect(await archive.recall(job.id)).toEqual({
      v: 1,
      kind: 'imagine',
      requesterId: job.origin.requesterId,
      guildId: job.origin.guildId,
      channelId: job.origin.channelId,
      request: job.request,
      messageIds: ['500000000000000001', '500000000000000002'],
    });
  });

  it('recalls an edit job with its reference images and mask', async () => {
    const { archive } = await setup();
    const job: ImageJob = { ...imagineJob(), kind: 'edit', edit: { images: [image], mask: { ...image, filename: 'mask.png' }, inputFidelity: 'high' } };
    await archive.remember(job, ['500000000000000003']);
    expect(await archive.recall(job.id)).toMatchObject({ kind: 'edit', edit: job.edit });
  });

  it('recalls a job from a direct message, where there is no server', async () => {
    const { archive } = await setup();
    const job: ImageJob = { ...imagineJob(), origin: { guildId: null, channelId: null, requesterId: '200000000000000001' } };
    await archive.remember(job, []);
    expect(await archive.recall(job.id)).toMatchObject({ guildId: null, channelId: null });
  });

  it('finds nothing for an unknown job, or one whose buttons have expired', async () => {
    const { archive, clock } = await setup();
    const job = imagineJob();
    await archive.remember(job, []);
    expect(await archive.recall('unknown')).toBeUndefined();
    clock.advance(JOB_TTL_MS);
    expect(await archive.recall(job.id)).toBeUndefined();
  });

  it('hands back parked edit attachments once', async () => {
    const { archive } = await setup();
    const id = await archive.stashEdit([image], 2);

    expect(id.length).toBeLessThanOrEqual(20);
    expect(await archive.takeEdit(id)).toEqual({ v: 1, images: [image], skipped: 2 });
    expect(await archive.takeEdit(id)).toBeUndefined();
  });

  it('forgets parked attachments after the modal window', async () => {
    const { archive, clock } = await setup();
    const id = await archive.stashEdit([image], 0);
    clock.advance(PENDING_EDIT_TTL_MS);
    expect(await archive.takeEdit(id)).toBeUndefined();
  });
});
