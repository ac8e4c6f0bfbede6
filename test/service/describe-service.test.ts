/**
 * Describe's service: the image and its data URL are held within the describes' own region of the memory budget (a
 * describe waits, before it downloads, while others hold the room; the room follows the bytes actually downloaded and
 * is given back however the call ends; edits' references are never touched), the image is downscaled before it is
 * sent, a member describes one image at a time with a cooldown between, and each description's chat usage is
 * recorded under its id.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import sharp from 'sharp';
import type { UserFacingError } from '../../src/errors.js';
import { DESCRIBE_WORK_BYTES, describeHeldBytes } from '../../src/service/describe-image.js';
import { DescribedPrompts, DescribeService } from '../../src/service/describe-service.js';
import type { AttachmentRef } from '../../src/core/jobs.js';
import { MemoryBudget } from '../../src/service/memory-budget.js';
import type { Description } from '../../src/service/prompt-help.js';
import { DescribeUsage } from '../../src/service/usage-log.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';
import { flatPng } from '../fakes/images.js';
import { ManualClock } from '../fakes/manual-clock.js';
import { silentLogger } from '../fakes/memory-logger.js';

const opened: Storage[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const DECLARED = 1_000;
const image = (name: string): AttachmentRef => ({
  url: `https://cdn.discordapp.com/attachments/1/2/${name}`,
  filename: name,
  size: DECLARED,
  contentType: 'image/png',
});
const answer: Description = {
  description: 'A lighthouse at dusk.',
  prompts: ['a lighthouse at dusk, oil painting'],
  used: { model: 'gpt-4o-mini', requestId: 'req_1', usage: { inputTokens: 812, outputTokens: 96, totalTokens: 908 } },
};

/** A chat call the test settles by hand. */
function pendingCall() {
  let settle!: (outcome: { ok: true } | { ok: false }) => void;
  const promise = new Promise<Description>((resolve, reject) => {
    settle = (outcome) => (outcome.ok ? resolve(answer) : reject(new Error('chat failed')));
  });
  return { promise, settle };
}

interface SetupOptions {
  /** The downloaded image (an 8x8 PNG by default). */
  bytes?: Buffer;
  cooldownMs?: number;
  timeLimitMs?: number;
}

async function setup(budget: MemoryBudget, options: SetupOptions = {}) {
  const clock = new ManualClock('2026-11-25T12:00:00Z');
  const storage = await openStorage({ url: 'memory://', defaults: { limit: 5, period: 'day' }, jobLeaseMs: 600_000, logger: silentLogger, clock });
  opened.push(storage);
  const bytes = options.bytes ?? (await flatPng(8, 8)).bytes;
  const downloads: string[] = [];
  const calls: ReturnType<typeof pendingCall>[] = [];
  const sent: string[] = [];
  const asked: number[] = [];
  const service = new DescribeService({
    help: {
      describe: (url, signal) => {
        sent.push(url);
        const call = pendingCall();
        calls.push(call);
        // As the chat adapter does: its call ends when the signal aborts.
        signal?.addEventListener('abort', () => call.settle({ ok: false }), { once: true });
        return call.promise;
      },
    },
    records: storage.records('described-prompts', DescribedPrompts),
    // Like the real download: every byte admitted before it is held.
    download: (ref, _max, _signal, admit) => {
      downloads.push(ref.filename);
      admit?.(bytes.length);
      return Promise.resolve(bytes);
    },
    maxAttachmentBytes: 10_000_000,
    ttlMs: 3_600_000,
    memory: {
      describeBytes: budget.describeBytes,
      takeDescribe: (held, signal) => {
        asked.push(held);
        return budget.takeDescribe(held, signal);
      },
    },
    cooldownMs: options.cooldownMs,
    timeLimitMs: options.timeLimitMs,
    usage: storage.records('describe-usage', DescribeUsage),
    clock,
    logger: silentLogger,
  });
  return { service, storage, downloads, calls, asked, clock, sent };
}

const MIB = 1024 * 1024;
/** A budget whose describes' region fits one describe of a DECLARED image, and nothing beside it. */
const oneDescribe = () => new MemoryBudget({ totalBytes: 256 * MIB, answerBytes: 64 * MIB, describeBytes: DESCRIBE_WORK_BYTES + DECLARED + 1 });
const refusal = (identifier: string): unknown => expect.objectContaining({ name: 'UserFacingError', identifier }) as unknown;

describe('DescribeService', () => {
  it("holds a describe in the describes' own region: a second waits there (before downloading), while edits' references stay free", async () => {
    const budget = oneDescribe();
    const { service, downloads, calls, asked } = await setup(budget);
    const place = { guildId: 'g1', channelId: 'c1', userId: 'u1' };

    const first = service.describe(place, image('first.png'));
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    const second = service.describe({ ...place, userId: 'u2' }, image('second.png'));
    await vi.waitFor(() => expect(asked).toHaveLength(2));
    // The second asked for its room and waits: nothing downloaded while the first holds the region.
    expect(asked).toEqual([DESCRIBE_WORK_BYTES + DECLARED, DESCRIBE_WORK_BYTES + DECLARED]);
    expect(downloads).toEqual(['first.png']);
    // Once downscaled (here sent as it came), the first holds only what its data URL needs.
    const small = (await flatPng(8, 8)).bytes.length;
    expect(budget.describeInUse).toBe(describeHeldBytes(small));
    // An edit's references get the whole of their region meanwhile, at once.
    const references = await budget.takeReferences(budget.referenceBytes);
    references();

    calls[0]!.settle({ ok: true });
    await first;
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    expect(downloads).toEqual(['first.png', 'second.png']);
    calls[1]!.settle({ ok: false });
    await expect(second).rejects.toThrow('chat failed');
    // Given back whether the call answered or failed.
    expect(budget.inUse).toBe(0);
    expect(budget.describeInUse).toBe(0);
  });

  it('takes room for what is downloaded, not what Discord declared: more is taken as it arrives, and refused when there is none', async () => {
    const big = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#884422' } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(DECLARED + 500);
    const budget = oneDescribe();
    const { service, calls, sent } = await setup(budget, { bytes: big });
    // Declared 1000 bytes, brings more: the region has not the room, so it is refused and nothing is sent.
    await expect(service.describe({ guildId: null, channelId: null, userId: 'u1' }, image('liar.png'))).rejects.toEqual(refusal('describe.busy'));
    expect(sent).toEqual([]);
    expect(budget.inUse).toBe(0);

    // With room, the hold grows to the downloaded size, then shrinks to the data URL's once downscaled.
    const roomy = new MemoryBudget({ totalBytes: 256 * MIB, answerBytes: 64 * MIB, describeBytes: 64 * MIB });
    const other = await setup(roomy, { bytes: big });
    const described = other.service.describe({ guildId: null, channelId: null, userId: 'u1' }, image('liar.png'));
    await vi.waitFor(() => expect(other.calls).toHaveLength(1));
    expect(roomy.describeInUse).toBe(describeHeldBytes(big.length));
    other.calls[0]!.settle({ ok: true });
    await described;
    expect(roomy.describeInUse).toBe(0);
    expect(calls).toHaveLength(0);
  });

  it('downscales a large image to 2048 px on its long side, as a JPEG, before its data URL is built', async () => {
    const wide = await sharp({ create: { width: 3000, height: 1000, channels: 4, background: { r: 20, g: 120, b: 200, alpha: 0.5 } } })
      .png()
      .toBuffer();
    const { service, calls, sent } = await setup(new MemoryBudget(), { bytes: wide });
    const described = service.describe({ guildId: null, channelId: null, userId: 'u1' }, { ...image('wide.png'), size: wide.length });
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    calls[0]!.settle({ ok: true });
    await described;
    expect(sent[0]).toMatch(/^data:image\/jpeg;base64,/);
    const meta = await sharp(Buffer.from(sent[0]!.split(',')[1]!, 'base64')).metadata();
    expect([meta.width, meta.height]).toEqual([2048, 683]);
  });

  it('refuses an image declaring more than MAX_DECODE_PIXELS (50 megapixels by default) without decoding it', async () => {
    const bomb = await pngDeclaring(20_000, 20_000);
    const { service, sent } = await setup(new MemoryBudget(), { bytes: bomb });
    const refused = await service.describe({ guildId: null, channelId: null, userId: 'u1' }, image('bomb.png')).catch((err: unknown) => err);
    expect(refused).toEqual(refusal('input.attachmentInvalid'));
    // Refused for its declared pixels (read from its header), not for failing to decode.
    expect((refused as UserFacingError).context.detail).toMatchObject({
      id: 'detail.image.tooManyPixels',
      values: { width: '20000', height: '20000', max: 50 },
    });
    expect(sent).toEqual([]);
  });

  it('lets a member describe one image at a time, then not again before the cooldown has passed', async () => {
    const { service, calls, clock, downloads } = await setup(new MemoryBudget(), { cooldownMs: 30_000 });
    const place = { guildId: 'g1', channelId: 'c1', userId: 'u1' };
    const first = service.describe(place, image('one.png'));
    await expect(service.describe(place, image('two.png'))).rejects.toEqual(refusal('describe.running'));
    // Another member is not held back.
    const other = service.describe({ ...place, userId: 'u2' }, image('other.png'));
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    calls[0]!.settle({ ok: true });
    calls[1]!.settle({ ok: true });
    await Promise.all([first, other]);
    clock.advance(10_000);
    const cooling = await service.describe(place, image('three.png')).catch((err: unknown) => err);
    expect(cooling).toEqual(refusal('describe.cooldown'));
    expect((cooling as UserFacingError).context.resetsAt).toBe(Date.parse('2026-11-25T12:00:30Z'));
    expect(downloads).toEqual(['one.png', 'other.png']);
    clock.advance(20_000);
    const again = service.describe(place, image('four.png'));
    await vi.waitFor(() => expect(calls).toHaveLength(3));
    calls[2]!.settle({ ok: true });
    await again;
  });

  it('ends a describe whose vision call outlives its time limit, giving its room back', async () => {
    const budget = oneDescribe();
    const { service, calls } = await setup(budget, { timeLimitMs: 50 });
    const described = service.describe({ guildId: null, channelId: null, userId: 'u1' }, image('slow.png'));
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    // The vision model never answers here: the limit is what ends it, with the message, and the room is given back.
    await expect(described).rejects.toEqual(refusal('promptHelp.failed'));
    expect(budget.inUse).toBe(0);
  });

  it("records each description's chat usage under its id: who asked, where, the model and its tokens", async () => {
    const { service, storage, calls, clock } = await setup(new MemoryBudget());
    const described = service.describe({ guildId: 'g1', channelId: 'c1', userId: 'u7' }, image('photo.png'));
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    calls[0]!.settle({ ok: true });
    const { id } = await described;
    expect(await storage.records('describe-usage', DescribeUsage).get(id)).toEqual({
      v: 1,
      describeId: id,
      guildId: 'g1',
      userId: 'u7',
      promptHelp: answer.used,
      settledAt: clock.now(),
    });
  });
});

/** A small PNG whose header declares `width`x`height` (its CRC fixed up), as a bomb would. */
async function pngDeclaring(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from((await flatPng(8, 8)).bytes);
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
