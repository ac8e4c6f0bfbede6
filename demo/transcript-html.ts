/**
 * The demo's transcript page: the conversation the emulator recorded, rendered the way Discord shows it, channel by
 * channel, messages in the order they were created. Pure: it turns recorded messages into one self-contained HTML
 * document (inline styles, no scripts); the images it shows are files saved next to it (see transcript-files.ts).
 */
import type { APIMessage } from 'discord-api-types/v10';
import { escapeHtml, type MarkdownNames } from './transcript-markdown.js';
import type { SavedFiles } from './transcript-media.js';
import { renderMessage } from './transcript-message.js';
import { TRANSCRIPT_CSS } from './transcript-style.js';

/** Everything the page shows. */
export interface TranscriptInput {
  readonly title: string;
  /** A line under the title (what was run, when). */
  readonly subtitle?: string | undefined;
  /** Every message, in the order it was created (the emulator's message store keeps that order). */
  readonly messages: readonly APIMessage[];
  /** Names for mentions, channel headings and channel links, by id. */
  readonly names: MarkdownNames;
  /** The command each interaction ran (`imagine`), by interaction id, for the "used /imagine" line. */
  readonly commands: ReadonlyMap<string, string>;
  /** What a modal submit filled in (the modal's title, then `field: value`s), by interaction id, for its "submitted" line. */
  readonly forms?: ReadonlyMap<string, string> | undefined;
  /** Where the page loads each attachment from (a path relative to the page), by attachment id. */
  readonly files: SavedFiles;
  /** The emoji font's @font-face rules (transcript-font.ts), loading its files from next to the page. */
  readonly fontFaces?: string | undefined;
}

/** The complete HTML document. */
export function renderTranscriptPage(input: TranscriptInput): string {
  const sections = [...groupByChannel(input.messages)].map(([channelId, messages]) => {
    const name = input.names.channels.get(channelId) ?? `channel ${channelId}`;
    const shown = new Set<string>();
    const rendered = messages.map((message) => {
      const interaction = message.interaction_metadata?.id;
      const continued = interaction !== undefined && shown.has(interaction);
      if (interaction !== undefined) shown.add(interaction);
      return renderMessage({ message, names: input.names, files: input.files, commands: input.commands, forms: input.forms, continued });
    });
    return `<section class="channel" data-channel-id="${escapeHtml(channelId)}"><h2><span class="hash">#</span>${escapeHtml(name)}</h2>${rendered.join('\n')}</section>`;
  });
  const subtitle = input.subtitle === undefined ? '' : `<p>${escapeHtml(input.subtitle)}</p>`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    // No script may run, whatever a message holds: a second wall behind the escaping.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self' data: https: http:; font-src 'self'; style-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(input.title)}</title>`,
    `<style>${input.fontFaces ?? ''}${TRANSCRIPT_CSS}</style>`,
    '</head>',
    '<body>',
    `<header class="page"><h1>${escapeHtml(input.title)}</h1>${subtitle}</header>`,
    '<main>',
    ...sections,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** Messages by channel, channels in the order their first message appeared. */
function groupByChannel(messages: readonly APIMessage[]): Map<string, APIMessage[]> {
  const channels = new Map<string, APIMessage[]>();
  for (const message of messages) {
    const list = channels.get(message.channel_id) ?? [];
    list.push(message);
    channels.set(message.channel_id, list);
  }
  return channels;
}
