/** Phrases (src/core/phrase.ts) as an English member reads them, for tests that check the words of a refusal. */
import { renderPhrase } from '../../src/errors.js';
import type { ImageInputError } from '../../src/core/image-rules.js';
import type { Phrase } from '../../src/core/phrase.js';

/** A phrase in English; undefined stays undefined. */
export const english = (p: Phrase | undefined): string | undefined => (p === undefined ? undefined : renderPhrase(p, 'en'));

/** A refusal's parameter, and what is allowed and why in English. */
export const inEnglish = (err: ImageInputError): { param: string; allowed: string | undefined; detail: string | undefined } => ({
  param: err.param,
  allowed: english(err.allowed),
  detail: english(err.detail),
});
