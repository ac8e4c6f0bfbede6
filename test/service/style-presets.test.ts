import sharp from 'sharp';
import { beforeEach, describe, expect, it } from 'vitest';
import { StylePreset } from '../../src/core/style-presets.js';
import type { AttachmentRef } from '../../src/core/jobs.js';
import { UserFacingError } from '../../src/errors.js';
import { MemoryBudget } from '../../src/service/memory-budget.js';
import { StylePresets, type PresetMember } from '../../src/service/style-presets.js';
import { openStorage } from '../../src/storage/open-storage.js';
import { ManualClock } from '../fakes/manual-clock.js';
import { silentLogger } from '../fakes/memory-logger.js';

/** A noisy photo-like image (compresses badly), `width`×`height`. */
async function noisy(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24;
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

const identifierOf = async (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (err: unknown) => (err instanceof UserFacingError ? err.identifier : String(err)),
  );

describe('saved styles', () => {
  const member: PresetMember = { guildId: 'g1', userId: 'u1', manager: false };
  let clock: ManualClock;
  let memory: MemoryBudget;
  let presets: StylePresets;
  let files: Map<string, Buffer>;
  const downloads: { url: string; maxBytes: number; held: number }[] = [];

  const ref = (url: string): AttachmentRef => ({ url, filename: `${url}.png`, size: files.get(url)?.length, contentType: 'image/png' });

  beforeEach(async () => {
    clock = new ManualClock('2026-11-27T12:00:00Z');
    memory = new MemoryBudget({ totalBytes: 64 * 1024 * 1024, answerBytes: 16 * 1024 * 1024 });
    const storage = await openStorage({ url: 'memory://', defaults: { limit: 5, period: 'day' }, jobLeaseMs: 600_000, logger: silentLogger, clock });
    files = new Map([
      ['big', await noisy(2000, 1500)],
      ['small', await noisy(40, 30)],
    ]);
    downloads.length = 0;
    presets = new StylePresets({
      presets: storage.records('style-presets', StylePreset),
      indexes: storage.presetIndexes,
      download: (r, maxBytes) => {
        downloads.push({ url: r.url, maxBytes, held: memory.inUse });
        return Promise.resolve(files.get(r.url) ?? Buffer.alloc(0));
      },
      memory,
      maxAttachmentBytes: 25 * 1024 * 1024,
      maxDecodePixels: 40_000_000,
      clock,
    });
  });

  it('keeps a small WebP copy of each image (at most 512 pixels and 200 KB), read within the memory budget', async () => {
    const saved = await presets.save(member, { scope: 'member', name: 'Noise', suffix: ' grainy ', images: [ref('big'), ref('small')] });
    expect(saved).toEqual({ name: 'noise', suffix: 'grainy', images: 2 });
    // Room was taken before each download (at least the declared bytes), and given back after.
    expect(downloads.map((d) => d.url)).toEqual(['big', 'small']);
    expect(downloads[0]?.maxBytes).toBe(files.get('big')?.length);
    expect(downloads[0]?.held).toBeGreaterThanOrEqual((files.get('big')?.length ?? 0) + (files.get('small')?.length ?? 0));
    expect(memory.inUse).toBe(0);

    const used = await presets.resolve(member, 'noise');
    expect(used.suffix).toBe('grainy');
    expect(used.images.map((i) => i.url)).toEqual(['preset:m:g1:u1/noise/0', 'preset:m:g1:u1/noise/1']);
    const [big, small] = await Promise.all(used.images.map(async (i) => presets.image(i.url)));
    const bigMeta = await sharp(big).metadata();
    expect(bigMeta.format).toBe('webp');
    expect([bigMeta.width, bigMeta.height]).toEqual([512, 384]);
    expect(big?.length).toBeLessThanOrEqual(200 * 1024);
    expect(used.images[0]?.size).toBe(big?.length);
    // The cost estimate counts each at its stored pixels.
    expect(used.images.map((i) => [i.width, i.height])).toEqual([
      [512, 384],
      [40, 30],
    ]);
    // A small image is not enlarged.
    expect((await sharp(small).metadata()).width).toBe(40);
    expect(await presets.image('https://cdn.discordapp.com/x.png')).toBeUndefined();
  });

  it('bounds what a member keeps: 20 styles, replacing one by name', async () => {
    for (let i = 0; i < 20; i++) {
      await presets.save(member, { scope: 'member', name: `s${String(i)}`, suffix: 'x', images: [] });
      clock.advance(3 * 60_000);
    }
    expect(await identifierOf(presets.save(member, { scope: 'member', name: 'one more', suffix: 'x', images: [] }))).toBe('preset.full');
    expect(await identifierOf(presets.save(member, { scope: 'member', name: 's3', suffix: 'y', images: [] }))).toBe('resolved');
    expect((await presets.list(member)).mine).toHaveLength(20);
    await presets.delete(member, 'member', 's3');
    expect(await identifierOf(presets.save(member, { scope: 'member', name: 'one more', suffix: 'x', images: [] }))).toBe('resolved');
  });

  it('limits saves to 5 per member in 10 minutes', async () => {
    for (let i = 0; i < 5; i++) await presets.save(member, { scope: 'member', name: `r${String(i)}`, suffix: 'x', images: [] });
    expect(await identifierOf(presets.save(member, { scope: 'member', name: 'r5', suffix: 'x', images: [] }))).toBe('preset.tooFast');
    expect(await identifierOf(presets.save({ ...member, userId: 'u2' }, { scope: 'member', name: 'r5', suffix: 'x', images: [] }))).toBe('resolved');
    clock.advance(10 * 60_000 + 1);
    expect(await identifierOf(presets.save(member, { scope: 'member', name: 'r5', suffix: 'x', images: [] }))).toBe('resolved');
  });

  it("refuses bad input before downloading, and a server style from a member who can't manage the server", async () => {
    const save = (order: Partial<Parameters<StylePresets['save']>[1]>, who = member) =>
      identifierOf(presets.save(who, { scope: 'member', name: 'ok', suffix: '', images: [ref('small')], ...order }));
    expect(await save({ name: 'a/b' })).toBe('preset.badName');
    expect(await save({ suffix: 'x'.repeat(201) })).toBe('preset.suffixTooLong');
    expect(await save({ images: [ref('small'), ref('small'), ref('small'), ref('small')] })).toBe('preset.tooManyImages');
    expect(await save({ images: [] })).toBe('preset.empty');
    expect(await save({ scope: 'server' })).toBe('permission.manageServer');
    expect(await save({ scope: 'server' }, { guildId: null, userId: 'u1', manager: true })).toBe('permission.manageServer');
    expect(downloads).toEqual([]);
    expect(await save({ scope: 'server' }, { ...member, manager: true })).toBe('resolved');
    expect((await presets.list({ guildId: 'g1', userId: 'someone' })).server.map((p) => p.name)).toEqual(['ok']);
  });

  it('refuses a deleted style, and its images once it is gone', async () => {
    await presets.save(member, { scope: 'member', name: 'gone', suffix: '', images: [ref('small')] });
    const { images } = await presets.resolve(member, 'gone');
    await presets.delete(member, 'member', 'gone');
    expect(await identifierOf(presets.resolve(member, 'gone'))).toBe('preset.notFound');
    expect(await identifierOf(presets.image(images[0]?.url ?? ''))).toBe('preset.notFound');
    expect(await identifierOf(presets.delete(member, 'member', 'gone'))).toBe('preset.notFound');
  });

  it('names the member’s styles, then the server’s, once each; in a direct message only the member’s', async () => {
    const manager = { ...member, manager: true };
    await presets.save(member, { scope: 'member', name: 'mine', suffix: 'x', images: [] });
    await presets.save(manager, { scope: 'member', name: 'both', suffix: 'x', images: [] });
    await presets.save(manager, { scope: 'server', name: 'both', suffix: 'y', images: [] });
    await presets.save(manager, { scope: 'server', name: 'house', suffix: 'z', images: [] });
    expect(await presets.names(member)).toEqual(['mine', 'both', 'house']);
    expect(await presets.names({ guildId: 'g2', userId: 'u9' })).toEqual([]);
    const direct = { guildId: null, userId: 'u1', manager: false };
    await presets.save(direct, { scope: 'member', name: 'dm', suffix: 'x', images: [] });
    expect(await presets.names(direct)).toEqual(['dm']);
    expect(await presets.list(direct)).toEqual({ mine: [{ name: 'dm', suffix: 'x', images: 0 }], server: [] });
    expect((await presets.resolve(direct, 'dm')).suffix).toBe('x');
    expect(await identifierOf(presets.resolve(direct, 'house'))).toBe('preset.notFound');
    expect(await identifierOf(presets.delete(direct, 'member', 'never'))).toBe('preset.notFound');
  });

  it('refuses an image declared larger than an attachment may be, and images with no room in the budget, downloading nothing', async () => {
    const huge: AttachmentRef = { url: 'huge', filename: 'huge.png', size: 26 * 1024 * 1024, contentType: 'image/png' };
    expect(await identifierOf(presets.save(member, { scope: 'member', name: 'huge', suffix: '', images: [huge] }))).toBe('input.attachmentInvalid');
    // Three of unknown size are each read up to 25 MiB: more than the 48 MiB the references may hold.
    const unsized = (url: string): AttachmentRef => ({ url, filename: `${url}.png`, contentType: 'image/png' });
    const three = [unsized('a'), unsized('b'), unsized('c')];
    expect(await identifierOf(presets.save(member, { scope: 'member', name: 'many', suffix: '', images: three }))).toBe('memory.busy');
    expect(downloads).toEqual([]);
    expect(memory.inUse).toBe(0);
  });

  it('reads an image of unknown size no further than an attachment may be', async () => {
    const small: AttachmentRef = { url: 'small', filename: 'small.png', contentType: 'image/png' };
    await presets.save(member, { scope: 'member', name: 'unsized', suffix: '', images: [small] });
    expect(downloads.map((d) => d.maxBytes)).toEqual([25 * 1024 * 1024]);
  });
});
