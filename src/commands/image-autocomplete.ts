/**
 * Autocomplete for the image options whose values depend on the model: model, size, quality, format, background,
 * style, complexity and seed (offered only where the profile has seeds). Each offers only what the chosen model (the
 * `model` option as typed so far, else the default in use) accepts, from its profile (model-profiles.ts); the
 * service checks the value again, since Discord does not hold members to the suggestions. It must answer within
 * Discord's 3-second window even when the gateway is slow, so it waits a short while for the catalogue and
 * otherwise answers from the cache.
 */
import { randomInt } from 'node:crypto';
import type { AutocompleteInteraction } from 'discord.js';
import { MAX_SEED } from '../core/image-request.js';
import { readSize, sizeProblem, sizeText } from '../core/sizes.js';
import { isAspectRatio, ratiosOf, resolutionsOf } from '../core/aspect-ratios.js';
import type { ModelProfile, ModelProfiles } from '../core/model-profiles.js';
import type { GatewayModel } from '../core/images.js';
import type { ImageGateway } from '../ports/image-gateway.js';
import { OPTION_NAMES } from './option-names.js';
import { localizedChoiceName } from '../i18n/command-localizations.js';
import { randomSeedChoiceName, sizeChoiceName } from '../discord/views/autocomplete-choices.js';

/** Discord shows at most 25 choices. */
export const MAX_CHOICES = 25;
/** How long to wait for a fresh catalogue before answering from the cache. */
export const CATALOGUE_WAIT_MS = 1_200;

/** One suggestion: what the member reads, and the value sent. */
interface Choice {
  name: string;
  value: string;
}

/** A suggestion of the integer `seed` option. */
interface SeedChoice {
  name: string;
  value: number;
}

/** A fresh seed, 0 to {@link MAX_SEED}. */
const randomSeed = (): number => randomInt(0, MAX_SEED + 1);

type Catalogue = Pick<ImageGateway, 'listModels' | 'cachedModels'>;

/** Creates the autocomplete handler shared by /imagine and /edit; `newSeed` draws the random seed offered. */
export function createImageAutocomplete(models: Catalogue, profiles: Pick<ModelProfiles, 'of'>, newSeed: () => number = randomSeed) {
  return async (interaction: AutocompleteInteraction): Promise<void> => {
    const focused = interaction.options.getFocused(true);
    const typed = focused.value.trim().toLowerCase();
    let choices: (Choice | SeedChoice)[];
    if (focused.name === OPTION_NAMES.model) {
      choices = (await modelChoices(models, typed)).map(plain);
    } else {
      const chosen = interaction.options.getString(OPTION_NAMES.model)?.trim();
      const model = chosen === undefined || chosen === '' ? models.cachedModels().find((m) => m.default === true)?.id : chosen;
      const ratio = interaction.options.getString(OPTION_NAMES.ratio) ?? undefined;
      const profile = model === undefined ? undefined : profiles.of(model).profile;
      choices =
        focused.name === OPTION_NAMES.seed
          ? seedChoices(typed, profile, newSeed, interaction.locale)
          : valueChoices(focused.name, typed, profile, interaction.locale, ratio);
    }
    await interaction.respond(choices.slice(0, MAX_CHOICES));
  };
}

const plain = (value: string): Choice => ({ name: value, value });

async function modelChoices(models: Catalogue, typed: string): Promise<string[]> {
  const list = await withTimeout(models.listModels(), CATALOGUE_WAIT_MS, () => models.cachedModels());
  const matching = list.filter((m: GatewayModel) => m.id.toLowerCase().includes(typed));
  // Image models first (the catalogue is already ordered that way); other models only when typed for.
  return matching.filter((m) => m.image || typed.length > 0).map((m) => m.id);
}

/**
 * The values of a model-dependent option that start with what is typed, each named in the member's language where
 * the word has a translation (`high`: 高); nothing for an option without suggestions.
 */
export function valueChoices(option: string, typed: string, profile: ModelProfile | undefined, locale?: string | null, ratio?: string): Choice[] {
  if (!profile) return [];
  const worded = (value: string): Choice => ({ name: localizedChoiceName(locale, value), value });
  const starting = (values: readonly string[]) => values.filter((v) => v.startsWith(typed)).map(worded);
  switch (option) {
    case OPTION_NAMES.size:
      return sizeChoices(typed, profile, locale);
    case OPTION_NAMES.ratio:
      return ratiosOf(profile)
        .filter((r) => r.ratio.startsWith(typed))
        .map((r) => ({ name: sizeChoiceName(r.ratio, r.experimental, locale), value: r.ratio }));
    case OPTION_NAMES.resolution:
      return resolutionsOf(profile, isAspectRatio(ratio) ? ratio : undefined)
        .filter((r) => r.resolution.toLowerCase().startsWith(typed))
        .map((r) => ({ name: sizeChoiceName(r.resolution, r.experimental, locale), value: r.resolution }));
    case OPTION_NAMES.quality:
      return starting(profile.qualities.length > 0 ? profile.qualities : ['auto']);
    case OPTION_NAMES.outputFormat:
      return starting(profile.formats.length > 0 ? profile.formats : ['png']);
    case OPTION_NAMES.background:
      return starting(profile.backgrounds.length > 0 ? profile.backgrounds : ['auto']);
    case OPTION_NAMES.style:
      return starting(profile.styles);
    case OPTION_NAMES.complexity:
      return starting(profile.complexities);
    default:
      return [];
  }
}

/**
 * Seeds, only for a model whose profile has them: the number typed so far (when it is a seed), then a fresh random
 * one; nothing for any other model, so members are not offered what would be refused.
 */
export function seedChoices(typed: string, profile: ModelProfile | undefined, newSeed: () => number, locale?: string | null): SeedChoice[] {
  if (profile?.seeds !== true) return [];
  const number = /^\d{1,10}$/.test(typed) ? Number(typed) : undefined;
  const own = number !== undefined && number <= MAX_SEED ? [{ name: String(number), value: number }] : [];
  const seed = newSeed();
  return [...own, { name: randomSeedChoiceName(seed, locale), value: seed }];
}

/**
 * The model's listed sizes (and auto) that match what is typed, plus the typed value itself when it is a custom
 * size the model takes; a size above the model's experimental bound says so.
 */
export function sizeChoices(typed: string, profile: ModelProfile, locale?: string | null): Choice[] {
  const listed = ['auto', ...profile.sizes.map(sizeText)]
    .filter((s) => s.startsWith(typed))
    .map((value) => ({ name: localizedChoiceName(locale, value), value }));
  const rule = profile.customSizes;
  const size = readSize(typed);
  if (!rule || size === undefined || size === 'auto' || sizeProblem(size.width, size.height, rule) !== undefined) return listed;
  const value = sizeText(size);
  if (listed.some((c) => c.value === value)) return listed;
  const experimental = rule.experimentalAbovePixels !== undefined && size.width * size.height > rule.experimentalAbovePixels;
  return [{ name: sizeChoiceName(value, experimental, locale), value }, ...listed];
}

async function withTimeout<T>(promise: Promise<T>, ms: number, fallback: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback()), ms);
  });
  try {
    return await Promise.race([promise.catch(fallback), late]);
  } finally {
    clearTimeout(timer);
  }
}
