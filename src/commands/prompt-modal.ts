/**
 * The prompt modal used by Edit image and the Edit button, and reading its value back with the service's prompt rule.
 */
import { ComponentType, TextInputStyle, type APIModalInteractionResponseCallbackData, type ModalSubmitInteraction } from 'discord.js';
import { UserFacingError } from '../errors.js';
import { shortenForDiscord } from '../discord/text.js';
import { translator, type Translate } from '../i18n/translate.js';
import { Prompt } from '../core/image-request.js';
import { issueDetail } from './issue-detail.js';

/** The custom id of the prompt's text input, in this modal and in the actions' modals. */
export const PROMPT_FIELD = 'prompt';

/**
 * A modal with one paragraph input for the prompt (Label-wrapped, as Discord now recommends), its label and
 * description in `locale`'s language (the clicking member's); `title` and `note` come written in it.
 */
export function promptModal(customId: string, title: string, note: string, locale?: string | null): APIModalInteractionResponseCallbackData {
  const say = translator(locale);
  return {
    custom_id: customId,
    title: shortenForDiscord(title, 45),
    components: [
      // A long note (every kind of ignored attachment) may be cut short: Discord allows 100 characters here.
      promptField(say, shortenForDiscord(say('modal.prompt.whatChanges', { note }), 100)),
    ],
  };
}

/** The prompt's paragraph input, Label-wrapped, with `description` under its label and `value` filled in (if any). */
export function promptField(say: Translate, description: string, value?: string) {
  return {
    type: ComponentType.Label as const,
    label: say('modal.prompt.label'),
    description,
    component: {
      type: ComponentType.TextInput as const,
      custom_id: PROMPT_FIELD,
      style: TextInputStyle.Paragraph,
      max_length: 4000,
      min_length: 1,
      required: true,
      ...(value === undefined ? {} : { value: shortenForDiscord(value, 4000) }),
    },
  };
}

/** The submitted prompt, trimmed; a blank one is refused. */
export function readPrompt(interaction: ModalSubmitInteraction): string {
  const parsed = Prompt.safeParse(interaction.fields.getTextInputValue(PROMPT_FIELD));
  if (!parsed.success) throw new UserFacingError('input.invalid', { param: 'prompt', detail: issueDetail(parsed.error.issues[0]) });
  return parsed.data;
}
