/**
 * /settings end to end (issue 17, first part): what admins set changes what the gateway receives, and who may
 * generate where. Real discord.js client against the Discord emulator, the real gateway client against the gateway
 * emulator, one store.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SlashOption } from '../emulators/discord/index.js';
import { startHarness, type Harness } from './harness.js';
import { ephemeralError, resultPost, lastText, quotaText, settled, spoilerUploads } from './support.js';

const prompt = { name: 'prompt', type: 3, value: 'a lighthouse at dusk' };

describe('/settings, end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { QUOTA_DEFAULT_LIMIT: '50', GATEWAY_PARTIAL_IMAGES: '1' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  const settings = async (sub: string, options: SlashOption[] = [], user = h.discord.fixtures.admin): Promise<string> => {
    const handle = h.discord.slash('settings', [{ name: sub, type: 1, options }], { user });
    await handle.waitFor((x) => x.edits.some((e) => e.status === 200) || x.acks.some((a) => a.type === 4));
    return lastText(handle);
  };
  const imagine = async (options: SlashOption[], ctx: { user?: typeof h.discord.fixtures.member; channelId?: string } = {}) => {
    const handle = h.discord.slash('imagine', [prompt, ...options], { user: ctx.user ?? h.discord.fixtures.member, channelId: ctx.channelId });
    await handle.waitFor(settled);
    return handle;
  };

  it('refuses every subcommand to a member without Manage Server, changing nothing', async () => {
    const text = await settings('max-count', [{ name: 'count', type: 4, value: 1 }], h.discord.fixtures.member);
    expect(text).toContain('Only members with the **Manage Server** permission can do that.');
    expect(await settings('show')).toContain("Most images per request: the bot's limit (10)");
  });

  it("fills in the server's defaults where the member gives none; the member's own choice wins", async () => {
    const answer = await settings('defaults', [
      { name: 'size', type: 3, value: '1536X1024' },
      { name: 'quality', type: 3, value: 'low' },
    ]);
    expect(answer).toContain('Defaults: size `1536x1024` · quality `low`');
    await imagine([]);
    expect(h.gateway.imageRequests().at(-1)?.json).toMatchObject({ size: '1536x1024', quality: 'low' });
    await imagine([{ name: 'quality', type: 3, value: 'high' }]);
    expect(h.gateway.imageRequests().at(-1)?.json).toMatchObject({ size: '1536x1024', quality: 'high' });
    await settings('defaults', [{ name: 'clear', type: 5, value: true }]);
    await imagine([]);
    expect(h.gateway.imageRequests().at(-1)?.json).not.toHaveProperty('quality');
  });

  it('refuses a model members may not use, naming the allowed ones, before anything is sent or charged; admins may', async () => {
    expect(await settings('models', [{ name: 'allowed', type: 3, value: 'gpt-image-1, gpt-image-1-mini' }])).toContain(
      'Models members may use: `gpt-image-1`, `gpt-image-1-mini`',
    );
    const quota = await quotaText(h.discord, h.discord.fixtures.member);
    const before = h.gateway.imageRequests().length;
    const refused = await imagine([{ name: 'model', type: 3, value: 'gpt-image-2' }]);
    expect(ephemeralError(refused)).toContain('This server allows only these models: gpt-image-1, gpt-image-1-mini.');
    expect(h.gateway.imageRequests().length).toBe(before);
    expect(await quotaText(h.discord, h.discord.fixtures.member)).toBe(quota);
    // Without a model, the first allowed one.
    await imagine([]);
    expect(h.gateway.imageRequests().at(-1)?.json).toMatchObject({ model: 'gpt-image-1' });
    const admin = await imagine([{ name: 'model', type: 3, value: 'gpt-image-2' }], { user: h.discord.fixtures.admin });
    expect(resultPost(admin)).toBeDefined();
    await settings('models', [{ name: 'allowed', type: 3, value: 'all' }]);
  });

  it('refuses more images than the server allows members', async () => {
    await settings('max-count', [{ name: 'count', type: 4, value: 2 }]);
    const before = h.gateway.imageRequests().length;
    const refused = await imagine([{ name: 'count', type: 4, value: 3 }]);
    expect(ephemeralError(refused)).toContain('This server allows at most 2 images per request.');
    expect(h.gateway.imageRequests().length).toBe(before);
    expect(resultPost(await imagine([{ name: 'count', type: 4, value: 2 }]))?.files).toHaveLength(2);
    await settings('max-count', [{ name: 'count', type: 4, value: 0 }]);
  });

  it('refuses members a size or quality above what the server allows, naming the limit; admins are not bound', async () => {
    expect(await settings('max-size', [{ name: 'size', type: 3, value: '1536X1024' }])).toContain('Largest size: 1536x1024');
    expect(await settings('max-quality', [{ name: 'quality', type: 3, value: 'medium' }])).toContain('highest quality: medium');
    const before = h.gateway.imageRequests().length;
    const big = await imagine([{ name: 'size', type: 3, value: '2048x1152' }]);
    expect(ephemeralError(big)).toContain("That size doesn't work: this server allows sizes up to 1536x1024 pixels. Allowed: auto, or at most 1536x1024.");
    const high = await imagine([{ name: 'quality', type: 3, value: 'high' }]);
    expect(ephemeralError(high)).toContain("That quality doesn't work: this server allows quality up to medium. Allowed: auto, low, medium.");
    expect(h.gateway.imageRequests().length).toBe(before);
    expect(
      resultPost(
        await imagine([
          { name: 'size', type: 3, value: '1024x1536' },
          { name: 'quality', type: 3, value: 'low' },
        ]),
      ),
    ).toBeDefined();
    const admin = await imagine(
      [
        { name: 'size', type: 3, value: '2048x1152' },
        { name: 'quality', type: 3, value: 'high' },
      ],
      { user: h.discord.fixtures.admin },
    );
    expect(resultPost(admin)).toBeDefined();
    await settings('max-size', [{ name: 'size', type: 3, value: 'any' }]);
    expect(await settings('max-quality', [{ name: 'quality', type: 3, value: 'any' }])).toContain('Largest size: any · highest quality: any');
  });

  it('allows generation only in the listed channels, naming them to a member elsewhere', async () => {
    const { general, nsfw } = h.discord.fixtures.guild.channels;
    expect(
      await settings('channels', [
        { name: 'mode', type: 3, value: 'only' },
        { name: 'channel1', type: 7, value: nsfw.id },
      ]),
    ).toContain(`Image generation: only in <#${nsfw.id}>`);
    const before = h.gateway.imageRequests().length;
    const refused = await imagine([], { channelId: general.id });
    expect(ephemeralError(refused)).toContain(`Image generation isn't available in this channel. You can use it in <#${nsfw.id}>.`);
    expect(h.gateway.imageRequests().length).toBe(before);
    expect(resultPost(await imagine([], { channelId: nsfw.id }))).toBeDefined();

    await settings('channels', [
      { name: 'mode', type: 3, value: 'except' },
      { name: 'channel1', type: 7, value: nsfw.id },
    ]);
    expect(ephemeralError(await imagine([], { channelId: nsfw.id }))).toContain(`You can use it anywhere except <#${nsfw.id}>.`);
    expect(resultPost(await imagine([], { channelId: general.id }))).toBeDefined();
    await settings('channels', [{ name: 'mode', type: 3, value: 'everywhere' }]);
  });

  it("decides moderation:low by the server's NSFW policy", async () => {
    const { general, nsfw } = h.discord.fixtures.guild.channels;
    const low = { name: 'moderation', type: 3, value: 'low' };
    // The default: age-restricted channels, and admins.
    expect(ephemeralError(await imagine([low], { channelId: general.id }))).toContain('`moderation:low` is only available in age-restricted channels');
    expect(resultPost(await imagine([low], { channelId: nsfw.id }))).toBeDefined();
    expect(h.gateway.imageRequests().at(-1)?.json).toMatchObject({ moderation: 'low' });

    const artist = h.discord.fixtures.guild.roles.artist.id;
    expect(
      await settings('nsfw', [
        { name: 'mode', type: 3, value: 'roles' },
        { name: 'role1', type: 8, value: artist },
      ]),
    ).toContain(`moderation:low: for <@&${artist}> (and admins), anywhere`);
    expect(resultPost(await imagine([low], { channelId: general.id }))).toBeDefined();
    const before = h.gateway.imageRequests().length;
    const other = await imagine([low], { user: h.discord.fixtures.users.member2, channelId: nsfw.id });
    expect(ephemeralError(other)).toContain(`\`moderation:low\` is only available to members with <@&${artist}> on this server.`);

    await settings('nsfw', [{ name: 'mode', type: 3, value: 'nowhere' }]);
    expect(ephemeralError(await imagine([low], { user: h.discord.fixtures.admin, channelId: nsfw.id }))).toContain(
      "This server doesn't allow `moderation:low`.",
    );
    expect(h.gateway.imageRequests().length).toBe(before);
    await settings('nsfw', [{ name: 'mode', type: 3, value: 'age-restricted' }]);
  });

  it('posts results in spoiler channels as spoilers, without previews', async () => {
    const { general } = h.discord.fixtures.guild.channels;
    expect(await settings('spoilers', [{ name: 'channel1', type: 7, value: general.id }])).toContain(`Spoilers: results in <#${general.id}>`);
    const handle = await imagine([], { channelId: general.id });
    expect(resultPost(handle)?.files.map((f) => f.filename)).toEqual(['a-lighthouse-at-dusk-1.png']);
    expect(spoilerUploads(resultPost(handle))).toEqual([true]);
    expect(h.gateway.imageRequests().at(-1)?.json).not.toHaveProperty('stream');
    await settings('spoilers');
    const plain = await imagine([], { channelId: general.id });
    expect(resultPost(plain)?.files.map((f) => f.filename)).toEqual(['a-lighthouse-at-dusk-1.png']);
    expect(spoilerUploads(resultPost(plain))).toEqual([false]);
  });

  it('asks for no stream when previews are off, and streams again when they are on', async () => {
    await settings('previews', [{ name: 'enabled', type: 5, value: false }]);
    await imagine([]);
    expect(h.gateway.imageRequests().at(-1)?.json).not.toHaveProperty('stream');
    expect(await settings('show')).toContain('Previews while generating: off');
    await settings('previews', [{ name: 'enabled', type: 5, value: true }]);
    await imagine([]);
    expect(h.gateway.imageRequests().at(-1)?.json).toMatchObject({ stream: true, partial_images: 1 });
  });

  it('tells the audit channel one line per job and per settings change, without prompts and without pings', async () => {
    const { nsfw: audit } = h.discord.fixtures.guild.channels;
    const earlier = new Set(h.discord.messages.keys());
    const postedIn = () => [...h.discord.messages.values()].filter((m) => m.channel_id === audit.id && !earlier.has(m.id));
    const linesIn = () => postedIn().map((m) => m.content);
    expect(await settings('audit', [{ name: 'channel', type: 7, value: audit.id }])).toContain(`Audit channel: <#${audit.id}>`);
    await vi.waitFor(() => expect(linesIn()).toHaveLength(1));
    expect(linesIn()[0]).toBe(`⚙️ <@${h.discord.fixtures.admin.id}> changed the settings (\`/settings audit\`)\nauditChannelId: \`unset\` → \`"${audit.id}"\``);

    const delivered = await imagine([{ name: 'quality', type: 3, value: 'low' }]);
    const resultId = delivered.lastMessage()?.id;
    await settings('max-count', [{ name: 'count', type: 4, value: 1 }]);
    await imagine([{ name: 'count', type: 4, value: 2 }]);
    await vi.waitFor(() => expect(linesIn()).toHaveLength(4));
    const [, job, change, refused] = linesIn();
    const member = h.discord.fixtures.member.id;
    const general = h.discord.fixtures.guild.channels.general.id;
    expect(job).toMatch(
      new RegExp(
        `^✅ delivered · <@${member}> · /imagine in <#${general}> · \`gpt-image-2\` · low · 1 of 1 image · \\[result\\]\\(https://discord.com/channels/\\d+/${general}/${resultId ?? 'missing'}\\)\\n-# job \\S+$`,
      ),
    );
    expect(change).toContain('maxCount: `unset` → `1`');
    expect(refused).toMatch(new RegExp(`^⛔ refused \\(settings.tooMany\\) · <@${member}> · /imagine in <#${general}> · \`gpt-image-2\` · 0 of 2 images`));
    expect(linesIn().join('\n')).not.toContain('a lighthouse');
    expect(postedIn().every((m) => m.mentions.length === 0)).toBe(true);

    // Quota changes are admin changes too.
    const { member2 } = h.discord.fixtures.users;
    const quota = async (sub: string, options: SlashOption[]) => {
      const handle = h.discord.slash('quota', [{ name: sub, type: 1, options }], { user: h.discord.fixtures.admin });
      await handle.waitFor((x) => x.edits.some((e) => e.status === 200));
    };
    await quota('set', [
      { name: 'limit', type: 4, value: 7 },
      { name: 'user', type: 6, value: member2.id },
      { name: 'period', type: 3, value: 'week' },
    ]);
    await quota('money', [{ name: 'usd', type: 10, value: 2.5 }]);
    await vi.waitFor(() => expect(linesIn()).toHaveLength(6));
    expect(linesIn()[4]).toBe(
      `⚙️ <@${h.discord.fixtures.admin.id}> changed \`/quota set\` for <@${member2.id}>\nlimit: \`unset\` → \`7\`\nperiod: \`unset\` → \`"week"\``,
    );
    expect(linesIn()[5]).toBe(
      `⚙️ <@${h.discord.fixtures.admin.id}> changed \`/quota money\` for the server\nusd: \`unset\` → \`2.5\`\nperiod: \`unset\` → \`"month"\``,
    );
    await quota('money-remove', []);
    await settings('max-count', [{ name: 'count', type: 4, value: 0 }]);
    await settings('audit');
  });

  it('writes what a member typed into the audit line literally: a hostile model name is no link there', async () => {
    const { nsfw: audit } = h.discord.fixtures.guild.channels;
    const earlier = new Set(h.discord.messages.keys());
    const linesIn = () => [...h.discord.messages.values()].filter((m) => m.channel_id === audit.id && !earlier.has(m.id)).map((m) => m.content);
    await settings('audit', [{ name: 'channel', type: 7, value: audit.id }]);
    await vi.waitFor(() => expect(linesIn()).toHaveLength(1));
    const hostile = 'x` **[Security notice: re-verify your admin account](https://evil.example/login)** `';
    const refused = await imagine([{ name: 'model', type: 3, value: hostile }]);
    expect(ephemeralError(refused)).toBeDefined();
    await vi.waitFor(() => expect(linesIn()).toHaveLength(2));
    const line = linesIn()[1]!.split('\n')[0]!;
    expect(line).toMatch(/^⛔ refused/);
    expect(line).toContain('`xˋ **[Security notice: re-verify your admin account](https://evil.example/login)');
    // The span is never closed early: the member's backticks are gone, and every backtick left pairs up.
    expect(line).not.toContain('x` **');
    expect((line.match(/`/g) ?? []).length % 2).toBe(0);
    await settings('audit');
  });

  it('sent nothing the platforms would reject', () => {
    expect(h.discord.specViolations).toEqual([]);
    expect(h.gateway.specViolations).toEqual([]);
  });
});
