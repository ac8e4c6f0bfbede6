/**
 * Results as Components V2 cards (issue 18): a container with a media gallery of the images (alt text from the
 * prompt, spoilers where the server says), the prompt and the parameters as text, and the action rows under it. One
 * image gets the actions on it (Vary, Remix, Zoom out, Pan, Vary region, Enlarge — those its model supports); several
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
import type { Delivery, ResultActions } from '../service/jobs.js';
import { ACTIONS, originalPromptLines, renderNotice, resultButtons, BUTTON_PREFIX } from './render.js';
import { inertText, shortenForDiscord } from './text.js';

/** The flag a message needs for these components (no content, no embeds). */
export const CARD_FLAGS: MessageFlags.IsComponentsV2 = MessageFlags.IsComponentsV2;
/** Discord's limit on all the text of a Components V2 message. */
const MAX_CARD_TEXT = 4000;
/** Blurple, the accent of the bot's cards. */
const ACCENT = 0x5865f2;

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
  const details = [delivery.model, job.request.size ?? 'auto', job.request.quality ? `${job.request.quality} quality` : undefined]
    .filter((d): d is string => d !== undefined)
    .join(' · ');
  const verb = job.kind === 'edit' ? 'Edited' : 'Imagined';
  const partText = part.total > 1 ? ` (${part.index}/${part.total})` : '';
  const notes = [...originalPromptLines(delivery), ...delivery.notices.map(renderNotice)].map((n) => `-# ${n}`);
  const footer = [`-# ${verb} for <@${job.origin.requesterId}> · ${details}${partText}`, ...notes].join('\n');
  const inside: APIComponentInContainer[] = [];
  if (images.length > 0)
    inside.push({ type: ComponentType.MediaGallery, items: images.map((f) => ({ media: { url: `attachment://${f.name}` }, description: alt, spoiler })) });
  for (const file of files.filter((f) => f.original === true)) inside.push({ type: ComponentType.File, file: { url: `attachment://${file.name}` }, spoiler });
  inside.push(
    { type: ComponentType.TextDisplay, content: `**${inertText(job.request.prompt, Math.max(MAX_CARD_TEXT - footer.length - 200, 20))}**` },
    { type: ComponentType.TextDisplay, content: footer },
  );
  const totalImages = delivery.files.filter((f) => f.original !== true).length;
  const rows = totalImages === 1 ? imageActionRows(job.id, delivery.actions) : pickRows(job.id, part.firstImage, images.length);
  return {
    flags: CARD_FLAGS,
    content: '',
    components: [{ type: ComponentType.Container, accent_color: ACCENT, components: inside }, ...rows, ...resultButtons(job.id)],
  };
}

/**
 * A card of images posted again (/show): `names` (as attached) in a gallery, `text` under them, and the actions: on
 * one image those of `actions` (when the model is not known here, those of an editing model: an action the model
 * cannot do is refused with the reason before anything is charged), on several the U buttons.
 */
export function shownCard(jobId: string, text: string, names: readonly string[], actions: ResultActions): CardPayload {
  const inside: APIComponentInContainer[] = [
    { type: ComponentType.MediaGallery, items: names.map((name) => ({ media: { url: `attachment://${name}` } })) },
    { type: ComponentType.TextDisplay, content: shortenForDiscord(text, MAX_CARD_TEXT) },
  ];
  const rows = names.length === 1 ? imageActionRows(jobId, actions) : pickRows(jobId, 0, names.length);
  return {
    flags: CARD_FLAGS,
    content: '',
    components: [{ type: ComponentType.Container, accent_color: ACCENT, components: inside }, ...rows, ...resultButtons(jobId)],
  };
}

/** A card of text only (progress, notices): one container, optionally an image (a preview) and action rows. */
export function textCard(
  lines: readonly string[],
  options: { image?: string | undefined; rows?: APIActionRowComponent<APIButtonComponent>[] } = {},
): CardPayload {
  const inside: APIComponentInContainer[] = [];
  if (options.image !== undefined) inside.push({ type: ComponentType.MediaGallery, items: [{ media: { url: `attachment://${options.image}` } }] });
  inside.push({ type: ComponentType.TextDisplay, content: shortenForDiscord(lines.join('\n'), MAX_CARD_TEXT) });
  return { flags: CARD_FLAGS, content: '', components: [{ type: ComponentType.Container, accent_color: ACCENT, components: inside }, ...(options.rows ?? [])] };
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
  custom_id: `${BUTTON_PREFIX.action}:${jobId}:${code}`,
  label,
  ...(emoji ? { emoji: { name: emoji } } : {}),
});

const row = (components: APIButtonComponent[]): APIActionRowComponent<APIButtonComponent> => ({ type: ComponentType.ActionRow, components });

/** The actions on a single image that its model supports (`actions`; none known: none shown but Remix). */
export function imageActionRows(jobId: string, actions: ResultActions | undefined): APIActionRowComponent<APIButtonComponent>[] {
  const edits = actions?.edits ?? false;
  const masks = edits && (actions?.masks ?? false);
  const enlarge = edits && (actions?.enlarge ?? false);
  const first: APIButtonComponent[] = [];
  if (edits) first.push(button(jobId, ACTIONS.varySubtle, 'Vary (Subtle)', '🪄'), button(jobId, ACTIONS.varyStrong, 'Vary (Strong)', '🌀'));
  if (masks) first.push(button(jobId, ACTIONS.region, 'Vary (Region)', '🖌️'));
  first.push(button(jobId, ACTIONS.remix, 'Remix', '🎛️'));
  if (enlarge) first.push(button(jobId, ACTIONS.enlarge, 'Enlarge', '🔎'));
  const rows = [row(first)];
  if (masks) {
    rows.push(
      row([
        button(jobId, ACTIONS.zoom15, 'Zoom Out 1.5x', '🔭'),
        button(jobId, ACTIONS.zoom2, 'Zoom Out 2x', '🔭'),
        button(jobId, ACTIONS.panLeft, 'Pan', '⬅️'),
        button(jobId, ACTIONS.panRight, 'Pan', '➡️'),
      ]),
      row([button(jobId, ACTIONS.panUp, 'Pan', '⬆️'), button(jobId, ACTIONS.panDown, 'Pan', '⬇️')]),
    );
  }
  return rows;
}

/** U1…U10: each posts that image as a card of its own, with its actions. */
function pickRows(jobId: string, firstImage: number, count: number): APIActionRowComponent<APIButtonComponent>[] {
  const buttons = Array.from({ length: count }, (_, i) => button(jobId, `u${firstImage + i}`, `U${firstImage + i + 1}`, undefined, ButtonStyle.Primary));
  const rows: APIActionRowComponent<APIButtonComponent>[] = [];
  for (let i = 0; i < buttons.length; i += 5) rows.push(row(buttons.slice(i, i + 5)));
  return rows;
}

/** Custom-id prefix of the Imagine this buttons. */
export const DESCRIBE_BUTTON_PREFIX = 'descimg';

/**
 * The answer of /describe and *Describe image* (issue 19): the description, the prompts, and an **Imagine this**
 * button per prompt (`descimg:{id}:{index}`; the prompts are stored under the id).
 */
export function describeCard(answer: { id: string; description: string; prompts: readonly string[] }): CardPayload {
  const lines = [
    `**${inertText(answer.description || 'Prompts for this image', 600)}**`,
    ...answer.prompts.map((prompt, i) => `${i + 1}. ${inertText(prompt, 800)}`),
    '-# Press Imagine this to generate from a prompt (it counts toward your quota).',
  ];
  const buttons: APIButtonComponent[] = answer.prompts.map((_, i) => ({
    type: ComponentType.Button,
    style: ButtonStyle.Secondary,
    custom_id: `${DESCRIBE_BUTTON_PREFIX}:${answer.id}:${i}`,
    label: `Imagine this ${i + 1}`,
    emoji: { name: '🎨' },
  }));
  const rows: APIActionRowComponent<APIButtonComponent>[] = [{ type: ComponentType.ActionRow, components: buttons }];
  return textCard(lines, { rows });
}
