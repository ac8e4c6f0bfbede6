/**
 * When ImageService fetches a member's reference images: only once a job's turn has come, after its request, the
 * declared sizes and types, the quota and the queue let it through. A refused job, or one still waiting, downloads
 * nothing; a download that fails after the reservation is refunded.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { UserFacingError } from '../../src/errors.js';
import { FairQueue } from '../../src/service/fair-queue.js';
import { ImageService } from '../../src/service/image-service.js';
import { MemoryBudget } from '../../src/service/memory-budget.js';
import type { AttachmentRef, ImageJob } from '../../src/core/jobs.js';
import { AttachmentDownloadError } from '../../src/core/attachment-download.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';
import { deferred, FakeGateway } from '../fakes/fake-gateway.js';
import { FakeResponder } from '../fakes/fake-responder.js';
import { flatPng } from '../fakes/images.js';
import { imageResult, imagineJob, memberSubject, GUILD_ID, MEMBER_ID } from '../fakes/jobs.js';
import { silentLogger } from '../fakes/memory-logger.js';
import { english } from '../support/phrases.js';

const MAX_ATTACHMENT_BYTES = 1_000_000;
const opened: Storage[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((storage) => storage.close()));
});

async function setup(
  options: { concurrency?: number; limit?: number; download?: (ref: AttachmentRef) => Promise<Buffer>; memory?: MemoryBudget; referenceWaitMs?: number } = {},
) {
  const storage = await openStorage({ url: 'memory://', defaults: { limit: options.limit ?? 5, period: 'day' }, jobLeaseMs: 60_000, logger: silentLogger });
  opened.push(storage);
  const png = (await flatPng()).bytes;
  const downloads: string[] = [];
  const readUpTo: number[] = [];
  const gateway = new FakeGateway();
  const service = new ImageService({
    gateway,
    logger: silentLogger,
    holds: {
      quotas: storage.quotas,
    },
    produce: {
      queue: new FairQueue({ concurrency: options.concurrency ?? 4 }),
      download: async (ref, maxBytes) => {
        downloads.push(ref.filename);
        readUpTo.push(maxBytes);
        return options.download ? options.download(ref) : png;
      },
      maxAttachmentBytes: MAX_ATTACHMENT_BYTES,
      partialImages: 0,
      memory: options.memory,
      referenceWaitMs: options.referenceWaitMs,
    },
  });
  return { storage, service, gateway, downloads, readUpTo };
}

/** The gateway's first call waits until the returned deferred is resolved; the next answers at once. */
async function holdFirstCall(gateway: FakeGateway) {
  const held = deferred<undefined>();
  const image = await flatPng();
  gateway.next(async () => {
    await held.promise;
    return imageResult([image]);
  });
  gateway.returns(imageResult([image]));
  return held;
}

function ref(filename: string, size = 10_000, contentType: string | null = 'image/png'): AttachmentRef {
  return { url: `https://cdn.discordapp.com/attachments/1/2/${filename}`, filename, size, contentType };
}

function editJob(edit: NonNullable<ImageJob['edit']>, request: Partial<ImageJob['request']> = {}): ImageJob {
  return { ...imagineJob(request), kind: 'edit', edit };
}

async function failure(run: Promise<void>): Promise<UserFacingError> {
  const err = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (err instanceof UserFacingError) return err;
  throw new Error(`expected a UserFacingError, got ${String(err)}`);
}

describe('ImageService downloads', () => {
  it.each([
    ['declared over ATTACHMENT_MAX_BYTES', editJob({ images: [ref('big.png', MAX_ATTACHMENT_BYTES + 1)] }), 'images'],
    ['declared as a GIF', editJob({ images: [ref('anim.gif', 10_000, 'image/gif')] }), 'images'],
    ['with a mask declared as JPEG', editJob({ images: [ref('a.png')], mask: ref('mask.jpg', 10_000, 'image/jpeg') }), 'mask'],
    ['with 17 images', editJob({ images: Array.from({ length: 17 }, (_, i) => ref(`${i}.png`)) }), 'images'],
  ])('fetches nothing for an edit %s, and refuses it naming the field', async (_name, job, param) => {
    const { service, storage, downloads, gateway } = await setup();
    const err = await failure(service.run(job, new FakeResponder()));
    expect(err).toMatchObject({ identifier: 'input.invalid', context: { param } });
    expect(downloads).toEqual([]);
    expect(gateway.calls).toEqual([]);
    expect(await storage.quotas.status(memberSubject())).toMatchObject({ used: 0, reserved: 0 });
  });

  it('fetches nothing for a blocked member or one whose quota does not cover the request', async () => {
    const { service, storage, downloads } = await setup({ limit: 2 });
    const sixteen = Array.from({ length: 16 }, (_, i) => ref(`${i}.png`, 8_000_000 / 16));
    expect(await failure(service.run(editJob({ images: sixteen }, { n: 3 }), new FakeResponder()))).toMatchObject({ identifier: 'quota.exceeded' });
    await storage.quotas.setLimit({ kind: 'member', guildId: GUILD_ID, userId: MEMBER_ID }, { limit: 0, period: 'day' });
    expect(await failure(service.run(editJob({ images: sixteen }), new FakeResponder()))).toMatchObject({ identifier: 'quota.blocked' });
    expect(downloads).toEqual([]);
  });

  it("fetches a queued job's references only when its turn comes, just before its gateway call", async () => {
    const { service, gateway, downloads } = await setup({ concurrency: 1 });
    const held = await holdFirstCall(gateway);
    const first = service.run(imagineJob(), new FakeResponder());
    await gateway.waitForCalls(1);
    const responder = new FakeResponder();
    const queued = service.run(editJob({ images: [ref('a.png'), ref('b.png')] }), responder);
    await responder.waitForProgress((p) => p.stage === 'queued');
    expect(downloads).toEqual([]);

    held.resolve(undefined);
    await Promise.all([first, queued]);
    expect(downloads).toEqual(['a.png', 'b.png']);
    expect(gateway.calls.map((call) => call.kind)).toEqual(['generate', 'edit']);
  });

  it("fetches nothing for references that together pass the memory budget's room for references", async () => {
    const memory = new MemoryBudget({ totalBytes: 1_000_000, answerBytes: 400_000 });
    const { service, storage, downloads, gateway } = await setup({ memory });
    const job = editJob({ images: [ref('a.png', 300_000), ref('b.png', 300_000)], mask: ref('mask.png', 1) });
    const err = await failure(service.run(job, new FakeResponder()));
    expect(err).toMatchObject({ identifier: 'input.invalid', context: { param: 'images' } });
    expect(english(err.context.allowed)).toMatch(/at most 586 KB together/);
    expect(downloads).toEqual([]);
    expect(gateway.calls).toEqual([]);
    expect(await storage.quotas.status(memberSubject())).toMatchObject({ used: 0, reserved: 0 });
  });

  it('fetches references only once they fit in the memory budget, each read no further than declared', async () => {
    const memory = new MemoryBudget({ totalBytes: 1_000_000, answerBytes: 400_000 });
    const { service, gateway, downloads, readUpTo } = await setup({ memory });
    const held = await holdFirstCall(gateway);
    const first = service.run(editJob({ images: [ref('a.png', 400_000)] }), new FakeResponder());
    await gateway.waitForCalls(1);
    expect(memory.inUse).toBe(400_000);
    // The second job's turn has come (4 may run), but its references do not fit beside the first's until its call settles.
    const second = service.run(editJob({ images: [ref('b.png', 150_000), ref('c.png', 100_000)] }), new FakeResponder());
    await new Promise((resolve) => setImmediate(resolve));
    expect(downloads).toEqual(['a.png']);
    held.resolve(undefined);
    await Promise.all([first, second]);
    expect(downloads).toEqual(['a.png', 'b.png', 'c.png']);
    expect(readUpTo).toEqual([400_000, 150_000, 100_000]);
    expect(memory.inUse).toBe(0);
  });

  it("reads an image of no declared size (an embed's, a gallery's) no further than ATTACHMENT_MAX_BYTES", async () => {
    const { service, gateway, downloads, readUpTo } = await setup();
    gateway.returns(imageResult([await flatPng()]));
    await service.run(editJob({ images: [ref('sized.png', 20_000), { ...ref('embed.png'), size: undefined }] }), new FakeResponder());
    expect(downloads).toEqual(['sized.png', 'embed.png']);
    expect(readUpTo).toEqual([20_000, MAX_ATTACHMENT_BYTES]);
  });

  it('counts an image of no declared size as a sixteenth of the room for references when that is less, so sixteen fit', async () => {
    const memory = new MemoryBudget({ totalBytes: 1_000_000, answerBytes: 200_000 });
    const { service, gateway, readUpTo } = await setup({ memory });
    const held = await holdFirstCall(gateway);
    const unsized = Array.from({ length: 16 }, (_, i) => ({ ...ref(`${i}.png`), size: undefined }));
    const run = service.run(editJob({ images: unsized }), new FakeResponder());
    await gateway.waitForCalls(1);
    expect(readUpTo).toEqual(Array.from({ length: 16 }, () => 50_000));
    expect(memory.inUse).toBe(800_000);
    held.resolve(undefined);
    await run;
    // One declared image beside them passes the room: refused before anything is fetched.
    const over = editJob({ images: [ref('big.png', 60_000), ...unsized.slice(1)] });
    expect(await failure(service.run(over, new FakeResponder()))).toMatchObject({ identifier: 'input.invalid', context: { param: 'images' } });
  });

  it('ends an edit that cannot get room for its references within its wait, refunded, giving its queue slot to the next job', async () => {
    const memory = new MemoryBudget({ totalBytes: 1_000_000, answerBytes: 400_000 });
    // Something else (another edit, /show) holds the whole references' region and does not let go.
    const holder = await memory.takeReferences(memory.referenceBytes);
    const { service, storage, gateway, downloads } = await setup({ memory, concurrency: 1, referenceWaitMs: 20 });
    gateway.returns(imageResult([await flatPng()]));
    const edit = service.run(editJob({ images: [ref('a.png', 100_000)] }), new FakeResponder());
    // The only queue slot: a job behind the waiting edit runs once the edit has given it up.
    const imagine = service.run(imagineJob({ prompt: 'next in line' }), new FakeResponder());
    expect((await failure(edit)).identifier).toBe('memory.busy');
    await imagine;
    expect(gateway.calls).toHaveLength(1);
    expect(downloads).toEqual([]);
    expect(await storage.quotas.status(memberSubject())).toMatchObject({ used: 1, reserved: 0 });
    holder();
    expect(memory.inUse).toBe(0);
  });

  it('refunds a job whose download fails at its turn', async () => {
    const { service, storage, gateway } = await setup({
      download: () => Promise.reject(new AttachmentDownloadError('http_status', 'Discord answered 404')),
    });
    const err = await failure(service.run(editJob({ images: [ref('gone.png')] }), new FakeResponder()));
    expect(err.identifier).toBe('input.attachmentInvalid');
    expect(gateway.calls).toEqual([]);
    expect(await storage.quotas.status(memberSubject())).toMatchObject({ used: 0, reserved: 0 });
  });
});
