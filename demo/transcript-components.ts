/**
 * Message components on the transcript page: action rows (1) with buttons (2) and selects (3, 5–8), on any message,
 * and the Components V2 layout (flag 32768): container (17) with its accent colour, text display (10), media gallery
 * (12), section (9) with a thumbnail (11) or button accessory, separator (14) and file (13).
 *
 * The stored components are what the bot sent, unvalidated, so they are read field by field (json-fields.ts): a
 * missing or odd field renders as little as it can instead of throwing.
 * @see https://discord.com/developers/docs/components/reference
 */
import type { APIMessage } from 'discord-api-types/v10';
import { renderMarkdown, escapeHtml, type MarkdownNames } from './transcript-markdown.js';
import { Fields } from './json-fields.js';
import { isImage, renderFileBox, renderImage, resolveMedia, type SavedFiles } from './transcript-media.js';

/** What rendering a message's components needs: the message (for `attachment://` references) and the page's lookups. */
export interface ComponentScope {
  readonly message: APIMessage;
  readonly names: MarkdownNames;
  readonly files: SavedFiles;
}

const BUTTON_STYLES: Record<number, string> = { 1: 'primary', 2: 'secondary', 3: 'success', 4: 'danger', 5: 'link', 6: 'premium' };
const SELECT_TYPES = new Set([3, 5, 6, 7, 8]);

/** Renders a list of components (top-level, or the children of a row, container or section) in order. */
export function renderComponents(components: unknown, scope: ComponentScope): string {
  return Fields.list(components)
    .map((component) => renderComponent(new Fields(component), scope))
    .join('');
}

function renderComponent(c: Fields, scope: ComponentScope): string {
  const type = c.number('type') ?? 0;
  if (type === 1) return `<div class="action-row">${renderComponents(c.get('components'), scope)}</div>`;
  if (type === 2) return renderButton(c);
  if (SELECT_TYPES.has(type)) return renderSelect(c);
  switch (type) {
    case 17: {
      const accent = c.number('accent_color');
      const style = accent === undefined ? '' : ` style="border-left-color:${hexColour(accent)}"`;
      return `<div class="container${accent === undefined ? '' : ' accented'}"${style}>${renderComponents(c.get('components'), scope)}</div>`;
    }
    case 10:
      return `<div class="text-display">${renderMarkdown(c.string('content') ?? '', scope.names)}</div>`;
    case 12: {
      const items = Fields.list(c.get('items')).map((item) => new Fields(item));
      const images = items.map((item) =>
        renderMedia(item.child('media'), item.string('description'), item.boolean('spoiler') ? 'gallery-image spoiler' : 'gallery-image', scope),
      );
      return `<div class="media-gallery count-${Math.min(items.length, 4)}">${images.join('')}</div>`;
    }
    case 9: {
      const accessory = c.get('accessory');
      const side = accessory === undefined ? '' : `<div class="section-accessory">${renderComponent(new Fields(accessory), scope)}</div>`;
      return `<div class="section"><div class="section-text">${renderComponents(c.get('components'), scope)}</div>${side}</div>`;
    }
    case 11:
      return renderMedia(c.child('media'), c.string('description'), 'thumbnail', scope);
    case 14: {
      const divider = c.boolean('divider') ?? true;
      return `<div class="separator ${c.number('spacing') === 2 ? 'large' : 'small'}${divider ? ' divider' : ''}"></div>`;
    }
    case 13: {
      const media = resolveMedia(c.child('file').string('url') ?? '', scope.message, scope.files);
      return media.attachment && isImage(media.attachment) ? renderImage(media, undefined, 'attachment-image') : renderFileBox(media);
    }
    default:
      return `<div class="unknown-component">[component type ${type}]</div>`;
  }
}

function renderMedia(media: Fields, description: string | undefined, className: string, scope: ComponentScope): string {
  return renderImage(resolveMedia(media.string('url') ?? '', scope.message, scope.files), description, className);
}

function renderButton(c: Fields): string {
  const style = BUTTON_STYLES[c.number('style') ?? 2] ?? 'secondary';
  const text = c.string('label');
  const label = text ? `<span class="label">${escapeHtml(text)}</span>` : '';
  const external = style === 'link' ? '<span class="external">↗</span>' : '';
  const disabled = c.boolean('disabled') ? ' disabled' : '';
  return `<button type="button" class="button ${style}${disabled}"${disabled}${customId(c)}>${renderEmoji(c.child('emoji'))}${label}${external}</button>`;
}

function renderSelect(c: Fields): string {
  const placeholder = escapeHtml(c.string('placeholder') ?? 'Make a selection');
  const items = Fields.list(c.get('options'))
    .map((option) => {
      const o = new Fields(option);
      const description = o.string('description');
      const detail = description ? `<span class="option-description">${escapeHtml(description)}</span>` : '';
      const value = o.string('value');
      const data = value === undefined ? '' : ` data-value="${escapeHtml(value)}"`;
      return `<li${o.boolean('default') ? ' class="default"' : ''}${data}>${renderEmoji(o.child('emoji'))}${escapeHtml(o.string('label') ?? '')}${detail}</li>`;
    })
    .join('');
  const disabled = c.boolean('disabled') ? ' disabled' : '';
  return `<details class="select${disabled}"${customId(c)}><summary>${placeholder}<span class="chevron">▾</span></summary><ul>${items}</ul></details>`;
}

/** The component's custom id as a data attribute (the playground clicks with it; the transcript page ignores it). */
function customId(c: Fields): string {
  const id = c.string('custom_id');
  return id === undefined ? '' : ` data-custom-id="${escapeHtml(id)}"`;
}

/** A unicode emoji as itself; a custom one as `:name:` (its image lives on Discord's CDN, which the page cannot reach). */
function renderEmoji(emoji: Fields): string {
  const name = emoji.string('name');
  if (name === undefined && emoji.string('id') === undefined) return '';
  const text = emoji.string('id') === undefined ? (name ?? '') : `:${name ?? 'emoji'}:`;
  return `<span class="emoji">${escapeHtml(text)}</span>`;
}

/** An integer colour as `#rrggbb`. */
export function hexColour(colour: number): string {
  return `#${(colour & 0xffffff).toString(16).padStart(6, '0')}`;
}
