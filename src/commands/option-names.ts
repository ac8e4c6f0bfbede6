/**
 * The slash-command option each request field is read from: the one place where request fields meet the names
 * members type. The image commands read and register their options by it, and the router words a field named
 * in an error as its option (the service names fields only).
 */
import type { RequestField } from '../core/image-request.js';

/** Request fields → option names. */
export const OPTION_NAMES = {
  prompt: 'prompt',
  model: 'model',
  size: 'size',
  ratio: 'ratio',
  resolution: 'resolution',
  quality: 'quality',
  background: 'background',
  outputFormat: 'format',
  outputCompression: 'compression',
  n: 'count',
  moderation: 'moderation',
  style: 'style',
  complexity: 'complexity',
  seed: 'seed',
  inputFidelity: 'fidelity',
  images: 'image',
  mask: 'mask',
} as const satisfies Record<RequestField, string>;

const OPTION_OF_FIELD = new Map<string, string>(Object.entries(OPTION_NAMES));

/** The option a member typed for a request field; any other name (an admin option, `partial_images`) unchanged. */
export function optionNameOf(field: string): string {
  return OPTION_OF_FIELD.get(field) ?? field;
}
