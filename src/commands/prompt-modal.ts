/**
 * The prompt modal used by Edit image and the Edit button, and reading its value back.
 */
import { ComponentType, TextInputStyle, type APIModalInteractionResponseCallbackData, type ModalSubmitInteraction } from 'discord.js';
import { UserFacingError } from '../errors.js';
import { shortenForDiscord } from '../discord/text.js';
import { MAX_PROMPT_OPTION_LENGTH } from './image-options.js';

const PROMPT_FIELD = 'prompt';

/** A modal with one paragraph input for the prompt (Label-wrapped, as Discord now recommends). */
export function promptModal(customId: string, title: string, note: string): APIModalInteractionResponseCallbackData {
  return {
    custom_id: customId,
    title: shortenForDiscord(title, 45),
    components: [
      {
        type: ComponentType.Label,
        label: 'Prompt',
        description: shortenForDiscord(`What should change? (${note})`, 100),
        component: { type: ComponentType.TextInput, custom_id: PROMPT_FIELD, style: TextInputStyle.Paragraph, max_length: 4000, min_length: 1, required: true },
      },
    ],
  };
}

/** The submitted prompt, trimmed; empty is refused. */
export function readPrompt(interaction: ModalSubmitInteraction): string {
  const prompt = interaction.fields.getTextInputValue(PROMPT_FIELD).trim();
  if (prompt.length === 0 || prompt.length > MAX_PROMPT_OPTION_LENGTH) {
    throw new UserFacingError('input.invalid', { param: 'prompt', detail: 'the prompt is empty' });
  }
  return prompt;
}
