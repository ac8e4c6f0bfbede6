/**
 * One message on the transcript page, as Discord shows it: the "member used /imagine" line above an interaction's
 * response, the author's avatar (an initial on Discord's default avatar colour) and name with an APP tag for bots, the
 * time, then either the content, embeds, attachments and action rows of a plain message or the component layout of a
 * Components V2 one; a deferred response still loading says "is thinking…", and an ephemeral one is marked
 * "Only you can see this".
 */
import { InteractionType, MessageFlags, type APIMessage, type APIUser } from 'discord-api-types/v10';
import { renderComponents, type ComponentScope } from './transcript-components.js';
import { renderEmbeds } from './transcript-embeds.js';
import { escapeHtml, renderMarkdown } from './transcript-markdown.js';
import { renderAttachments } from './transcript-media.js';

/** Discord's default avatar colours, picked by `(user id >> 22) % 6` as Discord does for users without an avatar. */
const AVATAR_COLOURS = ['#5865f2', '#757e8a', '#3ba55c', '#faa61a', '#ed4245', '#eb459e'] as const;

/** What a message needs beyond its components' scope: which command each interaction ran, by interaction id. */
export interface MessageScope extends ComponentScope {
  readonly commands: ReadonlyMap<string, string>;
  /** What each modal submit filled in, by interaction id (TranscriptInput.forms). */
  readonly forms?: ReadonlyMap<string, string> | undefined;
  /** A later message of an interaction already shown (a card under its reply): no second "used /imagine" line. */
  readonly continued?: boolean | undefined;
}

/** Renders one message as an `<article>`. */
export function renderMessage(scope: MessageScope): string {
  const { message } = scope;
  const flags = message.flags ?? 0;
  const ephemeral = (flags & MessageFlags.Ephemeral) !== 0;
  const body =
    (flags & MessageFlags.IsComponentsV2) !== 0
      ? `<div class="v2">${renderComponents(message.components, scope)}</div>`
      : [
          message.content ? `<div class="content">${renderMarkdown(message.content, scope.names)}</div>` : '',
          renderEmbeds(message.embeds, scope),
          renderAttachments(message, scope.files),
          renderComponents(message.components, scope),
        ].join('');
  const loading = (flags & MessageFlags.Loading) !== 0 ? `<div class="loading">${escapeHtml(displayName(message.author))} is thinking…</div>` : '';
  const note = ephemeral
    ? '<div class="ephemeral-note"><span class="eye">👁</span> Only you can see this · <span class="dismiss">Dismiss message</span></div>'
    : '';
  return (
    `<article class="message${ephemeral ? ' ephemeral' : ''}" id="message-${escapeHtml(message.id)}">` +
    renderInteractionLine(scope) +
    `<div class="message-row">${avatar(message.author)}<div class="message-body">${renderHeader(message)}${body}${loading}${note}</div></div>` +
    `</article>`
  );
}

function renderHeader(message: APIMessage): string {
  const tag = message.author.bot ? '<span class="app-tag">APP</span>' : '';
  const time = new Date(message.timestamp);
  const clock = Number.isNaN(time.getTime()) ? '' : `${time.toISOString().slice(11, 19)} UTC`;
  return `<div class="message-header"><span class="author">${escapeHtml(displayName(message.author))}</span> ${tag} <time class="sent" datetime="${escapeHtml(message.timestamp)}">${clock}</time></div>`;
}

/** The line Discord shows above an interaction's response: who ran which command. */
function renderInteractionLine(scope: MessageScope): string {
  const metadata = scope.message.interaction_metadata;
  if (!metadata || scope.continued === true) return '';
  const command = scope.commands.get(metadata.id);
  const action =
    metadata.type === InteractionType.ApplicationCommand
      ? `used <span class="command">/${escapeHtml(command ?? 'a command')}</span>`
      : metadata.type === InteractionType.ModalSubmit
        ? submitted(scope.forms?.get(metadata.id))
        : 'used a button';
  return `<div class="interaction-line"><span class="reply-spine"></span>${avatar(metadata.user, 'mini')}<span class="author">${escapeHtml(displayName(metadata.user))}</span> ${action}</div>`;
}

/** "submitted a form", or what the form was and what was typed in it. */
function submitted(form: string | undefined): string {
  return form === undefined ? 'submitted a form' : `submitted a form: <span class="form">${escapeHtml(form)}</span>`;
}

function avatar(user: APIUser, size: 'mini' | 'full' = 'full'): string {
  const name = displayName(user);
  const initial = Array.from(name)[0]?.toUpperCase() ?? '?';
  const colour = AVATAR_COLOURS[avatarIndex(user.id)];
  // The initial is drawn by CSS from data-initial, so it is not part of the page's text (copied or read out).
  return `<div class="avatar ${size}" style="background:${colour}" data-initial="${escapeHtml(initial)}" aria-hidden="true"></div>`;
}

function avatarIndex(id: string): 0 | 1 | 2 | 3 | 4 | 5 {
  const index = /^\d+$/.test(id) ? Number((BigInt(id) >> 22n) % 6n) : 0;
  return index as 0 | 1 | 2 | 3 | 4 | 5;
}

function displayName(user: APIUser): string {
  return user.global_name ?? user.username;
}
