/**
 * The model's own rules, from its capability profile (model-profiles.ts): a request the model would refuse is
 * refused here, before any quota is reserved or anything fetched, naming what the model does accept. Runs after
 * image-rules' general checks, on the normalised request. Pure.
 */
import { codePoints, type GenerateRequest, WIRE_NAMES } from './image-request.js';
import { type DeclaredImage, ImageInputError, parseSize, sizeProblem } from './image-rules.js';
import type { ModelProfile } from './model-profiles.js';

/** What an edit brings, as Discord declares it (nothing is fetched yet). */
export interface DeclaredEdit {
  images: readonly (DeclaredImage & { width?: number | null | undefined; height?: number | null | undefined })[];
  mask?: DeclaredImage | undefined;
  inputFidelity?: string | undefined;
}

const list = (values: readonly string[]): string => values.join(', ');

/**
 * Checks `request` (and an edit's declared inputs) against `model`'s profile.
 * @throws ImageInputError naming the parameter, what the model accepts, and why
 */
export function checkAgainstProfile(request: GenerateRequest, model: string, profile: ModelProfile, edit?: DeclaredEdit): void {
  const refuse = (field: keyof typeof WIRE_NAMES, allowed: string, detail: string): never => {
    throw new ImageInputError(WIRE_NAMES[field], allowed, detail);
  };
  if (codePoints(request.prompt) > profile.maxPromptLength)
    refuse('prompt', `at most ${profile.maxPromptLength.toLocaleString('en')} characters`, `${model} takes shorter prompts`);
  if ((request.n ?? 1) > profile.maxN)
    refuse('n', profile.maxN === 1 ? '1' : `1 to ${profile.maxN}`, `${model} makes at most ${profile.maxN} image${profile.maxN === 1 ? '' : 's'} per request`);
  checkSize(request.size, model, profile);
  checkChoice('quality', request.quality, profile.qualities, model, refuse);
  checkFormat(request, model, profile, refuse);
  if (request.background === 'transparent' && !profile.backgrounds.includes('transparent'))
    refuse('background', list(['auto', ...profile.backgrounds.filter((b) => b !== 'auto')]), `${model} can't make transparent backgrounds`);
  checkChoice('background', request.background, profile.backgrounds, model, refuse);
  if (request.moderation === 'low' && !profile.moderation) refuse('moderation', 'auto', `${model} has no moderation setting`);
  checkChoice('style', request.style, profile.styles, model, refuse);
  checkChoice('complexity', request.complexity, profile.complexities, model, refuse);
  if (edit) checkEdit(edit, model, profile, refuse);
}

type Refuse = (field: keyof typeof WIRE_NAMES, allowed: string, detail: string) => never;

/** A value of a list parameter; `auto` is always fine (left out when the model has no such word). */
function checkChoice(field: keyof typeof WIRE_NAMES, value: string | undefined, accepted: readonly string[], model: string, refuse: Refuse): void {
  if (value === undefined || value === 'auto' || accepted.includes(value)) return;
  if (accepted.length === 0) refuse(field, 'leave it out', `${model} has no ${field} setting`);
  refuse(field, list(accepted), `${model} doesn't offer ${value}`);
}

function checkFormat(request: GenerateRequest, model: string, profile: ModelProfile, refuse: Refuse): void {
  // A model without output_format makes PNG: asking for png is fine, and nothing is sent.
  const formats: readonly string[] = profile.formats.length > 0 ? profile.formats : ['png'];
  if (request.outputFormat !== undefined && !formats.includes(request.outputFormat))
    refuse('outputFormat', list(formats), `${model} doesn't make ${request.outputFormat.toUpperCase()}`);
  if (request.outputCompression !== undefined && !profile.compression) refuse('outputCompression', 'leave it out', `${model} has no compression setting`);
}

function checkSize(size: string | undefined, model: string, profile: ModelProfile): void {
  if (size === undefined || size === 'auto' || profile.sizes.includes(size)) return;
  const rule = profile.customSizes;
  const listed = list(profile.autoSize ? ['auto', ...profile.sizes] : profile.sizes);
  if (!rule) throw new ImageInputError(WIRE_NAMES.size, listed, `${model} takes only its listed sizes`);
  const parsed = parseSize(size);
  const problem = parsed ? sizeProblem(parsed.width, parsed.height, rule) : 'not WIDTHxHEIGHT';
  if (problem) throw new ImageInputError(WIRE_NAMES.size, `${listed}, or WIDTHxHEIGHT where ${problem}`, `${model} can't make ${size}`);
}

function checkEdit(edit: DeclaredEdit, model: string, profile: ModelProfile, refuse: Refuse): void {
  const edits = profile.edits;
  if (!edits) return refuse('images', 'a model that edits images (see /models)', `${model} can't edit images`);
  if (edit.images.length > edits.maxImages)
    refuse('images', `1 to ${edits.maxImages} image${edits.maxImages === 1 ? '' : 's'}`, `${model} takes at most ${edits.maxImages} per edit`);
  if (edit.mask && !edits.mask) refuse('mask', 'leave it out', `${model} doesn't take a mask`);
  if (edit.inputFidelity !== undefined && !edits.inputFidelity) refuse('inputFidelity', 'leave it out', `${model} has no fidelity setting`);
  if (!edits.squarePng) return;
  for (const image of edit.images) {
    const type = image.contentType?.split(';')[0]?.trim().toLowerCase();
    const notSquare = image.width != null && image.height != null && image.width !== image.height;
    if ((type !== undefined && type !== 'image/png') || notSquare) refuse('images', 'one square PNG image', `${model} edits square PNGs only`);
  }
}
