/**
 * Autocomplete for the model and size options. It must answer within Discord's 3-second window even when the
 * gateway is slow, so it waits a short while for the catalogue and otherwise answers from the cache.
 */
import type { AutocompleteInteraction } from 'discord.js';
import { isValidSizeText, STANDARD_SIZES } from '../service/image-rules.js';
import type { GatewayModel, ImageGateway } from '../service/ports.js';

/** Discord shows at most 25 choices. */
export const MAX_CHOICES = 25;
/** How long to wait for a fresh catalogue before answering from the cache. */
export const CATALOGUE_WAIT_MS = 1_200;

/** Creates the autocomplete handler shared by /imagine and /edit. */
export function createImageAutocomplete(models: Pick<ImageGateway, 'listModels' | 'cachedModels'>) {
  return async (interaction: AutocompleteInteraction): Promise<void> => {
    const focused = interaction.options.getFocused(true);
    const typed = focused.value.trim().toLowerCase();
    const names = focused.name === 'model' ? await modelChoices(models, typed) : focused.name === 'size' ? sizeChoices(typed) : [];
    await interaction.respond(names.slice(0, MAX_CHOICES).map((name) => ({ name, value: name })));
  };
}

async function modelChoices(models: Pick<ImageGateway, 'listModels' | 'cachedModels'>, typed: string): Promise<string[]> {
  const list = await withTimeout(models.listModels(), CATALOGUE_WAIT_MS, () => models.cachedModels());
  const matching = list.filter((m: GatewayModel) => m.id.toLowerCase().includes(typed));
  // Image models first (the catalogue is already ordered that way); other models only when typed for.
  return matching.filter((m) => m.image || typed.length > 0).map((m) => m.id);
}

/** The standard sizes that match what is typed, plus the typed value itself when it is a valid custom size. */
export function sizeChoices(typed: string): string[] {
  const standard = ['auto', ...STANDARD_SIZES].filter((s) => s.startsWith(typed));
  return isValidSizeText(typed) && !standard.includes(typed) ? [typed, ...standard] : standard;
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
