/**
 * Every modal the bot opens (Edit image, Edit this image, Remix, Vary region, Make emoji, Make sticker, Use as style) rendered in every language fits
 * Discord's limits: titles and labels 45 characters, descriptions, placeholders and select option labels 100. And the
 * catalogue's text fits whole: nothing is cut short with an ellipsis, except a note too long even in English.
 */
import type { APIModalInteractionResponseCallbackData } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { regionModal, remixModal } from '../../../src/discord/views/action-modals.js';
import { editImageModal, editResultModal } from '../../../src/discord/views/edit-modals.js';
import { expressionModal } from '../../../src/discord/views/expression-views.js';
import { useStyleModal } from '../../../src/discord/views/style-modal.js';
import { LANGUAGES } from '../../../src/i18n/locales.js';
import { t } from '../../../src/i18n/translate.js';

/** One text of a modal, with Discord's limit for it. */
interface ModalText {
  where: string;
  text: string;
  limit: number;
}

/** Discord's limits on modal texts (https://discord.com/developers/docs/components/reference). */
const LIMITS = { title: 45, label: 45, description: 100, placeholder: 100, option: 100 } as const;

/** The texts of a modal a member reads: its title, and each Label's label, description, placeholder and options. */
function textsOf(modal: APIModalInteractionResponseCallbackData): ModalText[] {
  const texts: ModalText[] = [{ where: 'title', text: modal.title, limit: LIMITS.title }];
  for (const [i, row] of modal.components.entries()) {
    const label = row as {
      label?: string;
      description?: string;
      component?: { placeholder?: string; options?: { label: string }[] };
    };
    if (label.label !== undefined) texts.push({ where: `${i}.label`, text: label.label, limit: LIMITS.label });
    if (label.description !== undefined) texts.push({ where: `${i}.description`, text: label.description, limit: LIMITS.description });
    if (label.component?.placeholder !== undefined) texts.push({ where: `${i}.placeholder`, text: label.component.placeholder, limit: LIMITS.placeholder });
    for (const [j, option] of (label.component?.options ?? []).entries()) texts.push({ where: `${i}.option${j}`, text: option.label, limit: LIMITS.option });
  }
  return texts;
}

const REQUEST = { prompt: 'a lighthouse at dusk', size: { width: 1024, height: 1024 }, quality: 'high' } as const;

/** Each modal as a member of `locale` sees it, with a usual note for Edit image. */
const modalsIn = (locale: string): Record<string, APIModalInteractionResponseCallbackData> => ({
  'Edit image': editImageModal('menuedit:x', locale, 2, 0, { notImages: 1, elsewhere: 1 }),
  'Edit this image': editResultModal('job', locale),
  Remix: remixModal('job', REQUEST, locale),
  'Vary region': regionModal('job', REQUEST.prompt, locale),
  'Make emoji': expressionModal('job', 'emoji', 'a_lighthouse', locale),
  'Make sticker': expressionModal('job', 'sticker', 'a_lighthouse', locale),
  'Use as style': useStyleModal('menustyle:x', locale, 1),
  'Use as style (of several)': useStyleModal('menustyle:x', locale, 3),
});

describe('the modals in every language', () => {
  it.each(LANGUAGES)('fit Discord’s limits in %s, with every text whole', (language) => {
    for (const [name, modal] of Object.entries(modalsIn(language))) {
      const texts = textsOf(modal);
      expect(texts.length, name).toBeGreaterThanOrEqual(3);
      for (const { where, text, limit } of texts) {
        expect(text.length, `${language} ${name} ${where}: ${text}`).toBeLessThanOrEqual(limit);
        expect(text, `${language} ${name} ${where}`).not.toMatch(/…$/);
        expect(text.trim(), `${language} ${name} ${where}`).not.toBe('');
      }
    }
  });

  it.each(LANGUAGES)('keep the longest Edit image note within 100 characters in %s', (language) => {
    const modal = editImageModal('menuedit:x', language, 16, 12, { notImages: 25, elsewhere: 10 });
    for (const { where, text, limit } of textsOf(modal)) expect(text.length, `${language} ${where}: ${text}`).toBeLessThanOrEqual(limit);
  });

  it('are written in the member’s language, the note too', () => {
    const modal = editImageModal('menuedit:x', 'ja', 2, 0, { notImages: 1, elsewhere: 0 });
    expect(modal.title).toBe('画像を編集');
    expect(textsOf(modal).map((x) => x.text)).toEqual(['画像を編集', 'プロンプト', '何を変えますか？（2 枚の画像、ほかの添付ファイル 1 件は無視）']);
    expect(textsOf(editImageModal('menuedit:x', 'en-US', 2, 0, { notImages: 2, elsewhere: 1 }))[2]?.text).toBe(
      'What should change? (2 images; 2 other attachments ignored; 1 not on Discord ignored)',
    );
    expect(textsOf(regionModal('job', 'x', 'de')).map((x) => x.text)).toEqual(
      expect.arrayContaining([t('de', 'modal.region.title'), 'oben links', 'unten rechts', t('de', 'modal.region.prompt')]),
    );
  });
});
