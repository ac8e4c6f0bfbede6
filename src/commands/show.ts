/**
 * /show job:<id>: posts one of the member's own results again, here, as a card with its actions (discord/views/show-card.ts). The
 * job is looked up in the asker's history only (autocomplete offers only their jobs, and any other id is refused); the
 * images are fetched again from the original message (see discord/posted-images.ts for why). Like a result, the card
 * is a new message under the reply, which then points at it (discord/deferred-reply.ts says why).
 */
import { ApplicationCommandOptionType, ApplicationCommandType, AttachmentBuilder, type ChatInputCommandInteraction, PermissionFlagsBits } from 'discord.js';
import { UserFacingError } from '../errors.js';
import { DeferredReply } from '../discord/deferred-reply.js';
import { choiceName, showCard, shownFileDescription } from '../discord/views/show-card.js';
import type { HistoryEntry } from '../core/history-entries.js';
import type { MemberHistory } from '../service/member-history.js';
import type { PostedImage } from '../ports/posted-images.js';
import type { ShowPlace } from '../service/show-rules.js';
import { channelOf } from './channel-facts.js';
import type { ChatCommand, InteractionContext } from './command.js';
import { ownerOf } from '../core/history-entries.js';
import { AVAILABLE_EVERYWHERE } from './image-options.js';
import { memberCan } from './job-from-interaction.js';
import { chatInputData, readOptions } from './option-reader.js';

export const SHOW_DATA = chatInputData({
  type: ApplicationCommandType.ChatInput,
  name: 'show',
  description: 'Post one of your earlier results again, with its buttons',
  ...AVAILABLE_EVERYWHERE,
  options: [
    {
      type: ApplicationCommandOptionType.String,
      name: 'job',
      description: 'Which one (type to search your prompts)',
      required: true,
      autocomplete: true,
      max_length: 100,
    },
  ],
});

/** Creates /show. */
export function createShowCommand(deps: { history: Pick<MemberHistory, 'show' | 'search'> }): ChatCommand {
  return {
    kind: 'chat',
    data: SHOW_DATA,
    async execute(interaction, ctx) {
      const jobId = readOptions(interaction.options, SHOW_DATA.options).string('job').trim();
      await interaction.deferReply();
      const { entry, images: fetched, spoiler, release } = await deps.history.show(ownerOf(interaction), jobId, showPlace(interaction));
      try {
        await post(interaction, entry, fetched, spoiler, ctx);
      } finally {
        // The images' room in the memory budget, held since before they were downloaded.
        release();
      }
    },
    async autocomplete(interaction) {
      const entries = await deps.history.search(ownerOf(interaction), interaction.options.getFocused());
      await interaction.respond(entries.map((entry) => ({ name: choiceName(entry, interaction.locale), value: entry.jobId })));
    },
  };
}

/** Where /show is asked, from the interaction itself (channel-facts.ts) and the member's permissions there. */
function showPlace(interaction: ChatInputCommandInteraction): ShowPlace {
  const { parentChannelId, ageRestricted } = channelOf(interaction);
  if (!interaction.inGuild()) return { channelId: null, parentUnknown: false, ageRestricted: false, canAttachFiles: true };
  return {
    channelId: parentChannelId ?? interaction.channelId,
    parentUnknown: parentChannelId === null,
    ageRestricted,
    canAttachFiles: memberCan(interaction, PermissionFlagsBits.AttachFiles),
  };
}

/**
 * Posts the card of a result shown again, with those of its images that fit the interaction's upload limit, as
 * spoilers where the target channel's setting says (spoiler-uploads.ts; the card's gallery blurs them too).
 */
async function post(
  interaction: ChatInputCommandInteraction,
  entry: HistoryEntry,
  fetched: PostedImage[],
  spoiler: boolean,
  ctx: InteractionContext,
): Promise<void> {
  // discord.js types attachmentSizeLimit as always set, but copies it from the payload as is.
  const { attachmentSizeLimit } = interaction as { readonly attachmentSizeLimit?: number };
  const images = attachmentSizeLimit === undefined ? fetched : fetched.filter((image) => image.bytes.length <= attachmentSizeLimit);
  if (images.length === 0) throw new UserFacingError('history.resultGone');
  ctx.logger.info({ jobId: entry.jobId, images: images.length, left: fetched.length - images.length }, 'result shown again');
  const names = images.map((image) => image.filename);
  const card = showCard(entry, interaction.user.id, names, interaction.locale, { inServer: interaction.inGuild(), spoiler });
  // A card with new files is a new message under the reply, which then points at it (deferred-reply.ts).
  const reply = new DeferredReply(interaction.client.rest, interaction);
  const posted = await reply.post(
    {
      ...card,
      files: images.map((image) => new AttachmentBuilder(image.bytes, { name: image.filename, description: shownFileDescription(entry) })),
      allowedMentions: { parse: [] },
    },
    spoiler,
  );
  await reply.pointTo({ id: posted.id, channelId: posted.channel_id, guildId: interaction.guildId }, true);
}
