/**
 * The model's own rules, from its capability profile (model-profiles.ts): a request the model would refuse is
 * refused here, before any quota is reserved or anything fetched, naming what the model does accept. Runs after
 * image-rules' general checks, on the normalised request. Pure.
 */
import { codePoints, type GenerateRequest, WIRE_NAMES } from './image-request.js';
import { type DeclaredImage, ImageInputError } from './image-rules.js';
import { sameSize, type SizeChoice, sizeProblem, sizeText } from './sizes.js';
import type { ModelProfile } from './model-profiles.js';
import { literal, phrase, type Phrase } from './phrase.js';

/** What an edit brings, as Discord declares it (nothing is fetched yet). */
export interface DeclaredEdit {
  images: readonly (DeclaredImage & { width?: number | null | undefined; height?: number | null | undefined })[];
  mask?: DeclaredImage | undefined;
  inputFidelity?: string | undefined;
}

/** Values as they are, listed in the member's language. */
const list = (values: readonly string[]): Phrase => literal(...values);
const LEAVE_OUT = phrase('allowed.leaveOut');

/**
 * Checks `request` (and an edit's declared inputs) against `model`'s profile.
 * @throws ImageInputError naming the parameter, what the model accepts, and why
 */
export function checkAgainstProfile(request: GenerateRequest, model: string, profile: ModelProfile, edit?: DeclaredEdit): void {
  const refuse = (field: keyof typeof WIRE_NAMES, allowed: Phrase, detail: Phrase): never => {
    throw new ImageInputError(WIRE_NAMES[field], allowed, detail);
  };
  if (codePoints(request.prompt) > profile.maxPromptLength)
    refuse('prompt', phrase('allowed.atMostCharacters', { max: profile.maxPromptLength }), phrase('detail.model.shorterPrompts', { model }));
  if ((request.n ?? 1) > profile.maxN)
    refuse('n', phrase('allowed.upTo', { max: profile.maxN }), phrase('detail.model.maxImages', { model, max: profile.maxN }));
  checkSize(request.size, model, profile);
  checkChoice('quality', request.quality, profile.qualities, model, refuse);
  checkFormat(request, model, profile, refuse);
  if (request.background === 'transparent' && !profile.backgrounds.includes('transparent'))
    refuse('background', list(['auto', ...profile.backgrounds.filter((b) => b !== 'auto')]), phrase('detail.model.noTransparency', { model }));
  checkChoice('background', request.background, profile.backgrounds, model, refuse);
  if (request.moderation === 'low' && !profile.moderation) refuse('moderation', literal('auto'), noSetting(model, 'moderation'));
  checkChoice('style', request.style, profile.styles, model, refuse);
  checkChoice('complexity', request.complexity, profile.complexities, model, refuse);
  if (request.seed !== undefined && profile.seeds !== true) refuse('seed', LEAVE_OUT, phrase('detail.model.noSeeds', { model }));
  if (edit) checkEdit(edit, model, profile, refuse);
}

type Refuse = (field: keyof typeof WIRE_NAMES, allowed: Phrase, detail: Phrase) => never;

const noSetting = (model: string, setting: string): Phrase => phrase('detail.model.noSetting', { model, setting });

/** A value of a list parameter; `auto` is always fine (left out when the model has no such word). */
function checkChoice(field: keyof typeof WIRE_NAMES, value: string | undefined, accepted: readonly string[], model: string, refuse: Refuse): void {
  if (value === undefined || value === 'auto' || accepted.includes(value)) return;
  if (accepted.length === 0) refuse(field, LEAVE_OUT, noSetting(model, field));
  refuse(field, list(accepted), phrase('detail.model.notOffered', { model, value }));
}

function checkFormat(request: GenerateRequest, model: string, profile: ModelProfile, refuse: Refuse): void {
  // A model without output_format makes PNG: asking for png is fine, and nothing is sent.
  const formats: readonly string[] = profile.formats.length > 0 ? profile.formats : ['png'];
  if (request.outputFormat !== undefined && !formats.includes(request.outputFormat))
    refuse('outputFormat', list(formats), phrase('detail.model.notFormat', { model, format: request.outputFormat.toUpperCase() }));
  if (request.outputCompression !== undefined && !profile.compression) refuse('outputCompression', LEAVE_OUT, noSetting(model, 'compression'));
}

function checkSize(size: SizeChoice | undefined, model: string, profile: ModelProfile): void {
  if (size === undefined || size === 'auto' || profile.sizes.some((listed) => sameSize(listed, size))) return;
  const rule = profile.customSizes;
  const listed = profile.sizes.map(sizeText);
  const sizes = profile.autoSize ? ['auto', ...listed] : listed;
  if (!rule) throw new ImageInputError(WIRE_NAMES.size, list(sizes), phrase('detail.model.listedSizes', { model }));
  const problem = sizeProblem(size.width, size.height, rule);
  if (problem)
    throw new ImageInputError(
      WIRE_NAMES.size,
      phrase('allowed.sizeOrCustom', { sizes, problem }),
      phrase('detail.model.cantMakeSize', { model, size: sizeText(size) }),
    );
}

function checkEdit(edit: DeclaredEdit, model: string, profile: ModelProfile, refuse: Refuse): void {
  const edits = profile.edits;
  if (!edits) return refuse('images', phrase('allowed.editModelListed'), phrase('detail.model.noEdits', { model }));
  if (edit.images.length > edits.maxImages)
    refuse('images', phrase('allowed.imageCount', { max: edits.maxImages }), phrase('detail.model.maxEditImages', { model, max: edits.maxImages }));
  if (edit.mask && !edits.mask) refuse('mask', LEAVE_OUT, phrase('detail.model.noMask', { model }));
  if (edit.inputFidelity !== undefined && !edits.inputFidelity) refuse('inputFidelity', LEAVE_OUT, noSetting(model, 'fidelity'));
  if (!edits.squarePng) return;
  for (const image of edit.images) {
    const type = image.contentType?.split(';')[0]?.trim().toLowerCase();
    const notSquare = image.width != null && image.height != null && image.width !== image.height;
    if ((type !== undefined && type !== 'image/png') || notSquare)
      refuse('images', phrase('allowed.squarePng'), phrase('detail.model.squarePngOnly', { model }));
  }
}
