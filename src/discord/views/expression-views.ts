/**
 * Make emoji and Make sticker (issue 32): the modal that asks for the name (and a sticker's tags and description),
 * filled in with a suggestion from the prompt, and the answer once it is added; in the clicking member's language.
 */
import { ComponentType, TextInputStyle, type APIModalInteractionResponseCallbackData } from 'discord.js';
import type { ExpressionKind } from '../../core/expressions.js';
import { translator } from '../../i18n/translate.js';
import { ACTIONS, CUSTOM_IDS } from '../custom-ids.js';
import { inertText } from '../text.js';
import { textCard, type CardPayload } from './result-card.js';

export const NAME_FIELD = 'name';
export const TAGS_FIELD = 'tags';
export const DESCRIPTION_FIELD = 'description';

/** The action code of each kind. */
export const EXPRESSION_CODES = { emoji: ACTIONS.makeEmoji, sticker: ACTIONS.makeSticker } as const;

/** A short text input, Label-wrapped. */
function input(customId: string, label: string, description: string, limits: { min: number; max: number }, value: string | undefined) {
  return {
    type: ComponentType.Label as const,
    label,
    description,
    component: {
      type: ComponentType.TextInput as const,
      custom_id: customId,
      style: TextInputStyle.Short,
      min_length: limits.min,
      max_length: limits.max,
      required: limits.min > 0,
      ...(value === undefined || value === '' ? {} : { value }),
    },
  };
}

/** The modal of Make emoji or Make sticker on the result `jobId`, its name filled in with `suggestion`. */
export function expressionModal(jobId: string, kind: ExpressionKind, suggestion: string, locale?: string | null): APIModalInteractionResponseCallbackData {
  const say = translator(locale);
  const custom_id = CUSTOM_IDS.action.build({ jobId, code: EXPRESSION_CODES[kind] });
  if (kind === 'emoji')
    return {
      custom_id,
      title: say('modal.emoji.title'),
      components: [input(NAME_FIELD, say('modal.emoji.name'), say('modal.emoji.nameDescription'), { min: 2, max: 32 }, suggestion)],
    };
  return {
    custom_id,
    title: say('modal.sticker.title'),
    components: [
      input(NAME_FIELD, say('modal.sticker.name'), say('modal.sticker.nameDescription'), { min: 2, max: 30 }, suggestion.slice(0, 30)),
      input(TAGS_FIELD, say('modal.sticker.tags'), say('modal.sticker.tagsDescription'), { min: 2, max: 200 }, suggestion.replaceAll('_', ' ')),
      input(DESCRIPTION_FIELD, say('modal.sticker.description'), say('modal.sticker.descriptionDescription'), { min: 0, max: 100 }, undefined),
    ],
  };
}

/** The answer once the emoji or sticker is added: the emoji itself (`<:name:id>`), or the sticker's name. */
export function expressionAddedCard(kind: ExpressionKind, added: { id: string; name: string }, locale?: string | null): CardPayload {
  const say = translator(locale);
  // An emoji's name is letters, digits and underscores only (core/expressions.ts); a sticker's is the member's text.
  const line =
    kind === 'emoji'
      ? say('expression.emojiAdded', { emoji: `<:${added.name}:${added.id}>`, name: added.name })
      : say('expression.stickerAdded', { name: inertText(added.name, 60) });
  return textCard([line]);
}
