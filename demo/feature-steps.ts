/**
 * The demo's steps for what issue 32 added: Use as style (a message context menu and its modal), /styles save from
 * a result, the admin's settings (drafts, the showcase channel), Make emoji (a button and its modal), ⭐ Favorite
 * (which posts to the showcase) and the admin's /usage with its chart. The ratio, preset and draft /imagine steps
 * and HD are plain imagine and click steps (demo-steps.ts).
 */
import { CREATE_GUILD_EXPRESSIONS, type InteractionHandle, type SlashOption } from '../test/emulators/discord/index.js';
import { Permissions } from '../test/emulators/discord/fixtures.js';
import { buttonOf, type DemoContext, type DemoStep } from './demo-context.js';

/** The modal a button or a menu opened: its custom id, once the bot answered with it (type 9). */
async function modalOf(handle: InteractionHandle): Promise<string> {
  const ack = await handle.waitForAck();
  const customId = ack.type === 9 ? ack.body?.data?.custom_id : undefined;
  if (customId === undefined) throw new Error(`expected a modal, got an answer of type ${ack.type}`);
  return customId;
}

/** Use as style on the previous result: the menu's modal asks for a prompt, and the submit makes an image in that style. */
export function useAsStyleStep(prompt: string): DemoStep {
  return {
    name: 'style',
    run: async (ctx) => {
      const target = ctx.last?.message;
      if (!target) throw new Error('Use as style needs a message with an image from an earlier step');
      ctx.say(`\n${ctx.member.username}: Apps → Use as style on the last result; the form asks for a prompt: "${prompt}"`);
      const modal = await modalOf(ctx.track(ctx.harness.discord.messageCommand('Use as style', target, { user: ctx.member })));
      return ctx.awaitResult(ctx.track(ctx.harness.discord.modalSubmit(modal, { prompt }, { user: ctx.member })), 'style');
    },
  };
}

/** `/styles save name:… image:… suffix:…` with the first image of the step named `from`; a side step. */
export function styleSaveStep(from: string, name: string, suffix: string): DemoStep {
  return {
    name: 'styles',
    run: async (ctx) => {
      const image = ctx.results.get(from)?.images[0];
      if (!image) throw new Error(`/styles save needs an image from the ${from} step`);
      const upload = ctx.harness.discord.uploadAttachment(image.bytes, image.filename, 'image/png');
      ctx.say(`\n${ctx.member.username}: /styles save name:"${name}" image:${image.filename} suffix:"${suffix}"`);
      const options: SlashOption[] = [
        {
          name: 'save',
          type: 1,
          options: [
            { name: 'name', type: 3, value: name },
            { name: 'image', type: 11, value: upload.id },
            { name: 'suffix', type: 3, value: suffix },
          ],
        },
      ];
      await ctx.awaitAnswer(ctx.slash('styles', options, { resolvedAttachments: [upload] }), 'styles');
      return undefined;
    },
  };
}

/** The admin runs `/settings {sub}` with `options`; a side step. */
function settingsStep(name: string, sub: string, options: SlashOption[], shown: string): DemoStep {
  return {
    name,
    run: async (ctx) => {
      ctx.say(`\n${ctx.admin.username} (admin): /settings ${sub}${shown}`);
      await ctx.awaitAnswer(ctx.slash('settings', [{ name: sub, type: 1, options }], { user: ctx.admin }), name);
      return undefined;
    },
  };
}

/** `/settings drafts enabled:…`: requests naming no quality are made at the cheapest, and their cards offer HD. */
export function drafts(enabled: boolean): DemoStep {
  return settingsStep('drafts', 'drafts', [{ name: 'enabled', type: 5, value: enabled }], ` enabled:${enabled}`);
}

/** `/settings showcase channel:#nsfw-art` (the emulated server's second channel): starred results are posted there. */
export function showcase(): DemoStep {
  return {
    name: 'showcase',
    run: (ctx) => {
      const channel = ctx.harness.discord.fixtures.guild.channels.nsfw;
      return settingsStep('showcase', 'showcase', [{ name: 'channel', type: 7, value: channel.id }], ` channel:#${channel.name}`).run(ctx);
    },
  };
}

/** Make emoji on the previous result: the modal asks for the name, and the emoji is added to the server; a side step. */
export function makeEmojiStep(emojiName: string): DemoStep {
  return {
    name: 'emoji',
    run: async (ctx) => {
      const { message, customId } = buttonOf(ctx.last?.message, 'em');
      // The server lets the member and the bot create expressions (Discord's Create Expressions permission).
      const guildId = ctx.harness.discord.fixtures.guild.id;
      ctx.harness.discord.setBotPermissions(guildId, Permissions.everyone | CREATE_GUILD_EXPRESSIONS);
      const memberPermissions = (Permissions.everyone | CREATE_GUILD_EXPRESSIONS).toString();
      ctx.say(`\n${ctx.member.username} clicks Make emoji; the form asks for its name: "${emojiName}"`);
      const modal = await modalOf(ctx.track(ctx.harness.discord.button(message, customId, { user: ctx.member, memberPermissions })));
      const fields = { name: emojiName };
      await ctx.awaitAnswer(ctx.track(ctx.harness.discord.modalSubmit(modal, fields, { user: ctx.member, memberPermissions, message })), 'emoji');
      return undefined;
    },
  };
}

/** ⭐ on the previous result: saved to the member's favorites and posted to the showcase, whose post is the result. */
export function starStep(): DemoStep {
  return {
    name: 'star',
    run: async (ctx: DemoContext) => {
      const { message, customId } = buttonOf(ctx.last?.message, 'fv');
      ctx.say(`\n${ctx.member.username} clicks ⭐`);
      const before = new Set(ctx.harness.discord.messages.keys());
      await ctx.awaitAnswer(ctx.track(ctx.harness.discord.button(message, customId, { user: ctx.member })), 'star');
      const showcaseId = ctx.harness.discord.fixtures.guild.channels.nsfw.id;
      const post = [...ctx.harness.discord.messages.values()].find((m) => !before.has(m.id) && m.channel_id === showcaseId);
      if (!post) throw new Error('⭐ posted nothing to the showcase channel');
      ctx.say(`  posted to #${ctx.harness.discord.fixtures.guild.channels.nsfw.name}: ${post.attachments.map((a) => a.filename).join(', ')}`);
      return ctx.saveImages(post, 'star');
    },
  };
}

/** The admin's `/usage`: the month's figures, with a chart of them attached. */
export function usageStep(): DemoStep {
  return {
    name: 'usage',
    run: async (ctx) => {
      ctx.say(`\n${ctx.admin.username} (admin): /usage`);
      return ctx.awaitAnswer(ctx.slash('usage', [], { user: ctx.admin }), 'usage');
    },
  };
}
