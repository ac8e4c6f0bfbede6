/**
 * /describe image:<attachment> and the *Describe image* message menu: the vision model describes the image and
 * writes four prompts (describe-service.ts); each **Imagine this** button starts a normal /imagine job with its
 * prompt, through startJob, so every gate applies to whoever clicks. Registered only with VISION_MODEL or
 * PROMPT_MODEL.
 */
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  type BaseInteraction,
  type RepliableInteraction,
  type RESTPostAPIContextMenuApplicationCommandsJSONBody,
} from 'discord.js';
import { UserFacingError } from '../errors.js';
import type { DescribeService } from '../service/describe-service.js';
import type { AttachmentRef } from '../core/jobs.js';
import { describeCard } from '../discord/views/result-card.js';
import { CUSTOM_IDS } from '../discord/custom-ids.js';
import { component, type ChatCommand, type ComponentHandler, type InteractionContext, type MessageCommand } from './command.js';
import { looksLikeImage, toRef, IMAGE_FILES } from './attachments.js';
import { AVAILABLE_EVERYWHERE } from './image-options.js';
import { deferInBackground, startJob, type ImageCommandDeps } from './image-jobs.js';
import { findMessageImages } from '../discord/message-images.js';
import { channelOf } from './channel-facts.js';
import { subjectOf } from './job-from-interaction.js';
import { phrase } from '../core/phrase.js';
import { chatInputData, readOptions } from './option-reader.js';

export const DESCRIBE_DATA = chatInputData({
  type: ApplicationCommandType.ChatInput,
  name: 'describe',
  description: 'Describe an image and suggest four prompts for it',
  options: [
    { type: ApplicationCommandOptionType.Attachment, ...IMAGE_FILES, name: 'image', description: 'The image (PNG, JPEG, WebP or GIF)', required: true },
  ],
  ...AVAILABLE_EVERYWHERE,
});

export const DESCRIBE_MENU_DATA = {
  type: ApplicationCommandType.Message,
  name: 'Describe image',
  ...AVAILABLE_EVERYWHERE,
} satisfies RESTPostAPIContextMenuApplicationCommandsJSONBody;

/** What describe needs. */
export type DescribeDeps = ImageCommandDeps & {
  describe: Pick<DescribeService, 'describe' | 'prompt'>;
  /** Whether the bot may download from `url` (DISCORD_CDN_HOSTS). */
  isAllowedImageUrl(url: string): boolean;
};

/** Creates /describe and the Describe image menu. */
export function createDescribeCommands(deps: DescribeDeps): [ChatCommand, MessageCommand] {
  return [
    {
      kind: 'chat',
      data: DESCRIBE_DATA,
      async execute(interaction, ctx) {
        const image = readOptions(interaction.options, DESCRIBE_DATA.options).attachment('image');
        if (!looksLikeImage(image) && !/gif/i.test(image.contentType ?? image.name))
          throw new UserFacingError('input.attachmentInvalid', { param: '`image`', detail: phrase('detail.image.notDescribable') });
        await answer(interaction, ctx, deps, toRef(image));
      },
    },
    {
      kind: 'message',
      data: DESCRIBE_MENU_DATA,
      async execute(interaction, ctx) {
        const image = findMessageImages(interaction.targetMessage, (url) => deps.isAllowedImageUrl(url)).images[0];
        if (!image) throw new UserFacingError('input.noImages');
        await answer(interaction, ctx, deps, image);
      },
    },
  ];
}

/** The Imagine this buttons. */
export function createDescribeButtons(deps: DescribeDeps): ComponentHandler {
  return component(CUSTOM_IDS.describe, {
    async button(interaction, { id, index }, ctx) {
      deferInBackground(interaction, ctx);
      const prompt = await deps.describe.prompt(id, index);
      if (prompt === undefined) throw new UserFacingError('button.expired');
      ctx.logger.info({ describeId: id, index }, 'imagine from a description');
      await startJob(interaction, ctx, deps, 'imagine', { prompt });
    },
  });
}

async function answer(interaction: RepliableInteraction & BaseInteraction, ctx: InteractionContext, deps: DescribeDeps, image: AttachmentRef): Promise<void> {
  deferInBackground(interaction, ctx);
  const { parentChannelId } = channelOf(interaction);
  const subject = subjectOf(interaction);
  const place = {
    guildId: subject.guildId,
    roleIds: subject.roleIds,
    booster: subject.booster,
    channelId: parentChannelId ?? interaction.channelId,
    userId: interaction.user.id,
  };
  const described = await deps.describe.describe({ ...place, parentUnknown: parentChannelId === null }, image);
  await ctx.acknowledgement;
  await interaction.editReply({ ...describeCard(described, interaction.locale), allowedMentions: { parse: [] } });
}
