/**
 * Drafts, then HD, end to end (issue 32): with `/settings drafts` on, a request naming no quality goes to the gateway
 * at the model's cheapest; a draft's card (here one picked from a card of four with U1) offers HD, which, above the
 * server's confirm threshold, asks first, then sends the gateway an edit of the draft at high quality with the same
 * prompt; /usage tells what drafting saved against making the four drafts at high quality. Real discord.js client,
 * both emulators, one store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatedMessage, InteractionHandle, SlashOption } from '../emulators/discord/index.js';
import { startHarness, type Harness } from './harness.js';
import { customIds, ephemeralError, lastText, quotaText, resultPost, settled, textOf } from './support.js';

const PROMPT = 'a lighthouse at dusk';
/** gpt-image-1's price per output token and per prompt token ($40 and $5 per million), and high's tokens at 1024×1024. */
const OUTPUT_USD = 40 / 1e6;
const PROMPT_USD = 5 / 1e6;
const HIGH_TOKENS = 4160;

describe('drafts, then HD, end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sqlite: true, env: { QUOTA_DEFAULT_LIMIT: '50', LOG_LEVEL: 'debug' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  const admin = async (command: string, options: SlashOption[] = []): Promise<string> => {
    const handle = h.discord.slash(command, options, { user: h.discord.fixtures.admin });
    await handle.waitFor((x) => x.edits.some((e) => e.status === 200) || x.acks.some((a) => a.type === 4));
    return lastText(handle);
  };
  const handled = (handle: InteractionHandle) =>
    h.waitForLog((e) => e['interactionId'] === handle.id && (e.msg === 'interaction handled' || e.msg === 'user-facing error'));
  const click = async (message: EmulatedMessage, code: string): Promise<InteractionHandle> => {
    const id = customIds(message).find((c) => c.endsWith(`:${code}`));
    expect(id, `button ${code}`).toBeDefined();
    const handle = h.discord.button(message, id!, { user: h.discord.fixtures.member });
    await handle.waitFor(settled);
    await handled(handle);
    return handle;
  };
  const codesOf = (message: EmulatedMessage) => customIds(message).map((id) => id.split(':').at(-1));
  const bytesOf = async (message: EmulatedMessage): Promise<Buffer> => Buffer.from(await (await fetch(message.attachments[0]!.url)).arrayBuffer());
  /** The dollar amounts of a line (`$0.0436`). */
  const dollars = (line: string): number[] => [...line.matchAll(/\$(\d+\.\d+)/g)].map((m) => Number(m[1]));

  it('drafts at the cheapest quality, remakes the chosen draft in HD after confirming its cost, and /usage shows the saving', async () => {
    expect(await admin('settings', [{ name: 'drafts', type: 1, options: [{ name: 'enabled', type: 5, value: true }] }])).toContain(
      'Drafts: requests without a quality are made at the cheapest quality, everywhere',
    );
    // Previews off: the figures below count no partial images.
    await admin('settings', [{ name: 'previews', type: 1, options: [{ name: 'enabled', type: 5, value: false }] }]);
    await admin('settings', [{ name: 'confirm-cost', type: 1, options: [{ name: 'usd', type: 10, value: 0.1 }] }]);

    const drafts = h.discord.slash(
      'imagine',
      [
        { name: 'prompt', type: 3, value: PROMPT },
        { name: 'model', type: 3, value: 'gpt-image-1' },
        { name: 'size', type: 3, value: '1024x1024' },
        { name: 'count', type: 4, value: 4 },
      ],
      { user: h.discord.fixtures.member },
    );
    await drafts.waitFor((x) => resultPost(x) !== undefined);
    await handled(drafts);
    expect(h.gateway.imageRequests().at(-1)?.json).toMatchObject({ model: 'gpt-image-1', quality: 'low', n: 4 });
    const card = drafts.lastMessage()!;
    expect(textOf(card)).toContain('· gpt-image-1 · 1024×1024 · low quality');
    expect(codesOf(card).slice(0, 4)).toEqual(['u0', 'u1', 'u2', 'u3']);

    // U1: the first draft as a card of its own, which offers HD (it was made at low quality).
    const picked = (await click(card, 'u0')).lastMessage()!;
    expect(codesOf(picked)).toContain('hd');
    const draft = await bytesOf(picked);

    // HD is estimated at high quality (about $0.22 with the draft as reference), above the $0.10 threshold: asked first.
    const requests = h.gateway.imageRequests().length;
    const hdId = customIds(picked).find((c) => c.endsWith(':hd'))!;
    const asked = h.discord.button(picked, hdId, { user: h.discord.fixtures.member });
    await handled(asked);
    const question = asked.lastMessage()!;
    expect(question.content).toContain("above this server's $0.10 threshold");
    expect(h.gateway.imageRequests()).toHaveLength(requests);
    const generate = (question.components![0] as { components: { custom_id: string }[] }).components[0]!;
    const confirm = h.discord.button(question, generate.custom_id, { user: h.discord.fixtures.member });
    await confirm.waitFor((x) => resultPost(x) !== undefined);
    await handled(confirm);

    const sent = h.gateway.imageRequests().at(-1)!;
    expect(sent.path).toBe('/v1/images/edits');
    expect(sent.form!.fields).toMatchObject({ model: 'gpt-image-1', prompt: PROMPT, quality: 'high', size: '1024x1024' });
    expect(sent.form!.files.find((f) => f.field.startsWith('image'))!.bytes.equals(draft)).toBe(true);
    const hdCard = resultPost(confirm)!.payload;
    expect(textOf(hdCard)).toContain(`Made in HD for <@${h.discord.fixtures.member.id}>`);
    // The HD result is not a draft: no HD on it.
    expect(customIds(hdCard).map((id) => id.split(':').at(-1))).not.toContain('hd');

    const report = await admin('usage');
    const imagesLine = report.split('\n').find((line) => line.startsWith('Images:'))!;
    expect(imagesLine).toContain('Images: 5 from 2 requests');
    const spent = dollars(imagesLine).reduce((sum, usd) => sum + usd, 0);
    const draftsLine = report.split('\n').find((line) => line.startsWith('Drafts saved'));
    expect(draftsLine).toMatch(/^Drafts saved \$\d+\.\d+ against high quality \(4 drafts, 1 made HD\)$/);
    // The four drafts at high quality (the prompt's 5 tokens each), less what the drafts and the HD cost.
    const wouldBe = 4 * (HIGH_TOKENS * OUTPUT_USD + 5 * PROMPT_USD);
    const [saved] = dollars(draftsLine!);
    expect(saved).toBeGreaterThan(0.3);
    expect(Math.abs(saved! - (wouldBe - spent))).toBeLessThanOrEqual(0.0002);
  });

  it("shows the member's and the role's drafting in /usage user: and role:, and the CSV marks the draft and the HD", async () => {
    const { member, vip } = h.discord.fixtures.users;
    const { artist } = h.discord.fixtures.guild.roles;
    const line = (report: string) => report.split('\n').find((l) => l.startsWith('Drafts saved'));
    const server = line(await admin('usage'));
    expect(server).toMatch(/\(4 drafts, 1 made HD\)$/);
    // The member made every draft and the HD, and holds the artist role: their line and the role's are the server's.
    expect(line(await admin('usage', [{ name: 'user', type: 6, value: member.id }]))).toBe(server);
    expect(line(await admin('usage', [{ name: 'role', type: 8, value: artist.id }]))).toBe(server);
    expect(line(await admin('usage', [{ name: 'user', type: 6, value: vip.id }]))).toBeUndefined();

    const handle = h.discord.slash('usage', [{ name: 'format', type: 3, value: 'csv' }], { user: h.discord.fixtures.admin });
    await handle.waitFor((x) => x.edits.some((e) => e.status === 200 && e.files.some((f) => f.filename.endsWith('.csv'))));
    const [header, ...rows] = handle.edits
      .flatMap((e) => e.files)
      .find((f) => f.filename.endsWith('.csv'))!
      .bytes.toString('utf8')
      .trimEnd()
      .split('\r\n')
      .map((l) => l.split(','));
    expect(header!.slice(-2)).toEqual(['drafting', 'high_quality_estimate_usd']);
    const at = (row: string[], name: string) => row[header!.indexOf(name)];
    expect(rows.map((row) => [at(row, 'command'), at(row, 'quality'), at(row, 'drafting')])).toEqual([
      ['imagine', 'low', 'draft'],
      ['edit', 'high', 'hd'],
    ]);
    // The four drafts at high quality, as /usage counts them (less what the draft and the HD cost: what it saved); nothing for the HD re-render.
    const wouldBe = Number(at(rows[0]!, 'high_quality_estimate_usd'));
    expect(Math.abs(wouldBe - 4 * (HIGH_TOKENS * OUTPUT_USD + 5 * PROMPT_USD))).toBeLessThanOrEqual(0.0002);
    const spent = rows.reduce((sum, row) => sum + Number(at(row, 'cost_usd')), 0);
    expect(Math.abs(wouldBe - spent - dollars(server!)[0]!)).toBeLessThanOrEqual(0.0001);
    expect(at(rows[1]!, 'high_quality_estimate_usd')).toBe('');
  });

  it('drafts only in the listed channels, and a member who names a quality gets it', async () => {
    const { general, nsfw } = h.discord.fixtures.guild.channels;
    const drafts = (options: SlashOption[]) => admin('settings', [{ name: 'drafts', type: 1, options }]);
    await admin('settings', [{ name: 'confirm-cost', type: 1, options: [] }]);
    await drafts([{ name: 'enabled', type: 5, value: false }]);
    expect(
      await drafts([
        { name: 'enabled', type: 5, value: true },
        { name: 'channel', type: 7, value: nsfw.id },
      ]),
    ).toContain(`Drafts: requests without a quality are made at the cheapest quality in <#${nsfw.id}>`);
    const sentQuality = async (channelId: string, options: SlashOption[] = []) => {
      const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: PROMPT }, { name: 'model', type: 3, value: 'gpt-image-1' }, ...options], {
        user: h.discord.fixtures.member,
        channelId,
      });
      await handle.waitFor((x) => resultPost(x) !== undefined);
      await handled(handle);
      return (h.gateway.imageRequests().at(-1)?.json as { quality?: string }).quality;
    };
    expect(await sentQuality(nsfw.id)).toBe('low');
    expect(await sentQuality(general.id)).toBeUndefined();
    expect(await sentQuality(nsfw.id, [{ name: 'quality', type: 3, value: 'medium' }])).toBe('medium');
    // One channel cannot be taken off drafts that are on everywhere.
    await drafts([{ name: 'enabled', type: 5, value: true }]);
    expect(
      await drafts([
        { name: 'enabled', type: 5, value: false },
        { name: 'channel', type: 7, value: general.id },
      ]),
    ).toContain('drafts are on for the whole server');
  });

  it('refunds an HD re-render that fails, and counts it nowhere', async () => {
    const { member } = h.discord.fixtures;
    // Drafts are on everywhere (the test before), and nothing asks for confirmation.
    const handle = h.discord.slash(
      'imagine',
      [
        { name: 'prompt', type: 3, value: PROMPT },
        { name: 'model', type: 3, value: 'gpt-image-1' },
      ],
      { user: member },
    );
    await handle.waitFor((x) => resultPost(x) !== undefined);
    await handled(handle);
    const card = handle.lastMessage()!;
    const quota = await quotaText(h.discord, member);
    h.gateway.enqueue({ type: 'error', preset: 'server_error', lang: 'en' });
    const hd = await click(card, 'hd');
    expect(ephemeralError(hd)).toContain('You were not charged');
    expect(h.gateway.imageRequests().at(-1)?.form?.fields).toMatchObject({ quality: 'high' });
    expect(await quotaText(h.discord, member)).toBe(quota);
    expect((await admin('usage')).split('\n').find((line) => line.startsWith('Drafts saved'))).toContain('(6 drafts, 1 made HD)');
  });
});
