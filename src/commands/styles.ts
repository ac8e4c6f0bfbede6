/**
 * /styles save, /styles list and /styles delete (issue 32): a member's saved styles (a name, up to three images and a
 * prompt suffix) and, for members with Manage Server, the server's (`scope:server`) for everyone. Answers are only
 * the member's; the service checks the bounds, the rate limit and the permission.
 */
import { ApplicationCommandOptionType, ApplicationCommandType, MessageFlags, PermissionFlagsBits, type APIApplicationCommandBasicOption } from 'discord.js';
import { UserFacingError } from '../errors.js';
import { phrase } from '../core/phrase.js';
import { PRESET_NAME_MAX, PRESET_SUFFIX_MAX, type PresetScope } from '../core/style-presets.js';
import type { StylePresets } from '../service/style-presets.js';
import { presetDeletedText, presetListText, presetSavedText } from '../discord/views/styles-text.js';
import type { ChatCommand } from './command.js';
import { looksLikeImage, toRef, IMAGE_FILES } from './attachments.js';
import { AVAILABLE_EVERYWHERE } from './image-options.js';
import { memberCan } from './job-from-interaction.js';
import { chatInputData, readSubcommand, subcommandOf } from './option-reader.js';
import { presetNameChoices } from './reference-options.js';

const NAME_OPTION = {
  type: ApplicationCommandOptionType.String,
  name: 'name',
  description: 'The style name: letters a-z, digits, space, - and _',
  required: true as const,
  max_length: PRESET_NAME_MAX,
  autocomplete: true,
} as const satisfies APIApplicationCommandBasicOption;
const SCOPE_OPTION = {
  type: ApplicationCommandOptionType.String,
  name: 'scope',
  description: "Yours (default), or the server's for everyone (Manage Server)",
  choices: [
    { name: 'me', value: 'me' },
    { name: 'server', value: 'server' },
  ],
} as const satisfies APIApplicationCommandBasicOption;
const IMAGE_NAMES = ['image', 'image2', 'image3'] as const;

export const STYLES_DATA = chatInputData({
  type: ApplicationCommandType.ChatInput,
  name: 'styles',
  description: 'Saved styles: reference images and a prompt suffix to reuse',
  ...AVAILABLE_EVERYWHERE,
  options: [
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'save',
      description: 'Save a style from up to three images and a prompt suffix',
      options: [
        { ...NAME_OPTION, autocomplete: false },
        { type: ApplicationCommandOptionType.Attachment, ...IMAGE_FILES, name: 'image', description: 'A style reference image' },
        { type: ApplicationCommandOptionType.Attachment, ...IMAGE_FILES, name: 'image2', description: 'Another style reference image' },
        { type: ApplicationCommandOptionType.Attachment, ...IMAGE_FILES, name: 'image3', description: 'Another style reference image' },
        { type: ApplicationCommandOptionType.String, name: 'suffix', description: 'Words added to the end of every prompt', max_length: PRESET_SUFFIX_MAX },
        SCOPE_OPTION,
      ],
    },
    { type: ApplicationCommandOptionType.Subcommand, name: 'list', description: "Your saved styles and this server's (only you see this)" },
    { type: ApplicationCommandOptionType.Subcommand, name: 'delete', description: 'Delete a saved style', options: [NAME_OPTION, SCOPE_OPTION] },
  ],
});

/** What /styles needs. */
export interface StylesDeps {
  presets: Pick<StylePresets, 'save' | 'list' | 'delete' | 'names'>;
}

const scopeOf = (value: string | undefined): PresetScope => (value === 'server' ? 'server' : 'member');

/** Creates /styles. */
export function createStylesCommand(deps: StylesDeps): ChatCommand {
  return {
    kind: 'chat',
    data: STYLES_DATA,
    async execute(interaction, ctx) {
      const sub = subcommandOf(interaction.options, STYLES_DATA);
      const member = {
        guildId: interaction.guildId,
        userId: interaction.user.id,
        manager: memberCan(interaction, PermissionFlagsBits.ManageGuild),
        locale: interaction.guildLocale,
      };
      if (sub === 'save') {
        const read = readSubcommand(interaction.options, STYLES_DATA, 'save');
        const images = IMAGE_NAMES.map((name) => read.attachment(name)).filter((a) => a !== undefined);
        const bad = images.find((a) => !looksLikeImage(a));
        if (bad) throw new UserFacingError('input.attachmentInvalid', { param: `\`${bad.name}\``, detail: phrase('detail.image.notEditable') });
        const scope = scopeOf(read.string('scope'));
        await interaction.deferReply({ flags: MessageFlags.Ephemeral });
        const saved = await deps.presets.save(member, { scope, name: read.string('name'), suffix: read.string('suffix') ?? '', images: images.map(toRef) });
        ctx.logger.info({ scope, images: saved.images }, 'style saved');
        await interaction.editReply({ content: presetSavedText(saved, scope === 'server', interaction.locale), allowedMentions: { parse: [] } });
        return;
      }
      await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      if (sub === 'list') {
        await interaction.editReply({ content: presetListText(await deps.presets.list(member), interaction.locale), allowedMentions: { parse: [] } });
        return;
      }
      const read = readSubcommand(interaction.options, STYLES_DATA, 'delete');
      await deps.presets.delete(member, scopeOf(read.string('scope')), read.string('name'));
      ctx.logger.info('style deleted');
      await interaction.editReply({ content: presetDeletedText(read.string('name'), interaction.locale), allowedMentions: { parse: [] } });
    },
    autocomplete: (interaction) => presetNameChoices(deps.presets, interaction),
  };
}
