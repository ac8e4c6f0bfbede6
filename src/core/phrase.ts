/**
 * The words the service and the commands put inside a member-facing error (why a request was refused, what is
 * allowed), as catalogue keys with values, so each member reads them in their own language: errors.ts renders a
 * phrase with the member's locale before inserting it. Pure, and imports nothing, so the pure rules the adapters may
 * use (image-rules.ts) can word their refusals with it too.
 *
 * A phrase's values are numbers (plurals, `number` formats), strings (model names, sizes, formats: tokens that stay
 * as they are), lists of such tokens (joined as the member's language writes a list) or other phrases.
 */

/** Every phrase's catalogue key (errors.ts holds each to an English message: a key missing there does not compile). */
export const PHRASE_IDS = [
  'detail.size.multiple',
  'detail.size.sides',
  'detail.size.ratio',
  'detail.size.pixels',
  'detail.size.notSize',
  'detail.megabytes',
  'detail.kilobytes',
  'detail.prompt.empty',
  'detail.prompt.tooLong',
  'detail.model.shorterPrompts',
  'detail.model.maxImages',
  'detail.model.listedSizes',
  'detail.model.cantMakeSize',
  'detail.model.noTransparency',
  'detail.model.noSetting',
  'detail.model.notOffered',
  'detail.model.notFormat',
  'detail.model.noEdits',
  'detail.model.maxEditImages',
  'detail.model.noMask',
  'detail.model.squarePngOnly',
  'detail.model.noVariations',
  'detail.model.nothingLarger',
  'detail.server.maxSize',
  'detail.server.maxQuality',
  'detail.download.notDiscord',
  'detail.download.tooLarge',
  'detail.download.expired',
  'detail.download.timeout',
  'detail.download.failed',
  'detail.download.cancelled',
  'detail.download.elsewhere',
  'detail.image.notEditable',
  'detail.image.notDescribable',
  'detail.image.tooManyPixels',
  'detail.param.messageImages',
  'detail.settings.channels',
  'detail.settings.roles',
  'detail.settings.priorityRoles',
  'detail.settings.priorityTarget',
  'detail.settings.draftsEverywhere',
  'detail.settings.draftsFull',
  'detail.hd.notDraft',
  'detail.target.both',
  'detail.region.empty',
  'detail.expression.emojiName',
  'detail.expression.stickerName',
  'detail.expression.stickerTags',
  'detail.expression.stickerDescription',
  'detail.guild.settings',
  'detail.guild.quotas',
  'detail.guild.usage',
  'detail.moderation.warning',
  'detail.value.tooSmall',
  'detail.value.tooBig',
  'detail.value.tooShort',
  'detail.value.tooLongText',
  'detail.value.oneOf',
  'detail.value.wholeNumber',
  'detail.value.invalid',
  'allowed.size',
  'allowed.sizeOrCustom',
  'allowed.oneOf',
  'allowed.wholeNumber',
  'allowed.upTo',
  'allowed.promptLength',
  'allowed.atMostCharacters',
  'allowed.modelName',
  'allowed.request',
  'allowed.transparentFormat',
  'allowed.compressionFormat',
  'allowed.imageFormat',
  'allowed.imageUnder',
  'allowed.imageCount',
  'allowed.imagesTogether',
  'allowed.leaveOut',
  'allowed.editModel',
  'allowed.editModelListed',
  'allowed.maskModel',
  'allowed.squarePng',
  'allowed.largerSize',
  'allowed.sizeOrRatio',
  'detail.size.bothGiven',
  'detail.model.noRatio',
  'detail.model.noSeeds',
  'allowed.readablePng',
  'allowed.readableImage',
  'allowed.maskAlpha',
  'allowed.maskDimensions',
  'allowed.serverSize',
  'allowed.serverSizeSetting',
] as const;

/** A phrase's catalogue key. */
export type PhraseId = (typeof PHRASE_IDS)[number];

/** A value a phrase inserts: see the module's comment. */
export type PhraseValue = string | number | readonly string[] | Phrase;

/**
 * Words from the catalogues (`id`, with its values), or tokens shown as they are (`literal`: values, sizes, model
 * names, joined as the member's language writes a list).
 */
export type Phrase = { readonly id: PhraseId; readonly values?: Readonly<Record<string, PhraseValue>> } | { readonly literal: readonly string[] };

/** A phrase from the catalogues. */
export const phrase = (id: PhraseId, values?: Readonly<Record<string, PhraseValue>>): Phrase => (values === undefined ? { id } : { id, values });

/** Tokens shown as they are (`png, webp`; a model name), as a list in the member's language. */
export const literal = (...items: readonly string[]): Phrase => ({ literal: items });

const IDS: ReadonlySet<string> = new Set(PHRASE_IDS);

/** True when `text` is a phrase's key (a schema's custom message names its phrase so). */
export const isPhraseId = (text: string): text is PhraseId => IDS.has(text);

/** 50 MB, 4 MB, 20 KB: the limit as members read it, as a phrase (the catalogues write the unit). */
export function bytesPhrase(bytes: number): Phrase {
  return bytes >= 1024 * 1024
    ? phrase('detail.megabytes', { size: Math.round(bytes / 1024 / 1024) })
    : phrase('detail.kilobytes', { size: Math.max(1, Math.round(bytes / 1024)) });
}

/** "it is larger than 50 MB": why an attachment was refused, downloaded or not. */
export const largerThan = (bytes: number): Phrase => phrase('detail.download.tooLarge', { size: bytesPhrase(bytes) });

/** "it is 20000×20000 pixels, more than the 50 megapixels I can open": an image refused for its declared size. */
export const tooManyPixels = ({ width, height, max }: { width: number; height: number; max: number }): Phrase =>
  phrase('detail.image.tooManyPixels', { width: String(width), height: String(height), max: Math.floor(max / 1_000_000) });

/** A phrase as operators read it in logs (key and values, no catalogue): `detail.model.noMask(model=dall-e-3)`. */
export function phraseForLog(p: Phrase): string {
  if ('literal' in p) return p.literal.join(', ');
  const values = Object.entries(p.values ?? {}).map(([name, value]) => `${name}=${valueForLog(value)}`);
  return values.length === 0 ? p.id : `${p.id}(${values.join(', ')})`;
}

const valueForLog = (value: PhraseValue): string =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : 'id' in value || 'literal' in value ? phraseForLog(value) : value.join(', ');
