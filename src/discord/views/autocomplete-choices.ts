/**
 * The names of the image options' autocomplete choices that say more than their value (commands/image-autocomplete.ts
 * picks the choices), in the member's language.
 */
import { t } from '../../i18n/translate.js';

/** A custom size's choice: the size, marked when it is above the model's experimental bound. */
export function sizeChoiceName(size: string, experimental: boolean, locale?: string | null): string {
  return experimental ? t(locale, 'autocomplete.experimentalSize', { size }) : size;
}
