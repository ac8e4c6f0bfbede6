/**
 * Embeds on the transcript page, as Discord lays them out: a card with a colour bar, author, title (a link when it
 * has a URL), description, fields (inline ones side by side), image, thumbnail and footer.
 * @see https://discord.com/developers/docs/resources/message#embed-object
 */
import { hexColour, type ComponentScope } from './transcript-components.js';
import { Fields } from './json-fields.js';
import { escapeHtml, renderInline, renderMarkdown } from './transcript-markdown.js';
import { renderImage, resolveMedia } from './transcript-media.js';

/** Renders a message's embeds. */
export function renderEmbeds(embeds: unknown, scope: ComponentScope): string {
  return Fields.list(embeds)
    .map((embed) => renderEmbed(new Fields(embed), scope))
    .join('');
}

function renderEmbed(e: Fields, scope: ComponentScope): string {
  const colour = e.number('color');
  const style = colour === undefined ? '' : ` style="border-left-color:${hexColour(colour)}"`;
  const parts = [
    optional(e.child('author').string('name'), (name) => `<div class="embed-author">${escapeHtml(name)}</div>`),
    optional(e.string('title'), (title) => `<div class="embed-title">${titleLink(renderInline(title, scope.names), e.string('url'))}</div>`),
    optional(e.string('description'), (text) => `<div class="embed-description">${renderMarkdown(text, scope.names)}</div>`),
    renderFields(e, scope),
    optional(e.child('image').string('url'), (url) => renderImage(resolveMedia(url, scope.message, scope.files), undefined, 'embed-image')),
    renderFooter(e),
  ];
  const thumbnail = optional(e.child('thumbnail').string('url'), (url) =>
    renderImage(resolveMedia(url, scope.message, scope.files), undefined, 'embed-thumbnail'),
  );
  return `<div class="embed"${style}><div class="embed-main">${parts.join('')}</div>${thumbnail}</div>`;
}

function renderFields(e: Fields, scope: ComponentScope): string {
  const fields = Fields.list(e.get('fields')).map((field) => new Fields(field));
  if (fields.length === 0) return '';
  const cells = fields.map(
    (f) =>
      `<div class="embed-field${f.boolean('inline') ? ' inline' : ''}"><div class="embed-field-name">${renderInline(f.string('name') ?? '', scope.names)}</div>` +
      `<div class="embed-field-value">${renderMarkdown(f.string('value') ?? '', scope.names)}</div></div>`,
  );
  return `<div class="embed-fields">${cells.join('')}</div>`;
}

function renderFooter(e: Fields): string {
  const text = e.child('footer').string('text');
  const timestamp = e.string('timestamp');
  if (text === undefined && timestamp === undefined) return '';
  const when = timestamp === undefined ? '' : `${text === undefined ? '' : ' • '}${escapeHtml(timestamp)}`;
  return `<div class="embed-footer">${escapeHtml(text ?? '')}${when}</div>`;
}

function titleLink(html: string, url: string | undefined): string {
  return url !== undefined && /^https?:\/\//i.test(url) ? `<a href="${escapeHtml(url)}" rel="noreferrer noopener" target="_blank">${html}</a>` : html;
}

function optional(value: string | undefined, render: (value: string) => string): string {
  return value === undefined || value === '' ? '' : render(value);
}
