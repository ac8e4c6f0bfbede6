/**
 * The prompt modals of the Edit button (under a result) and of the Edit image menu (on any message), in the
 * language of the member who clicked. Every text fits Discord's limits in every language (test/discord/views/modal-limits.test.ts).
 */
import type { APIModalInteractionResponseCallbackData } from 'discord.js';
import { t, translator } from '../../i18n/translate.js';
import { MAX_EDIT_IMAGES } from '../../core/image-request.js';
import { CUSTOM_IDS } from '../custom-ids.js';
import type { MessageImages } from '../message-images.js';
import { promptModal } from './prompt-modal.js';

/** The Edit button's modal, in the clicker's language: a new prompt, with this result as the reference. */
export function editResultModal(jobId: string, locale?: string | null): APIModalInteractionResponseCallbackData {
  const say = translator(locale);
  return promptModal(CUSTOM_IDS.edit.build({ jobId }), say('modal.editResult.title'), say('modal.editResult.note'), locale);
}

/**
 * The modal of Edit image, in the member's language, with what it will use and ignore ("2 images; 1 other attachment
 * ignored; 1 not on Discord ignored").
 */
export function editImageModal(
  customId: string,
  locale: string | null | undefined,
  used: number,
  beyond: number,
  { notImages, elsewhere }: Pick<MessageImages, 'notImages' | 'elsewhere'>,
): APIModalInteractionResponseCallbackData {
  const yes = (n: number) => (n > 0 ? 'yes' : 'no');
  const note = t(locale, 'modal.editImage.note', {
    images: used,
    hasBeyond: yes(beyond),
    beyond,
    max: MAX_EDIT_IMAGES,
    hasOthers: yes(notImages),
    others: notImages,
    hasElsewhere: yes(elsewhere),
    elsewhere,
  });
  return promptModal(customId, t(locale, 'modal.editImage.title'), note, locale);
}
