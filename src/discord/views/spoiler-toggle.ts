/**
 * Reveal and Hide on a card posted as a spoiler (issue 32): the button under a spoiler card, and the same card with its
 * gallery's (and file components') spoiler flipped and the button turned into the other one. The card is re-rendered
 * from the components it has, so nothing else of it changes and its files stay the ones it was posted with. Pure.
 */
import {
  ButtonStyle,
  ComponentType,
  type APIButtonComponent,
  type APIComponentInContainer,
  type APIComponentInMessageActionRow,
  type APIMessageTopLevelComponent,
} from 'discord.js';
import { translator } from '../../i18n/translate.js';
import { CUSTOM_IDS, splitCustomId } from '../custom-ids.js';

/** What a click on the button does: `show` (Reveal) on a blurred card, `hide` (Hide) on a revealed one. */
export type SpoilerToggle = 'show' | 'hide';

/** The Reveal (`show`) or Hide (`hide`) button of `jobId`'s card, labelled in `locale`'s language. */
export function spoilerButton(jobId: string, to: SpoilerToggle, locale?: string | null): APIButtonComponent {
  const say = translator(locale);
  return {
    type: ComponentType.Button,
    style: ButtonStyle.Secondary,
    custom_id: CUSTOM_IDS.spoiler.build({ jobId, to }),
    label: say(to === 'show' ? 'button.reveal' : 'button.hide'),
    emoji: { name: to === 'show' ? '👁️' : '🙈' },
  };
}

/**
 * `components` (a card as posted) once its requester clicked `to`: its images blurred again (`hide`) or shown
 * (`show`), and its Reveal/Hide button the other one.
 */
export function spoilerToggled(
  components: readonly APIMessageTopLevelComponent[],
  jobId: string,
  to: SpoilerToggle,
  locale?: string | null,
): APIMessageTopLevelComponent[] {
  const spoiler = to === 'hide';
  const next = spoilerButton(jobId, spoiler ? 'show' : 'hide', locale);
  return components.map((component) => {
    if (component.type === ComponentType.Container) return { ...component, components: component.components.map((inner) => withSpoiler(inner, spoiler)) };
    if (component.type === ComponentType.ActionRow) return { ...component, components: component.components.map((c) => (isToggle(c) ? next : c)) };
    return withSpoiler(component, spoiler);
  });
}

function withSpoiler<C extends APIComponentInContainer | APIMessageTopLevelComponent>(component: C, spoiler: boolean): C {
  if (component.type === ComponentType.MediaGallery) return { ...component, items: component.items.map((item) => ({ ...item, spoiler })) };
  if (component.type === ComponentType.File) return { ...component, spoiler };
  return component;
}

function isToggle(component: APIComponentInMessageActionRow): boolean {
  return 'custom_id' in component && splitCustomId(component.custom_id)[0] === CUSTOM_IDS.spoiler.prefix;
}
