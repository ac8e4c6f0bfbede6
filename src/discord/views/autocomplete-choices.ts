/**
 * The names of the image options' autocomplete choices that say more than their value (commands/image-autocomplete.ts
 * picks the choices), in the member's language.
 */
import { t } from '../../i18n/translate.js';

/** A custom size's choice: the size, marked when it is above the model's experimental bound. */
export function sizeChoiceName(size: string, experimental: boolean, locale?: string | null): string {
  return experimental ? t(locale, 'autocomplete.experimentalSize', { size }) : size;
}

/** The fresh random seed offered for the `seed` option. */
export function randomSeedChoiceName(seed: number, locale?: string | null): string {
  // As a string: a seed is an identifier, never grouped as `1,234,567`.
  return t(locale, 'autocomplete.randomSeed', { seed: String(seed) });
}
