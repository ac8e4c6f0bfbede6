/**
 * Make emoji and Make sticker in the service (issue 32): refused before anything is downloaded where an expression
 * cannot be added, for a `moderation:low` result and for a paused member; in the member's line (their queued limit
 * refuses more); the image's room in the memory budget given back however it ends; Discord's refusals told as such.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { UserFacingError } from '../../src/errors.js';
import { ExpressionRefusedError, type ExpressionPlace } from '../../src/core/expressions.js';
import type { GuildExpressions, NewExpression } from '../../src/ports/guild-expressions.js';
import { FairQueue } from '../../src/service/fair-queue.js';
import type { ExpressionOrder } from '../../src/service/expressions.js';
import { ImageService } from '../../src/service/image-service.js';
import { MemoryBudget } from '../../src/service/memory-budget.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';
import { deferred, FakeGateway } from '../fakes/fake-gateway.js';
import { flatPng } from '../fakes/images.js';
import { silentLogger } from '../fakes/memory-logger.js';

const opened: Storage[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((storage) => storage.close()));
});

const EVERYWHERE: ExpressionPlace = { inServer: true, botInServer: true, memberCanCreate: true, botCanCreate: true };

/** Records what it is asked to add; answers `answer` (a refusal, or an id). */
class FakeExpressions implements GuildExpressions {
  readonly added: NewExpression[] = [];
  answer: () => Promise<void> = () => Promise.resolve();
  async add(expression: NewExpression) {
    await this.answer();
    this.added.push(expression);
    return { id: String(this.added.length), name: expression.name };
  }
}

async function setup(options: { paused?: boolean; download?: () => Promise<Buffer>; referenceWaitMs?: number } = {}) {
  const storage = await openStorage({ url: 'memory://', defaults: { limit: 5, period: 'day' }, jobLeaseMs: 60_000, logger: silentLogger });
  opened.push(storage);
  const png = (await flatPng(600, 400)).bytes;
  const downloads: number[] = [];
  const memory = new MemoryBudget();
  const service = new ImageService({
    gateway: new FakeGateway(),
    logger: silentLogger,
    rules: {
      moderation: {
        check: () => (options.paused ? Promise.reject(new UserFacingError('moderation.paused')) : Promise.resolve()),
        counted: () => Promise.resolve(undefined),
      },
    },
    holds: { quotas: storage.quotas },
    produce: {
      queue: new FairQueue({ concurrency: 4, perMemberRunning: 1, perMemberQueued: 1 }),
      perMemberQueued: 1,
      memory,
      maxAttachmentBytes: 1_000_000,
      referenceWaitMs: options.referenceWaitMs,
      download: async (_ref, maxBytes) => {
        downloads.push(maxBytes);
        return options.download ? options.download() : png;
      },
    },
  });
  return { service, memory, downloads, target: new FakeExpressions() };
}

const order = (overrides: Partial<ExpressionOrder> = {}): ExpressionOrder => ({
  kind: 'emoji',
  words: { name: 'lighthouse' },
  guildId: 'g1',
  userId: 'u1',
  place: EVERYWHERE,
  image: { url: 'https://cdn.discordapp.com/a.png', filename: 'a.png', size: 5_000 },
  lowModeration: false,
  ...overrides,
});

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) => (err as UserFacingError).identifier,
  );

describe('making an emoji or a sticker', () => {
  it('adds a 128x128 PNG for the member, reading no more than the image declares, and gives its room back', async () => {
    const { service, memory, downloads, target } = await setup();
    await expect(service.expression(order(), target)).resolves.toEqual({ id: '1', name: 'lighthouse' });
    expect(target.added[0]).toMatchObject({ kind: 'emoji', guildId: 'g1', byUserId: 'u1', name: 'lighthouse' });
    expect(target.added[0]?.image.subarray(1, 4).toString()).toBe('PNG');
    expect(downloads).toEqual([5_000]);
    expect(memory.inUse).toBe(0);
  });

  it.each([
    [{ place: { ...EVERYWHERE, inServer: false }, guildId: null }, 'expression.notInServer'],
    [{ place: { ...EVERYWHERE, botInServer: false } }, 'expression.botNotInServer'],
    [{ place: { ...EVERYWHERE, memberCanCreate: false } }, 'expression.memberPermission'],
    [{ place: { ...EVERYWHERE, botCanCreate: false } }, 'expression.botPermission'],
    [{ lowModeration: true }, 'expression.moderationLow'],
  ] as const)('refuses %j before downloading anything: %s', async (overrides, identifier) => {
    const { service, downloads, target } = await setup();
    expect(await refusal(service.expression(order(overrides), target))).toBe(identifier);
    expect(downloads).toEqual([]);
    expect(target.added).toEqual([]);
  });

  it('refuses a member paused by moderation strikes', async () => {
    const { service, downloads, target } = await setup({ paused: true });
    expect(await refusal(service.expression(order(), target))).toBe('moderation.paused');
    expect(downloads).toEqual([]);
  });

  it('waits in the member’s line: one running, one waiting, a third refused as their queue is full', async () => {
    const gate = deferred<undefined>();
    const { service, target } = await setup();
    target.answer = () => gate.promise.then(() => undefined);
    const first = service.expression(order(), target);
    const second = service.expression(order({ words: { name: 'second' } }), target);
    expect(await refusal(service.expression(order({ words: { name: 'third' } }), target))).toBe('queue.full');
    gate.resolve(undefined);
    await Promise.all([first, second]);
    expect(target.added.map((e) => e.name)).toEqual(['lighthouse', 'second']);
  });

  it('tells a full server, and a busy Discord, as such, and gives the room back', async () => {
    const { service, memory, target } = await setup();
    target.answer = () => Promise.reject(new ExpressionRefusedError('slotsFull'));
    expect(await refusal(service.expression(order({ kind: 'sticker', words: { name: 'Light', tags: 'light', description: '' } }), target))).toBe(
      'expression.stickerSlotsFull',
    );
    target.answer = () => Promise.reject(new ExpressionRefusedError('rateLimited'));
    expect(await refusal(service.expression(order(), target))).toBe('expression.unavailable');
    target.answer = () => Promise.reject(new ExpressionRefusedError('botPermission'));
    expect(await refusal(service.expression(order(), target))).toBe('expression.botPermission');
    expect(memory.inUse).toBe(0);
  });

  it('refuses an image it cannot read, and gives the room back', async () => {
    const { service, memory, target } = await setup({ download: () => Promise.resolve(Buffer.from('not an image')) });
    expect(await refusal(service.expression(order(), target))).toBe('input.attachmentInvalid');
    expect(memory.inUse).toBe(0);
    expect(target.added).toEqual([]);
  });

  it('tells an image Discord found invalid as Discord’s refusal', async () => {
    const { service, target } = await setup();
    target.answer = () => Promise.reject(new ExpressionRefusedError('invalid'));
    expect(await refusal(service.expression(order(), target))).toBe('expression.discordRefused');
  });

  it('refuses an image declared larger than an attachment may be, before downloading it', async () => {
    const { service, downloads, target } = await setup();
    const image = { url: 'https://cdn.discordapp.com/a.png', filename: 'a.png', size: 2_000_000 };
    expect(await refusal(service.expression(order({ image }), target))).toBe('input.attachmentInvalid');
    expect(downloads).toEqual([]);
  });

  it('reads an image of unknown size no further than an attachment may be', async () => {
    const { service, downloads, target } = await setup();
    const image = { url: 'https://cdn.discordapp.com/a.png', filename: 'a.png' };
    await expect(service.expression(order({ image }), target)).resolves.toEqual({ id: '1', name: 'lighthouse' });
    expect(downloads).toEqual([1_000_000]);
  });

  it('says the bot is busy when the budget has no room within the wait, downloading nothing', async () => {
    const { service, memory, downloads, target } = await setup({ referenceWaitMs: 1 });
    const held = await memory.takeReferences(memory.referenceBytes);
    expect(await refusal(service.expression(order(), target))).toBe('memory.busy');
    held();
    expect(downloads).toEqual([]);
    expect(memory.inUse).toBe(0);
  });
});
