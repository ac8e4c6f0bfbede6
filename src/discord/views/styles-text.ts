/**
 * /styles' answers (issue 32): a saved style, the list of the member's and the server's styles, and a deletion, in
 * the member's language. Names and suffixes are member text: escaped and cut, inert in the message.
 */
import type { PresetSummary } from '../../core/style-presets.js';
import { translator } from '../../i18n/translate.js';
import { inertText } from '../text.js';

/** A saved style. */
export function presetSavedText(preset: PresetSummary, server: boolean, locale?: string | null): string {
  const say = translator(locale);
  return say(server ? 'styles.savedServer' : 'styles.saved', { name: inertText(preset.name, 40), images: preset.images });
}

/** A deleted style. */
export function presetDeletedText(name: string, locale?: string | null): string {
  return translator(locale)('styles.deleted', { name: inertText(name, 40) });
}

/** The member's styles here, then the server's. */
export function presetListText(list: { mine: PresetSummary[]; server: PresetSummary[] }, locale?: string | null): string {
  const say = translator(locale);
  if (list.mine.length === 0 && list.server.length === 0) return say('styles.empty');
  const line = (p: PresetSummary) =>
    `• **${inertText(p.name, 40)}** · ${say('styles.images', { count: p.images })}${p.suffix === '' ? '' : ` · ${inertText(p.suffix, 120)}`}`;
  const parts = [];
  if (list.mine.length > 0) parts.push(say('styles.mine'), ...list.mine.map(line));
  if (list.server.length > 0) parts.push(say('styles.server'), ...list.server.map(line));
  return parts.join('\n');
}
