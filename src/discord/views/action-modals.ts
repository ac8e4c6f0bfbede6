/**
 * The modals of two actions on a result (image-actions.ts): Remix (the prompt and main parameters, filled in) and
 * Vary region (the cells of a 3×3 grid, and what to put there), written in the language of the member who clicked.
 * Every text fits Discord's limits in every language (test/discord/views/modal-limits.test.ts).
 */
import { ComponentType, TextInputStyle, type APIModalInteractionResponseCallbackData } from 'discord.js';
import { ACTIONS, CUSTOM_IDS } from '../custom-ids.js';
import { translator } from '../../i18n/translate.js';
import type { MessageKey } from '../../i18n/locales.js';
import type { GenerateRequest } from '../../core/image-request.js';
import { promptField } from './prompt-modal.js';
import { sizeText } from '../../core/sizes.js';

export const SIZE_FIELD = 'size';
export const QUALITY_FIELD = 'quality';
export const MODE_FIELD = 'mode';
export const CELLS_FIELD = 'cells';

/** The names of the 3×3 grid's cells, row by row (the cell number is the option's value). */
const CELL_NAMES: readonly MessageKey[] = [
  'modal.region.topLeft',
  'modal.region.top',
  'modal.region.topRight',
  'modal.region.left',
  'modal.region.centre',
  'modal.region.right',
  'modal.region.bottomLeft',
  'modal.region.bottom',
  'modal.region.bottomRight',
];

/** Remix: the prompt and main parameters, filled in; a new image, or an edit of this one. */
export function remixModal(jobId: string, request: GenerateRequest, locale?: string | null): APIModalInteractionResponseCallbackData {
  const say = translator(locale);
  const short = (customId: string, label: string, value: string | undefined, placeholder: string) => ({
    type: ComponentType.Label as const,
    label,
    component: {
      type: ComponentType.TextInput as const,
      custom_id: customId,
      style: TextInputStyle.Short,
      required: false,
      max_length: 20,
      placeholder,
      ...(value === undefined ? {} : { value }),
    },
  });
  return {
    custom_id: CUSTOM_IDS.action.build({ jobId, code: ACTIONS.remix }),
    title: say('button.remix'),
    components: [
      promptField(say, say('modal.remix.prompt'), request.prompt),
      short(SIZE_FIELD, say('modal.remix.size'), request.size && sizeText(request.size), say('modal.remix.sizePlaceholder')),
      short(QUALITY_FIELD, say('modal.remix.quality'), request.quality, say('modal.remix.qualityPlaceholder')),
      {
        type: ComponentType.Label,
        label: say('modal.remix.startFrom'),
        component: {
          type: ComponentType.StringSelect,
          custom_id: MODE_FIELD,
          options: [
            { label: say('modal.remix.newImage'), value: 'new', default: true },
            { label: say('modal.remix.thisImage'), value: 'edit' },
          ],
        },
      },
    ],
  };
}

/** Vary region: the cells of a 3×3 grid to change, and what to put there. */
export function regionModal(jobId: string, prompt: string, locale?: string | null): APIModalInteractionResponseCallbackData {
  const say = translator(locale);
  return {
    custom_id: CUSTOM_IDS.action.build({ jobId, code: ACTIONS.region }),
    title: say('modal.region.title'),
    components: [
      {
        type: ComponentType.Label,
        label: say('modal.region.cells'),
        description: say('modal.region.cellsDescription'),
        component: {
          type: ComponentType.StringSelect,
          custom_id: CELLS_FIELD,
          min_values: 1,
          max_values: 9,
          options: CELL_NAMES.map((key, cell) => ({ label: say(key), value: String(cell) })),
        },
      },
      promptField(say, say('modal.region.prompt'), prompt),
    ],
  };
}
