import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ArchivedJob, JobArchive, PENDING_EDIT_TTL_MS, PendingEdit } from '../../src/service/job-archive.js';
import type { AttachmentRef, ImageJob } from '../../src/core/jobs.js';
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
  const storage = await openStorage({ url: 'memory://', defaults: { limit: 5, period: 'day' }, jobLeaseMs: 600_000, logger: silentLogger, clock });
  opened.push(storage);
  /** Writes raw records into the job namespace, as an earlier version of the bot did. */
  const rawJobs = storage.records('job', z.unknown());
  const archive = new JobArchive({
    jobs: storage.records('job', ArchivedJob),
    pendingEdits: storage.records('pending-edit', PendingEdit),
    jobTtlMs: JOB_TTL_MS,
  });
  return { archive, clock, rawJobs };
}

const image: AttachmentRef = { url: 'https://cdn.discordapp.com/attachments/1/2/cat.png?ex=1', filename: 'cat.png', size: 1234, contentType: 'image/png' };

describe('JobArchive', () => {
  it('recalls a remembered imagine job with its request, origin and message ids', async () => {
    const { archive } = await setup();
    const job = imagineJob({ n: 2, size: { width: 1536, height: 1024 }, quality: 'high', outputFormat: 'webp', outputCompression: 70 });

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

  it('still reads a v1 record stored before the request schema moved to the service', async () => {
    const { archive, rawJobs } = await setup();
    // Written by the release whose archive spelt the request fields out itself: every field it could hold.
    const stored = {
      v: 1,
      kind: 'edit',
      requesterId: '200000000000000001',
      guildId: '300000000000000001',
      channelId: '400000000000000001',
      request: {
        prompt: 'a lighthouse at dusk',
        model: 'gpt-image-1',
        size: '1536x1024',
        quality: 'high',
        background: 'transparent',
        outputFormat: 'webp',
        outputCompression: 70,
        n: 2,
        moderation: 'low',
      },
      edit: { images: [image], mask: { ...image, filename: 'mask.png' }, inputFidelity: 'low' },
      messageIds: ['500000000000000001'],
    };
    await rawJobs.set('oldjob', JSON.parse(JSON.stringify(stored)), JOB_TTL_MS);
    // Its size, written as text then, is read as a size.
    expect(await archive.recall('oldjob')).toEqual({ ...stored, request: { ...stored.request, size: { width: 1536, height: 1024 } } });
  });

  it('reads nothing for a stored request the service would refuse', async () => {
    const { archive, rawJobs } = await setup();
    const job = { v: 1, kind: 'imagine', requesterId: '2', guildId: null, channelId: null, messageIds: [] };
    await rawJobs.set('blank', { ...job, request: { prompt: '   ' } }, JOB_TTL_MS);
    await rawJobs.set('ultra', { ...job, request: { prompt: 'p', quality: 'ultra' } }, JOB_TTL_MS);
    expect(await archive.recall('blank')).toBeUndefined();
    expect(await archive.recall('ultra')).toBeUndefined();
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

describe('JobArchive confirmations', () => {
  it('keeps a request until its member confirms it, then hands it over once; without a store, none waits', async () => {
    const { archive } = await setup();
    expect(await archive.stashConfirmation(imagineJob())).toBeUndefined();
    const storage = opened[0]!;
    const keeping = new JobArchive({
      jobs: storage.records('job', ArchivedJob),
      pendingEdits: storage.records('pending-edit', PendingEdit),
      confirmations: storage.records('cost-confirmations', ArchivedJob),
      jobTtlMs: JOB_TTL_MS,
    });
    const job = imagineJob({ prompt: 'a costly fox', quality: 'high' });
    const id = await keeping.stashConfirmation(job);
    expect(id).toBe(job.id);
    expect((await keeping.recallConfirmation(job.id))?.request).toMatchObject({ prompt: 'a costly fox', quality: 'high' });
    // A double click: both take at once, one gets it.
    const [first, second] = await Promise.all([keeping.takeConfirmation(job.id), keeping.takeConfirmation(job.id)]);
    expect([first, second].filter((taken) => taken !== undefined)).toHaveLength(1);
    expect(await keeping.takeConfirmation(job.id)).toBeUndefined();
    expect(await keeping.recallConfirmation(job.id)).toBeUndefined();
    expect(await archive.recallConfirmation(job.id)).toBeUndefined();
  });
});
