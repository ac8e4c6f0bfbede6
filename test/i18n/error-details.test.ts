/**
 * The details inside member-facing errors (why, and what is allowed) in the member's language: each family of
 * phrases — the model's rules, the general rules, the server's limits, downloads, zod's refusals, a command's own
 * words — rendered in languages other than English, with nothing English left but the tokens (model names, option
 * names, sizes, values).
 */
import { describe, expect, it } from 'vitest';
import { IMAGE_OPTIONS, parseImageOptions } from '../../src/commands/image-options.js';
import { readOptions } from '../../src/commands/option-reader.js';
import { issueDetail } from '../../src/commands/issue-detail.js';
import { optionNameOf } from '../../src/commands/option-names.js';
import { localizedCommandName } from '../../src/i18n/command-localizations.js';
import { QuotaSetRequest } from '../../src/commands/quota-data.js';
import { describeUserError, renderPhrase, UserFacingError } from '../../src/errors.js';
import { CATALOGUES, intlLocaleOf, LANGUAGES } from '../../src/i18n/locales.js';
import { toUserFacingError } from '../../src/service/error-mapping.js';
import { validateGenerateRequest } from '../../src/core/image-rules.js';
import { ModelProfiles } from '../../src/core/model-profiles.js';
import { literal, PHRASE_IDS, phrase } from '../../src/core/phrase.js';
import { AttachmentDownloadError } from '../../src/core/attachment-download.js';
import { checkAgainstProfile } from '../../src/core/profile-rules.js';
import { checkServerSize } from '../../src/service/server-settings.js';
import { DEFAULT_SETTINGS } from '../../src/core/server-settings.js';
import { FakeOptions } from '../fakes/fake-interaction.js';
import { argumentsOf, sampleValues } from './icu-arguments.js';

const profiles = new ModelProfiles();

/** The member-facing error `fn` fails with, as the service maps it. */
function refusal(fn: () => unknown): UserFacingError {
  try {
    fn();
  } catch (err) {
    const mapped = toUserFacingError(err, () => []);
    if (mapped instanceof UserFacingError) return mapped;
    throw err;
  }
  throw new Error('expected a refusal');
}

/** The message a member of `locale` reads, without its reference line. */
const read = (error: UserFacingError, locale: string): string => describeUserError(error, 'ref', optionNameOf, locale).split('\n')[0] ?? '';

const byModel = (model: string, request: Parameters<typeof checkAgainstProfile>[0]) =>
  refusal(() => checkAgainstProfile(request, model, profiles.of(model).profile));
const member = { guildId: 'g', channelId: 'c', manager: false, ageRestricted: false, roleIds: [] };

describe('the details of a refusal, in the member’s language', () => {
  it('words a prompt too long for the model in Japanese and German: why, and what the model takes', () => {
    const error = byModel('dall-e-2', { prompt: 'x'.repeat(1001) });
    expect(read(error, 'ja')).toBe('prompt の値は使えません：dall-e-2 はもっと短いプロンプトしか受け付けません。使える値：1,000 文字まで。');
    expect(read(error, 'de')).toBe('Dieser Wert für prompt funktioniert nicht: dall-e-2 nimmt nur kürzere Prompts an. Erlaubt: höchstens 1.000 Zeichen.');
    expect(read(error, 'en')).toBe("That prompt doesn't work: dall-e-2 takes shorter prompts. Allowed: at most 1,000 characters.");
  });

  it('words a download cut off at its cap in German, French and Russian, with the unit each writes', () => {
    const error = toUserFacingError(
      new AttachmentDownloadError('too_large', 'Attachment is larger than 8388608 bytes', { maxBytes: 8 * 1024 * 1024 }),
      () => [],
    );
    expect(error).toBeInstanceOf(UserFacingError);
    expect(read(error as UserFacingError, 'de')).toBe('Ich konnte diesen Anhang nicht verwenden: es ist größer als 8 MB.');
    expect(read(error as UserFacingError, 'fr')).toBe('Je n’ai pas pu utiliser cette pièce jointe : elle dépasse 8 Mo.');
    expect(read(error as UserFacingError, 'ru')).toBe('Не удалось использовать это вложение: оно больше 8 МБ.');
  });

  it("words the server's largest size in Simplified Chinese and Russian", () => {
    const error = refusal(() =>
      checkServerSize({ prompt: 'p', size: { width: 2048, height: 1152 } }, { ...DEFAULT_SETTINGS, maxSize: { width: 1536, height: 1024 } }, member),
    );
    expect(read(error, 'zh-CN')).toBe('size 的值无效：这个服务器允许的尺寸最大为 1536x1024 像素。可用的值：auto，或最大 1536x1024。');
    expect(read(error, 'ru')).toBe(
      'Это значение size не подходит: этот сервер разрешает размеры до 1536x1024 пикселей. Допустимо: auto или не больше 1536x1024.',
    );
  });

  it('words a size the general rules refuse in Spanish and Korean: what is wrong with it, then every size allowed', () => {
    const error = refusal(() => validateGenerateRequest({ prompt: 'p', size: { width: 1000, height: 1000 } }));
    expect(read(error, 'es-ES')).toBe(
      'Ese valor de size no sirve: ambos lados deben ser múltiplos de 16. Valores permitidos: auto, 1024x1024, 1536x1024 y 1024x1536, o ANCHOxALTO con ambos lados múltiplos de 16, cada uno entre 16 y 3840, como mucho 3:1 y no más píxeles que 3840x2160.',
    );
    expect(read(error, 'ko')).toBe(
      'size 값은 사용할 수 없어요: 가로와 세로 모두 16의 배수여야 해요. 허용되는 값: auto, 1024x1024, 1536x1024 및 1024x1536 또는 가로x세로(두 변 모두 16의 배수, 각 변 16–3840, 비율 최대 3:1, 픽셀 수는 3840x2160 이하).',
    );
  });

  it("words a custom size outside the model's rule in Japanese, the rule inside what is allowed", () => {
    expect(read(byModel('gpt-image-2', { prompt: 'p', size: { width: 3840, height: 1024 } }), 'ja')).toBe(
      'size の値は使えません：gpt-image-2 は 3840x1024 の画像を作れません。使える値：auto、1024x1024、1536x1024、1024x1536、または 幅x高さ（条件：長辺は短辺の 3 倍までです）。',
    );
  });

  it('keeps values as they are and lists them as each language lists things', () => {
    const quality = byModel('dall-e-3', { prompt: 'p', quality: 'high' });
    expect(read(quality, 'ja')).toBe('quality の値は使えません：dall-e-3 は high に対応していません。使える値：standard、hd。');
    expect(read(quality, 'de')).toBe('Dieser Wert für quality funktioniert nicht: dall-e-3 bietet high nicht an. Erlaubt: standard und hd.');
    expect(read(quality, 'en')).toBe("That quality doesn't work: dall-e-3 doesn't offer high. Allowed: standard, hd.");
    const models = new UserFacingError('settings.modelNotAllowed', { allowed: literal('gpt-image-1', 'dall-e-3') });
    expect(read(models, 'zh-CN')).toBe('这个服务器只允许使用这些模型：gpt-image-1、dall-e-3。请用 `模型` 选择其中一个。');
  });

  it("words zod's refusals by their code, or by the phrase a schema names, in Japanese, Russian, Traditional Chinese and Portuguese", () => {
    const count = refusal(() => parseImageOptions(readOptions(new FakeOptions({ count: 11 }, { name: '', value: '' }), IMAGE_OPTIONS), 'p'));
    expect(read(count, 'ja')).toBe('count の値は使えません：10 以下にしてください。');
    expect(read(count, 'ru')).toBe('Это значение count не подходит: значение должно быть не больше 10.');
    const blank = refusal(() => parseImageOptions(readOptions(new FakeOptions({}, { name: '', value: '' }), IMAGE_OPTIONS), '   '));
    expect(read(blank, 'zh-TW')).toBe('prompt 的值無效：提示詞是空的。');
    const both = QuotaSetRequest.safeParse({ limit: 3, userId: '1', roleId: '2' });
    const target = new UserFacingError('input.invalid', { param: 'user/role', detail: issueDetail(both.error?.issues[0]) });
    expect(read(target, 'pt-BR')).toBe('Esse valor de user/role não funciona: informe um usuário ou um cargo, não os dois.');
  });

  it('words what a command names and why in French and Simplified Chinese (Edit image on a message whose images are elsewhere)', () => {
    const error = new UserFacingError('input.attachmentInvalid', { param: phrase('detail.param.messageImages'), detail: phrase('detail.download.elsewhere') });
    expect(read(error, 'fr')).toBe(
      'Je n’ai pas pu utiliser les images de ce message : elles ne sont pas hébergées sur Discord, et je ne télécharge que depuis Discord (enregistrez-en une et joignez-la à `/modifier`).',
    );
    expect(read(error, 'zh-CN')).toBe('我无法使用那条消息里的图片：这些图片不在 Discord 上，而我只从 Discord 下载（请保存一张并附加到 `/编辑`）。');
  });

  // A unit is the same word in some languages (MB); every other phrase is worded anew.
  const SAME_IN_SOME = new Set(['detail.megabytes', 'detail.kilobytes']);
  it.each(LANGUAGES.filter((l) => l !== 'en'))('has every phrase in %s in words of its own, not the English ones', (language) => {
    const copied = PHRASE_IDS.filter((id) => !SAME_IN_SOME.has(id)).filter((id) => {
      const values = sampleValues(argumentsOf(CATALOGUES.en[id], intlLocaleOf('en')), 5, (cases) => cases[0] ?? 'other');
      return renderPhrase(phrase(id, values), language) === renderPhrase(phrase(id, values), 'en');
    });
    expect(copied).toEqual([]);
  });
});

describe('a setting named inside a detail', () => {
  it('is worded as the member’s Discord shows the option, like the error’s own parameter', () => {
    let error: unknown;
    try {
      checkAgainstProfile(validateGenerateRequest({ prompt: 'x', moderation: 'low' }), 'dall-e-3', new ModelProfiles().of('dall-e-3').profile);
    } catch (err) {
      error = toUserFacingError(err, () => []);
    }
    const shown = describeUserError(error as UserFacingError, 'ref', (field) => localizedCommandName('ja', optionNameOf(field)), 'ja');
    expect(localizedCommandName('ja', 'moderation')).not.toBe('moderation');
    expect(shown).toContain(`dall-e-3 には ${localizedCommandName('ja', 'moderation')} の設定がありません`);
    expect(shown).not.toContain('moderation');
  });
});
