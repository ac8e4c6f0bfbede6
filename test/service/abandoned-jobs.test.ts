/**
 * Jobs of a process that died: ImageService journals each accepted job until it settles, and AbandonedJobs in
 * another process (a second journal over the same memory:// ledger, on a clock the test moves) refunds it, keeps it
 * for Re-roll and tells its member.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { UserFacingError } from '../../src/errors.js';
import { ClaimedJobs } from '../../src/service/claimed-jobs.js';
import { AbandonedJobs } from '../../src/service/abandoned-jobs.js';
import { FairQueue } from '../../src/service/fair-queue.js';
import { ImageService } from '../../src/service/image-service.js';
import { ArchivedJob, JobArchive, PendingEdit } from '../../src/service/job-archive.js';
import { journalEntryOf } from '../../src/service/job-journal-entry.js';
import type { AbandonedJobNotice, AbandonedJobNotifier } from '../../src/ports/abandoned-job-notifier.js';
import type { ReplyAddress } from '../../src/core/jobs.js';
import type { AbandonedJobEntry, JobJournal } from '../../src/ports/job-journal.js';
import { StorageUnavailableError } from '../../src/storage/errors.js';
import { openBackend } from '../../src/storage/open-backend.js';
import { createStorage, type Storage } from '../../src/storage/open-storage.js';
import { parseStorageUrl } from '../../src/storage/storage-url.js';
import { FakeGateway } from '../fakes/fake-gateway.js';
import { FakeResponder } from '../fakes/fake-responder.js';
import { flatPng } from '../fakes/images.js';
import { imageResult, imagineJob, memberSubject } from '../fakes/jobs.js';
import { ManualClock } from '../fakes/manual-clock.js';
import { ManualTimers } from '../fakes/manual-timers.js';
import { LEVEL, memoryLogger, silentLogger } from '../fakes/memory-logger.js';

const LEASE_MS = 60_000;
const REPLY: ReplyAddress = {
  applicationId: '100000000000000001',
  interactionToken: 'token-of-the-interaction',
  tokenExpiresAt: Date.parse('2026-11-23T12:15:00Z'),
};
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** Records what it is asked to tell; `failFor` makes the notice of that job throw. */
class RecordingNotifier implements AbandonedJobNotifier {
  readonly told: AbandonedJobNotice[] = [];
  failFor: string | undefined;

  tell(notice: AbandonedJobNotice): Promise<void> {
    if (notice.jobId === this.failFor) return Promise.reject(new Error('Discord said no'));
    this.told.push(notice);
    return Promise.resolve();
  }
}

/** A responder that says where to answer, like the Discord one. */
class AddressedResponder extends FakeResponder {
  readonly replyAddress = REPLY;
}

/** Two processes' views of one memory:// store (same ledger and records, own journals), on one clock. */
async function twoProcesses() {
  const clock = new ManualClock('2026-11-23T12:00:00Z');
  const log = memoryLogger();
  const backend = await openBackend(parseStorageUrl('memory://'), { namespace: 'imagine-bot', connectTimeoutMs: 1_000, logger: silentLogger });
  closers.push(() => backend.close());
  const view = (): Storage => createStorage(backend, { defaults: { limit: 5, period: 'day' }, jobLeaseMs: LEASE_MS, clock, logger: log.logger });
  const archiveOf = (storage: Storage) =>
    new JobArchive({ jobs: storage.records('jobs', ArchivedJob), pendingEdits: storage.records('pending-edits', PendingEdit), jobTtlMs: 3_600_000 });
  const [dying, survivor] = [view(), view()];
  const notifier = new RecordingNotifier();
  const timers = new ManualTimers(clock);
  const sweeper = new AbandonedJobs({
    journal: survivor.journal,
    quotas: survivor.quotas,
    archive: archiveOf(survivor),
    notifier,
    leaseMs: LEASE_MS,
    timers,
    logger: log.logger,
  });
  return { clock, log, dying, survivor, notifier, timers, sweeper, archive: archiveOf(survivor) };
}

function serviceOn(storage: Storage, gateway: FakeGateway, clock: ManualClock, journal: JobJournal = storage.journal) {
  return new ImageService({
    gateway,
    logger: silentLogger,
    clock,
    holds: {
      quotas: storage.quotas,
      jobLeaseMs: LEASE_MS,
      // Never advanced: the dying process renews nothing once the test moves the clock.
      leaseTimers: new ManualTimers(clock),
      journal,
    },
    produce: {
      queue: new FairQueue(),
      download: () => Promise.reject(new Error('no attachments here')),
    },
  });
}

describe('a job whose process died', () => {
  it('is refunded, kept for Re-roll and its member told, by another process once the journal lapsed', async () => {
    const { clock, dying, survivor, notifier, sweeper, archive } = await twoProcesses();
    const gateway = new FakeGateway().next(() => new Promise(() => undefined));
    const base = imagineJob({ n: 2, prompt: 'a lantern festival' });
    // The member's language travels in the journal, so the notice is written in it.
    const job = { ...base, origin: { ...base.origin, locale: 'fr' } };
    void serviceOn(dying, gateway, clock).run(job, new AddressedResponder());
    await gateway.waitForCalls(1);
    expect(await survivor.quotas.status(memberSubject())).toMatchObject({ reserved: 2 });

    expect(await sweeper.sweep()).toBe(0);
    clock.advance(LEASE_MS + 1);
    expect(await sweeper.sweep()).toBe(1);

    expect(notifier.told).toEqual([
      {
        jobId: job.id,
        prompt: 'a lantern festival',
        requesterId: job.origin.requesterId,
        guildId: job.origin.guildId,
        channelId: job.origin.channelId,
        reply: REPLY,
        locale: 'fr',
      },
    ]);
    expect(await survivor.quotas.status(memberSubject())).toMatchObject({ used: 0, reserved: 0, remaining: 5 });
    expect(await archive.recall(job.id)).toMatchObject({ kind: 'imagine', request: { prompt: 'a lantern festival', n: 2 }, messageIds: [] });
    expect(await sweeper.sweep()).toBe(0);
  });

  it('was delivered: it is only refunded (a no-op after its commit), and nobody is told', async () => {
    const { clock, dying, survivor, notifier, sweeper, archive } = await twoProcesses();
    const job = imagineJob();
    // The process delivered and committed, then died before it closed the job in its journal.
    await dying.journal.open(job.id, journalEntryOf(job, REPLY));
    await survivor.quotas.reserve(job.subject, job.id, 1);
    await survivor.quotas.commit(job.id, 1);
    await archive.remember(job, ['500000000000000001']);
    clock.advance(LEASE_MS + 1);

    expect(await sweeper.sweep()).toBe(0);
    expect(notifier.told).toEqual([]);
    expect(await survivor.quotas.status(memberSubject())).toMatchObject({ used: 1, reserved: 0 });
  });

  it('with an unreadable entry is refunded and logged; a failed notice is logged and the others are still told', async () => {
    const { clock, dying, survivor, notifier, sweeper, log } = await twoProcesses();
    const [unreadable, failing, fine] = [imagineJob(), imagineJob(), imagineJob()];
    for (const job of [unreadable, failing, fine]) await survivor.quotas.reserve(job.subject, job.id, 1);
    await dying.journal.open(unreadable.id, { v: 9 });
    await dying.journal.open(failing.id, journalEntryOf(failing, undefined));
    await dying.journal.open(fine.id, journalEntryOf(fine, undefined));
    notifier.failFor = failing.id;
    clock.advance(LEASE_MS + 1);

    expect(await sweeper.sweep()).toBe(1);
    expect(notifier.told.map((notice) => notice.jobId)).toEqual([fine.id]);
    expect(await survivor.quotas.status(memberSubject())).toMatchObject({ reserved: 0 });
    expect(log.find('abandoned job refunded; its journal entry is unreadable, so its member cannot be told')).toHaveLength(1);
    expect(log.find('could not settle an abandoned job')).toEqual([expect.objectContaining({ level: LEVEL.error, jobId: failing.id })]);
  });

  it('is found at start and on every beat (a sixth of the lease) until stopped', async () => {
    const { clock, dying, notifier, sweeper, timers } = await twoProcesses();
    const [early, late] = [imagineJob(), imagineJob()];
    await dying.journal.open(early.id, journalEntryOf(early, undefined));
    clock.advance(LEASE_MS + 1);
    await sweeper.start();
    expect(notifier.told.map((notice) => notice.jobId)).toEqual([early.id]);

    await dying.journal.open(late.id, journalEntryOf(late, undefined));
    await timers.advance(LEASE_MS / 3);
    expect(notifier.told).toHaveLength(1);
    await timers.advance(LEASE_MS);
    expect(notifier.told.map((notice) => notice.jobId)).toEqual([early.id, late.id]);

    await sweeper.stop();
    expect(timers.pending).toBe(0);
  });

  it('logs, and keeps beating, when the journal is unreachable at start', async () => {
    const { log, notifier, timers } = await twoProcesses();
    let reachable = false;
    const journal: JobJournal = {
      open: () => Promise.resolve(),
      close: () => Promise.resolve(),
      heartbeat: () => (reachable ? Promise.resolve([]) : Promise.reject(new Error('store down'))),
      claimAbandoned: (): Promise<AbandonedJobEntry[]> => Promise.resolve([{ jobId: 'j1', entry: undefined }]),
      retire: () => Promise.resolve(),
    };
    const quotas = { refunded: [] as string[], refund: (jobId: string) => Promise.resolve(void quotas.refunded.push(jobId)) };
    const archive = { recall: () => Promise.resolve(undefined), rememberAbandoned: () => Promise.resolve() };
    const sweeper = new AbandonedJobs({ journal, quotas, archive, notifier, leaseMs: LEASE_MS, timers, logger: log.logger });
    await sweeper.start();
    expect(log.find('job journal unreachable at start; retrying at the next beat')).toHaveLength(1);
    expect(quotas.refunded).toEqual([]);
    reachable = true;
    await timers.advance(LEASE_MS / 6);
    expect(quotas.refunded).toEqual(['j1']);
    await sweeper.stop();
  });
});

describe('the heartbeat of a process whose jobs were claimed', () => {
  it('stops those jobs here (ClaimedJobs), and logs how many were running', async () => {
    const { log, notifier, timers } = await twoProcesses();
    const journal: JobJournal = {
      open: () => Promise.resolve(),
      close: () => Promise.resolve(),
      heartbeat: () => Promise.resolve(['j1', 'j2']),
      claimAbandoned: () => Promise.resolve([]),
      retire: () => Promise.resolve(),
    };
    const claims = new ClaimedJobs();
    const running = claims.watch('j1');
    const quotas = { refund: () => Promise.resolve() };
    const archive = { recall: () => Promise.resolve(undefined), rememberAbandoned: () => Promise.resolve() };
    const sweeper = new AbandonedJobs({ journal, quotas, archive, notifier, claims, leaseMs: LEASE_MS, timers, logger: log.logger });
    await sweeper.start();
    expect(running.aborted).toBe(true);
    expect(log.find('stopped jobs another process claimed; they are neither delivered nor charged here')).toEqual([expect.objectContaining({ stopped: 1 })]);
    await sweeper.stop();
  });
});

describe('ImageService and the journal', () => {
  /** The real journal, recording each call with the member's quota at that moment; `failOpen` makes open throw. */
  function recording(storage: Storage, events: unknown[], failOpen = false): JobJournal {
    const quota = async () => {
      const { used, reserved } = await storage.quotas.status(memberSubject());
      return { used, reserved };
    };
    return {
      open: async (jobId, entry) => {
        events.push({ call: 'open', jobId, entry, quota: await quota() });
        if (failOpen) throw new StorageUnavailableError('Storage update failed at memory://');
        await storage.journal.open(jobId, entry);
      },
      close: async (jobId) => {
        events.push({ call: 'close', jobId, quota: await quota() });
        await storage.journal.close(jobId);
      },
      heartbeat: () => storage.journal.heartbeat(),
      claimAbandoned: () => storage.journal.claimAbandoned(),
      retire: () => storage.journal.retire(),
    };
  }

  it('journals a job, with where to answer, before its reservation, and closes it after the commit', async () => {
    const { clock, dying, survivor } = await twoProcesses();
    const events: unknown[] = [];
    const gateway = new FakeGateway().returns(imageResult([await flatPng()]));
    const job = imagineJob();
    await serviceOn(dying, gateway, clock, recording(dying, events)).run(job, new AddressedResponder());

    expect(events).toEqual([
      { call: 'open', jobId: job.id, entry: journalEntryOf(job, REPLY), quota: { used: 0, reserved: 0 } },
      { call: 'close', jobId: job.id, quota: { used: 1, reserved: 0 } },
    ]);
    clock.advance(LEASE_MS + 1);
    expect(await survivor.journal.claimAbandoned()).toEqual([]);
  });

  it('closes a refused job too, and refuses a job it cannot journal, before any reservation or gateway call', async () => {
    const { clock, dying, survivor } = await twoProcesses();
    const events: { call?: unknown }[] = [];
    const gateway = new FakeGateway();
    const tooMany = imagineJob({ n: 6 });
    const refused = await serviceOn(dying, gateway, clock, recording(dying, events))
      .run(tooMany, new FakeResponder())
      .catch((err: unknown) => err);
    expect(refused).toMatchObject({ identifier: 'quota.exceeded' });
    expect(events.map((event) => event.call)).toEqual(['open', 'close']);

    const failed = await serviceOn(dying, gateway, clock, recording(dying, [], true))
      .run(imagineJob(), new FakeResponder())
      .catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(UserFacingError);
    expect(failed).toMatchObject({ identifier: 'storage.unavailable' });
    expect(gateway.calls).toHaveLength(0);
    expect(await survivor.quotas.status(memberSubject())).toMatchObject({ reserved: 0, used: 0 });
  });
});
