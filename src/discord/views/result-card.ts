/**
 * Results as Components V2 cards (issue 18): a container with a media gallery of the images (alt text from the
 * prompt, spoilers where the server says), the prompt and the parameters as text, and the action rows under it. One
 * image gets the actions on it (Vary, Remix, Zoom out, Pan, Vary region, Enlarge, HD on a draft — those its model supports); several
 * get numbered buttons (U1…) that post the chosen image as a card of its own, where its actions are. Progress and
 * notices use the same container, and so does a description (/describe). Pure: no Discord calls.
 */
import {
  ButtonStyle,
  ComponentType,
  MessageFlags,
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIComponentInContainer,
  type APIMessageTopLevelComponent,
} from 'discord.js';
import type { Delivery, ResultActions } from '../../core/jobs.js';
import { translator } from '../../i18n/translate.js';
import { CARD_ACCENT as ACCENT, ERROR_ACCENT, resultButtons, resultFooterLines } from './render.js';
import { ACTIONS, CUSTOM_IDS } from '../custom-ids.js';
import { offersExpressions } from '../../core/result-actions.js';
import { inertText, shortenForDiscord } from '../text.js';

/** The flag a message needs for these components (no content, no embeds). */
export const CARD_FLAGS: MessageFlags.IsComponentsV2 = MessageFlags.IsComponentsV2;
/** Discord's limit on all the text of a Components V2 message. */
export const MAX_CARD_TEXT = 4000;

/** A file of a card, by its attachment name. */
export interface CardFile {
  name: string;
  /** The vector original of the image before it: a file, not a gallery item. */
  original?: boolean | undefined;
}

/** A message as the cards are sent: flags and components, no content. */
export interface CardPayload {
  flags: MessageFlags.IsComponentsV2;
  content: '';
  components: APIMessageTopLevelComponent[];
}

/**
 * The card of one message of a delivery: its `files` (as attached) in a gallery, the caption, and the actions.
 * `firstImage` is the number of images posted before this message (for the U buttons of long deliveries).
 */
export function resultCard(delivery: Delivery, files: readonly CardFile[], part: { index: number; total: number; firstImage: number }): CardPayload {
  const { job } = delivery;
  const images = files.filter((f) => f.original !== true);
  const alt = shortenForDiscord(job.request.prompt, 1024);
  const spoiler = delivery.spoiler === true;
  const locale = job.origin.locale;
  const footer = resultFooterLines(delivery, part).join('\n');
  const inside: APIComponentInContainer[] = [];
  if (images.length > 0)
    inside.push({ type: ComponentType.MediaGallery, items: images.map((f) => ({ media: { url: `attachment://${f.name}` }, description: alt, spoiler })) });
  for (const file of files.filter((f) => f.original === true)) inside.push({ type: ComponentType.File, file: { url: `attachment://${file.name}` }, spoiler });
  inside.push(
    { type: ComponentType.TextDisplay, content: `**${inertText(job.request.prompt, Math.max(MAX_CARD_TEXT - footer.length - 200, 20))}**` },
    { type: ComponentType.TextDisplay, content: footer },
  );
  const totalImages = delivery.files.filter((f) => f.original !== true).length;
  const rows =
    totalImages === 1
      ? imageActionRows(job.id, delivery.actions, locale, { inServer: offersExpressions(job.origin.guildId) })
      : pickRows(job.id, part.firstImage, images.length);
  return {
    flags: CARD_FLAGS,
    content: '',
    components: [
      { type: ComponentType.Container, accent_color: ACCENT, components: inside },
      ...rows,
      ...resultButtons(job.id, locale, { enhance: delivery.enhanceable, spoiler }),
    ],
  };
}

/**
 * A card of images posted again (/show): `names` (as attached) in a gallery (blurred, with Reveal, where
 * `place.spoiler`), `text` under them, and the actions: on one image those of `actions` (when the model is not known
 * here, those of an editing model: an action the model cannot do is refused with the reason before anything is
 * charged), on several the U buttons. Buttons are labelled in `locale`'s language (the member who asked; English by default).
 */
export function shownCard(
  jobId: string,
  text: string,
  names: readonly string[],
  actions: ResultActions,
  locale?: string | null,
  place: { inServer: boolean; spoiler?: boolean | undefined } = { inServer: true },
): CardPayload {
  const spoiler = place.spoiler === true;
  const inside: APIComponentInContainer[] = [
    { type: ComponentType.MediaGallery, items: names.map((name) => ({ media: { url: `attachment://${name}` }, ...(spoiler ? { spoiler } : {}) })) },
    { type: ComponentType.TextDisplay, content: shortenForDiscord(text, MAX_CARD_TEXT) },
  ];
  const rows = names.length === 1 ? imageActionRows(jobId, actions, locale, place) : pickRows(jobId, 0, names.length);
  return {
    flags: CARD_FLAGS,
    content: '',
    components: [{ type: ComponentType.Container, accent_color: ACCENT, components: inside }, ...rows, ...resultButtons(jobId, locale, { spoiler })],
  };
}

/** An error as members read it: a card of its own colour (Discord's red), never one a result could be taken for. */
export function errorCard(content: string): CardPayload {
  return textCard([content], { accent: ERROR_ACCENT });
}

/** A card of text only (progress, notices): one container, optionally an image (a preview) and action rows. */
export function textCard(
  lines: readonly string[],
  options: { image?: string | undefined; rows?: APIActionRowComponent<APIButtonComponent>[]; accent?: number | undefined } = {},
): CardPayload {
  const inside: APIComponentInContainer[] = [];
  if (options.image !== undefined) inside.push({ type: ComponentType.MediaGallery, items: [{ media: { url: `attachment://${options.image}` } }] });
  inside.push({ type: ComponentType.TextDisplay, content: shortenForDiscord(lines.join('\n'), MAX_CARD_TEXT) });
  return {
    flags: CARD_FLAGS,
    content: '',
    components: [{ type: ComponentType.Container, accent_color: options.accent ?? ACCENT, components: inside }, ...(options.rows ?? [])],
  };
}

const button = (
  jobId: string,
  code: string,
  label: string,
  emoji?: string,
  style: ButtonStyle.Primary | ButtonStyle.Secondary = ButtonStyle.Secondary,
): APIButtonComponent => ({
  type: ComponentType.Button,
  style,
  custom_id: CUSTOM_IDS.action.build({ jobId, code }),
  label,
  ...(emoji ? { emoji: { name: emoji } } : {}),
});

const row = (components: APIButtonComponent[]): APIActionRowComponent<APIButtonComponent> => ({ type: ComponentType.ActionRow, components });

/**
 * The actions on a single image that its model supports (`actions`; none known: none shown but Remix), labelled in
 * `locale`'s language; and a row of what keeps the image: 💎 HD on a draft, ⭐ Favorite, and in a server Make emoji and Make sticker.
 */
export function imageActionRows(
  jobId: string,
  actions: ResultActions | undefined,
  locale?: string | null,
  place: { inServer: boolean } = { inServer: true },
): APIActionRowComponent<APIButtonComponent>[] {
  const say = translator(locale);
  const edits = actions?.edits ?? false;
  const masks = edits && (actions?.masks ?? false);
  const enlarge = edits && (actions?.enlarge ?? false);
  const first: APIButtonComponent[] = [];
  if (edits) first.push(button(jobId, ACTIONS.varySubtle, say('button.varySubtle'), '🪄'), button(jobId, ACTIONS.varyStrong, say('button.varyStrong'), '🌀'));
  if (masks) first.push(button(jobId, ACTIONS.region, say('button.varyRegion'), '🖌️'));
  first.push(button(jobId, ACTIONS.remix, say('button.remix'), '🎛️'));
  if (enlarge) first.push(button(jobId, ACTIONS.enlarge, say('button.enlarge'), '🔎'));
  const rows = [row(first)];
  if (masks) {
    rows.push(
      row([
        button(jobId, ACTIONS.zoom15, say('button.zoomOut15'), '🔭'),
        button(jobId, ACTIONS.zoom2, say('button.zoomOut2'), '🔭'),
        button(jobId, ACTIONS.panLeft, say('button.pan'), '⬅️'),
        button(jobId, ACTIONS.panRight, say('button.pan'), '➡️'),
      ]),
      row([button(jobId, ACTIONS.panUp, say('button.pan'), '⬆️'), button(jobId, ACTIONS.panDown, say('button.pan'), '⬇️')]),
    );
  }
  // HD (a draft again at high quality) leads the row of what keeps the image: the first row is full.
  const keep = [
    ...(edits && actions?.hd === true ? [button(jobId, ACTIONS.hd, say('button.hd'), '💎')] : []),
    button(jobId, ACTIONS.favorite, say('button.favorite'), '⭐'),
  ];
  if (place.inServer)
    keep.push(button(jobId, ACTIONS.makeEmoji, say('button.makeEmoji'), '😀'), button(jobId, ACTIONS.makeSticker, say('button.makeSticker'), '🏷️'));
  rows.push(row(keep));
  return rows;
}

/** U1…U10: each posts that image as a card of its own, with its actions. */
function pickRows(jobId: string, firstImage: number, count: number): APIActionRowComponent<APIButtonComponent>[] {
  const buttons = Array.from({ length: count }, (_, i) => button(jobId, `u${firstImage + i}`, `U${firstImage + i + 1}`, undefined, ButtonStyle.Primary));
  const rows: APIActionRowComponent<APIButtonComponent>[] = [];
  for (let i = 0; i < buttons.length; i += 5) rows.push(row(buttons.slice(i, i + 5)));
  return rows;
}

/**
 * The answer of /describe and *Describe image* (issue 19): the description, the prompts, and an **Imagine this**
 * button per prompt (`descimg:{id}:{index}`; the prompts are stored under the id), written in `locale`'s language
 * (the member who asked; English by default). The description and prompts are the model's, as it wrote them.
 */
export function describeCard(answer: { id: string; description: string; prompts: readonly string[] }, locale?: string | null): CardPayload {
  const say = translator(locale);
  const lines = [
    `**${inertText(answer.description || say('describe.title'), 600)}**`,
    ...answer.prompts.map((prompt, i) => `${i + 1}. ${inertText(prompt, 800)}`),
    `-# ${say('describe.hint')}`,
  ];
  const buttons: APIButtonComponent[] = answer.prompts.map((_, i) => ({
    type: ComponentType.Button,
    style: ButtonStyle.Secondary,
    custom_id: CUSTOM_IDS.describe.build({ id: answer.id, index: i }),
    label: say('describe.imagine', { number: i + 1 }),
    emoji: { name: '🎨' },
  }));
  const rows: APIActionRowComponent<APIButtonComponent>[] = [{ type: ComponentType.ActionRow, components: buttons }];
  return textCard(lines, { rows });
}

/**
 * The confirmation a Delete click answers with, only to the clicker: what will happen, and Delete (red) or Keep.
 * `id`: the kept click (pending-deletes.ts).
 */
export function deleteConfirmCard(id: string, locale?: string | null): CardPayload {
  const say = translator(locale);
  const rows = [
    row([
      {
        type: ComponentType.Button,
        style: ButtonStyle.Danger,
        custom_id: CUSTOM_IDS.deleteConfirmed.build({ id }),
        label: say('button.deleteConfirmed'),
        emoji: { name: '🗑️' },
      },
      { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: CUSTOM_IDS.deleteKept.build({ id }), label: say('button.keep') },
    ]),
  ];
  return textCard([say('delete.confirm')], { rows });
}

/** What the confirmation becomes once answered: the result deleted, or kept. */
export function deleteAnsweredCard(answer: 'done' | 'kept', locale?: string | null): CardPayload {
  return textCard([translator(locale)(answer === 'done' ? 'delete.done' : 'delete.kept')]);
}
