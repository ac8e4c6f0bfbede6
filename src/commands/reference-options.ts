/**
 * Style and subject references and saved styles on /imagine and /edit (issue 32): the `style_ref`, `subject_ref` and
 * `preset` options, and the references and prompt they make. The references are sent in order (the member's own
 * images, the style reference, the subject reference, then the preset's images) to the gateway's edits endpoint, with
 * a prompt that says which image is which (core/style-presets.ts); the model's profile must take edits, which the
 * service checks (profile-rules.ts) like any edit's.
 */
import { ApplicationCommandOptionType, type Attachment, type AutocompleteInteraction, type APIApplicationCommandBasicOption } from 'discord.js';
import { UserFacingError } from '../errors.js';
import { phrase } from '../core/phrase.js';
import type { AttachmentRef } from '../core/jobs.js';
import { PRESET_NAME_MAX, withSuffix, type ReferenceRoles } from '../core/style-presets.js';
import type { StylePresets } from '../service/style-presets.js';
import { looksLikeImage, toRef, IMAGE_FILES } from './attachments.js';
import type { InteractionContext } from './command.js';

export const STYLE_REF_OPTION = {
  type: ApplicationCommandOptionType.Attachment,
  ...IMAGE_FILES,
  name: 'style_ref',
  description: 'An image whose style, palette and rendering to use (not its content)',
} as const satisfies APIApplicationCommandBasicOption;
export const SUBJECT_REF_OPTION = {
  type: ApplicationCommandOptionType.Attachment,
  ...IMAGE_FILES,
  name: 'subject_ref',
  description: 'An image of the subject to keep recognisable',
} as const satisfies APIApplicationCommandBasicOption;
export const PRESET_OPTION = {
  type: ApplicationCommandOptionType.String,
  name: 'preset',
  description: 'A saved style: its images and prompt suffix',
  autocomplete: true,
  max_length: PRESET_NAME_MAX,
} as const satisfies APIApplicationCommandBasicOption;

/** What a job's references and prompt become. */
export interface WithReferences {
  /** The member's prompt with the preset's suffix (the service adds which image is which when it sends it). */
  prompt: string;
  /** The references after the member's own images (none: nothing to add). */
  images: AttachmentRef[];
  roles: ReferenceRoles;
}

/** What the options hold: the attachments as Discord resolved them, and the preset's name. */
export interface ReferenceChoice {
  style?: Attachment | undefined;
  subject?: Attachment | undefined;
  preset?: string | undefined;
}

/** Refuses a reference that is not an image, before anything is deferred. */
export function checkReferenceAttachments(choice: ReferenceChoice): void {
  const bad = [choice.style, choice.subject].find((a) => a !== undefined && !looksLikeImage(a));
  if (bad) throw new UserFacingError('input.attachmentInvalid', { param: `\`${bad.name}\``, detail: phrase('detail.image.notEditable') });
}

/**
 * The references and prompt of `choice` after `ownImages` of the member's own; the preset is read from `presets`
 * (the member's first, then the server's).
 * @throws UserFacingError preset.notFound
 */
export async function withReferences(
  presets: Pick<StylePresets, 'resolve'> | undefined,
  member: { guildId: string | null; userId: string },
  prompt: string,
  choice: ReferenceChoice,
  ownImages: number,
): Promise<WithReferences> {
  const preset = choice.preset === undefined ? undefined : await resolve(presets, member, choice.preset);
  const images = [choice.style, choice.subject].filter((a) => a !== undefined).map(toRef);
  const roles = { style: choice.style !== undefined, subject: choice.subject !== undefined, presetImages: preset?.images.length ?? 0, ownImages };
  return { prompt: withSuffix(prompt, preset?.suffix), images: [...images, ...(preset?.images ?? [])], roles };
}

async function resolve(presets: Pick<StylePresets, 'resolve'> | undefined, member: { guildId: string | null; userId: string }, name: string) {
  if (!presets) throw new UserFacingError('preset.notFound', { param: name });
  return presets.resolve(member, name);
}

/** The preset option's suggestions, else the image options' (`others`). */
export function referenceAutocomplete(
  presets: Pick<StylePresets, 'names'> | undefined,
  others: (interaction: AutocompleteInteraction, ctx: InteractionContext) => Promise<void>,
): (interaction: AutocompleteInteraction, ctx: InteractionContext) => Promise<void> {
  return async (interaction, ctx) => {
    if (interaction.options.getFocused(true).name !== PRESET_OPTION.name) return others(interaction, ctx);
    await presetNameChoices(presets, interaction);
  };
}

/** Suggests the member's and the server's style names that contain what is typed. */
export async function presetNameChoices(presets: Pick<StylePresets, 'names'> | undefined, interaction: AutocompleteInteraction): Promise<void> {
  const typed = interaction.options.getFocused().trim().toLowerCase();
  const names = presets ? await presets.names({ guildId: interaction.guildId, userId: interaction.user.id }) : [];
  const matching = names.filter((name) => name.includes(typed)).slice(0, 25);
  await interaction.respond(matching.map((name) => ({ name, value: name })));
}
