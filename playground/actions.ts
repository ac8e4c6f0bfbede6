/**
 * What a person does on the playground page, as the Discord emulator dispatches it to the bot: a slash command (with
 * uploaded files), a button or select on a message, a modal's submit, an app command on a message. Each arrives as a
 * JSON body, checked here (zod), and carries the actor: who acts, with which roles, in which language and channel.
 */
import { z } from 'zod';
import type { Harness } from '../test/e2e/harness.js';
import { allUsers } from '../test/emulators/discord/fixtures.js';
import type { Attachment, InteractionContext, InteractionHandle, SlashOption } from '../test/emulators/discord/index.js';

/** Who acts: a fixture member, the roles they hold (by name; unset: their own), their client language, the channel. */
const ActorSchema = z.object({
  userId: z.string(),
  roles: z.array(z.enum(['artist', 'vip', 'admin'])).optional(),
  locale: z.string().min(2).max(10).default('en-US'),
  channelId: z.string().optional(),
});

interface SlashOptionInput {
  name: string;
  type: number;
  value?: string | number | boolean | undefined;
  focused?: boolean | undefined;
  options?: SlashOptionInput[] | undefined;
}

const SlashOptionSchema: z.ZodType<SlashOptionInput> = z.lazy(() =>
  z.object({
    name: z.string().min(1).max(32),
    type: z.number().int().min(1).max(11),
    value: z.union([z.string(), z.number(), z.boolean()]).optional(),
    focused: z.boolean().optional(),
    options: z.array(SlashOptionSchema).optional(),
  }),
);

/** A file picked in the page, base64: an attachment option's value is its index in `uploads`. */
const UploadSchema = z.object({ filename: z.string().min(1).max(200), contentType: z.string().max(100), data: z.base64() });

export const CommandRequestSchema = z.object({
  name: z.string().min(1).max(32),
  options: z.array(SlashOptionSchema).default([]),
  uploads: z.array(UploadSchema).max(10).default([]),
  actor: ActorSchema,
});

/** An autocomplete: the options typed so far, one of them `focused` (no files). */
export const AutocompleteRequestSchema = z.object({ name: z.string().min(1).max(32), options: z.array(SlashOptionSchema), actor: ActorSchema });

export const ComponentRequestSchema = z.object({
  messageId: z.string(),
  customId: z.string().min(1).max(100),
  /** A select's chosen values; absent for a button. */
  values: z.array(z.string()).optional(),
  actor: ActorSchema,
});

export const ModalRequestSchema = z.object({
  customId: z.string().min(1).max(100),
  /** The message whose component opened the modal, if one did. */
  messageId: z.string().optional(),
  fields: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  actor: ActorSchema,
});

export const MessageCommandRequestSchema = z.object({ name: z.string().min(1).max(32), messageId: z.string(), actor: ActorSchema });

type Actor = z.infer<typeof ActorSchema>;

/** How long an autocomplete waits for the bot's choices (Discord gives it 3 s). */
const AUTOCOMPLETE_TIMEOUT_MS = 3_000;

/** A request the page sent that names something that is not there (a member, a message). */
export class PlaygroundRequestError extends Error {}

/** Dispatches the page's actions through the emulator; `track` hands each interaction to the live channel. */
export function playgroundActions(harness: Harness, track: (handle: InteractionHandle) => InteractionHandle) {
  const { discord } = harness;
  const { guild } = discord.fixtures;

  const context = (actor: Actor): InteractionContext => {
    const user = allUsers(discord.fixtures).find((u) => u.id === actor.userId);
    if (!user) throw new PlaygroundRequestError(`no member ${actor.userId}`);
    const channels = [guild.channels.general.id, guild.channels.nsfw.id];
    if (actor.channelId !== undefined && !channels.includes(actor.channelId)) throw new PlaygroundRequestError(`no channel ${actor.channelId}`);
    return {
      user,
      guild,
      channelId: actor.channelId ?? guild.channels.general.id,
      locale: actor.locale,
      ...(actor.roles ? { roles: actor.roles.map((name) => guild.roles[name].id) } : {}),
    };
  };

  const message = (id: string) => {
    const found = discord.messages.get(id);
    if (!found) throw new PlaygroundRequestError(`no message ${id}`);
    return found;
  };

  return {
    command(body: z.infer<typeof CommandRequestSchema>): InteractionHandle {
      const ctx = context(body.actor);
      const uploads: Attachment[] = body.uploads.map((u) => discord.uploadAttachment(Buffer.from(u.data, 'base64'), u.filename, u.contentType || undefined));
      const withFiles = (options: readonly SlashOptionInput[]): SlashOption[] =>
        options.map((option) => {
          if (option.options) return { name: option.name, type: option.type, options: withFiles(option.options) };
          if (option.type !== 11) return { name: option.name, type: option.type, value: option.value };
          const upload = uploads[Number(option.value)];
          if (!upload) throw new PlaygroundRequestError(`option ${option.name} names no uploaded file`);
          return { name: option.name, type: 11, value: upload.id };
        });
      return track(discord.slash(body.name, withFiles(body.options), { ...ctx, resolvedAttachments: uploads }));
    },
    /** Asks the bot for the focused option's choices; not tracked (an autocomplete leaves no message). */
    async autocomplete(body: z.infer<typeof AutocompleteRequestSchema>): Promise<{ name: string; value: string | number }[]> {
      const handle = discord.autocomplete(body.name, body.options, context(body.actor));
      await handle.waitFor((h) => h.acks.some((ack) => ack.type === 8), AUTOCOMPLETE_TIMEOUT_MS);
      return handle.acks.find((ack) => ack.type === 8)?.body?.data?.choices ?? [];
    },
    component(body: z.infer<typeof ComponentRequestSchema>): InteractionHandle {
      const ctx = context(body.actor);
      const target = message(body.messageId);
      return track(body.values ? discord.select(target, body.customId, body.values, ctx) : discord.button(target, body.customId, ctx));
    },
    modal(body: z.infer<typeof ModalRequestSchema>): InteractionHandle {
      const ctx = context(body.actor);
      const source = body.messageId === undefined ? undefined : message(body.messageId);
      return track(discord.modalSubmit(body.customId, body.fields, { ...ctx, message: source }));
    },
    messageCommand(body: z.infer<typeof MessageCommandRequestSchema>): InteractionHandle {
      return track(discord.messageCommand(body.name, message(body.messageId), context(body.actor)));
    },
  };
}
