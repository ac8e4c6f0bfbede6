/**
 * What /models shows a member (commands/models.ts): the image models the gateway offers, in their language.
 */
import { translator } from '../../i18n/translate.js';
import type { GatewayModel } from '../../core/images.js';
import { shortenForDiscord } from '../text.js';

/** A day (`2026-12-01`) as a Discord date, which every client shows in its own language; the text itself if not a date. */
function dayOf(date: string): string {
  const ms = Date.parse(date);
  return Number.isNaN(ms) ? date : `<t:${Math.floor(ms / 1000)}:D>`;
}

/** The image models as a member reads them, in their language: the default marked, shutdown dates named. */
export function renderModels(models: readonly GatewayModel[], locale?: string | null): string {
  const say = translator(locale);
  const lines = models.map((m) =>
    say('admin.models.line', {
      model: `\`${m.id}\``,
      isDefault: m.default ? 'yes' : 'no',
      hasShutdown: m.shutdownDate ? 'yes' : 'no',
      date: m.shutdownDate ? dayOf(m.shutdownDate) : '',
    }),
  );
  return [say('admin.models.title'), ...lines, say('admin.models.hint')].join('\n');
}

/** /models' reply: the list, within a message's 2000 characters. */
export function renderModelList(models: readonly GatewayModel[], locale?: string | null): string {
  return shortenForDiscord(renderModels(models, locale), 2000);
}
