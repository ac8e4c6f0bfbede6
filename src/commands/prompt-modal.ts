/**
 * Reading the prompt modal's value back (the modal: discord/views/prompt-modal.ts) with the service's prompt rule.
 */
import type { ModalSubmitInteraction } from 'discord.js';
import { UserFacingError } from '../errors.js';
import { PROMPT_FIELD } from '../discord/views/prompt-modal.js';
import { Prompt } from '../core/image-request.js';
import { issueDetail } from './issue-detail.js';

/** The submitted prompt, trimmed; a blank one is refused. */
export function readPrompt(interaction: ModalSubmitInteraction): string {
  const parsed = Prompt.safeParse(interaction.fields.getTextInputValue(PROMPT_FIELD));
  if (!parsed.success) throw new UserFacingError('input.invalid', { param: 'prompt', detail: issueDetail(parsed.error.issues[0]) });
  return parsed.data;
}
