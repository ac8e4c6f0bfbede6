/**
 * Step 1, preflight: the checks that need nothing fetched. The server's settings (channel rules, and for members the
 * allowed models and most images; its defaults filled in), moderation pauses, the request, the model's own rules (its
 * profile; where the server drafts, a request naming no quality made at the model's cheapest), and what Discord declares about the reference images (count, size, content type, and together no more
 * than the memory budget's references may be). A request refused here, or by the quota or the queue after it,
 * downloads nothing.
 */
import { UserFacingError } from '../../errors.js';
import { estimateChatCost } from '../chat-cost.js';
import { roundUsd } from '../../core/cost.js';
import { estimateCost } from '../cost-estimate.js';
import { checkDeclaredImages, validateGenerateRequest } from '../../core/image-rules.js';
import type { AttachmentRef, ImageJob } from '../../core/jobs.js';
import { checkAgainstProfile } from '../../core/profile-rules.js';
import { actionRequest } from '../../core/result-actions.js';
import { applySettings, checkServerSize, postsSpoilers } from '../server-settings.js';
import { applyRatio } from '../../core/aspect-ratios.js';
import { DEFAULT_SETTINGS, type ServerSettings } from '../../core/server-settings.js';
import { defaultModel, type JobDeps } from './deps.js';
import type { Prepared } from './job-values.js';
import { draftQuality, draftsHere, hdQuality, type DraftUse } from '../../core/drafts.js';

/** The settings of the server the job is accounted to (the defaults outside servers). */
export async function settingsOf({ rules }: Pick<JobDeps, 'rules'>, job: ImageJob): Promise<ServerSettings> {
  if (job.subject.guildId === null) return DEFAULT_SETTINGS;
  return (await rules.settings?.get(job.subject.guildId)) ?? DEFAULT_SETTINGS;
}

/** Checks the job against the server's `settings` and the model's rules; see the module comment. */
export async function preflight(deps: JobDeps, job: ImageJob, settings: ServerSettings): Promise<Prepared> {
  // A member paused by their moderation strikes is refused before anything is checked, reserved or sent.
  await deps.rules.moderation?.check(job.subject);
  const place = {
    channelId: job.origin.parentChannelId ?? job.origin.channelId,
    parentUnknown: job.origin.parentChannelId === null,
    manager: job.origin.manager === true,
    ageRestricted: job.origin.ageRestricted === true,
    roleIds: job.subject.roleIds,
  };
  const applied = validateGenerateRequest(applySettings(job.request, settings, place));
  const model = applied.model ?? defaultModel(deps.gateway);
  const { profile } = deps.rules.profiles.of(model);
  // Where the server drafts, a request naming no quality is made at the model's cheapest (before its default quality).
  const draft = job.request.quality === undefined && draftsHere(settings.drafts, place.channelId) ? draftQuality(profile.qualities) : undefined;
  const asked = applyRatio(draft ? { ...applied, quality: draft } : applied, model, profile);
  checkServerSize(asked, settings, place);
  // An action on a result asks for the size (and fidelity) its plan needs, from the image's declared dimensions.
  const action = job.edit?.transform && actionRequest(job.edit.transform, declaredDimensions(job.edit.images[0]), profile, model);
  const request = action ? { ...asked, size: action.size, ...(action.quality ? { quality: action.quality } : {}) } : asked;
  const edit = action && job.edit ? { ...job.edit, inputFidelity: action.inputFidelity } : job.edit;
  // /imagine's references (style, subject, a saved style's images) go to the edits endpoint: the model must take them.
  if (job.kind === 'imagine' && edit && !profile.edits) throw new UserFacingError('input.referencesNeedEdits', { model });
  checkAgainstProfile(request, model, profile, edit);
  // The ✨ Enhance button asks for nothing but the rewrite: where prompt help is off, it is refused, not run as written.
  if (job.enhance === 'required' && !(settings.promptHelp && deps.rules.promptHelp)) throw new UserFacingError('promptHelp.off');
  const { maxAttachmentBytes, memory } = deps.produce;
  if (edit) checkDeclaredImages(edit.images, edit.mask, maxAttachmentBytes, memory.referenceBytes);
  // A spoiler channel's results are spoilers, and so is what is made from a member's spoilered image, wherever it is.
  const spoiler = postsSpoilers(settings, place.channelId, place.parentUnknown) || hasSpoilerInput(edit);
  return {
    request,
    model,
    profile,
    previews: settings.previews,
    spoiler,
    edit,
    promptHelp: settings.promptHelp,
    ...estimates(deps, job, settings, { request, model, profile, edit, spoiler }),
    drafting: draftUseOf(deps, job, { request, profile, edit, spoiler, previews: settings.previews }, draft !== undefined),
  };
}

/**
 * What the job tells the drafting figures (drafts.ts): an HD re-render; or a draft, with what it would have cost at
 * high quality (undefined when the model's prices are not known: nothing to compare).
 */
function draftUseOf(
  deps: JobDeps,
  job: ImageJob,
  checked: Pick<Prepared, 'request' | 'profile' | 'edit' | 'spoiler' | 'previews'>,
  drafted: boolean,
): DraftUse | undefined {
  if (job.edit?.transform?.kind === 'hd') return { kind: 'hd' };
  if (!drafted) return undefined;
  const { request, profile, edit } = checked;
  const high = { ...request, quality: hdQuality(profile.qualities) ?? 'high' };
  const partialImages = partialImagesFor(deps, { ...checked, request: high });
  const highEstimateUsd = estimateCost(high, profile.prices, edit, { partialImages });
  return highEstimateUsd === undefined ? undefined : { kind: 'draft', highEstimateUsd };
}

/**
 * What the job is estimated to cost. Enhance is metered like the images: its call's estimate is held with theirs,
 * and the images' estimate counts the rewritten prompt at its longest.
 */
function estimates(
  deps: JobDeps,
  job: ImageJob,
  settings: ServerSettings,
  checked: Pick<Prepared, 'request' | 'model' | 'profile' | 'edit' | 'spoiler'>,
): Pick<Prepared, 'estimate' | 'imageEstimate' | 'enhanceEstimate' | 'unpricedModel'> {
  const { request, model, profile, edit, spoiler } = checked;
  const partialImages = partialImagesFor(deps, { profile, request, previews: settings.previews, spoiler });
  const enhanceCall = job.enhance && settings.promptHelp ? deps.rules.promptHelp?.enhanceCall(request.prompt) : undefined;
  const promptChars = enhanceCall ? enhanceCall.maxOutputTokens * 4 : undefined;
  const imageEstimate = estimateCost(request, profile.prices, edit, { partialImages, promptChars });
  const enhanceEstimate = enhanceCall ? estimateChatCost(enhanceCall, deps.rules.profiles.of(enhanceCall.model).profile.prices) : 0;
  return {
    estimate: imageEstimate === undefined || enhanceEstimate === undefined ? undefined : roundUsd(imageEstimate + enhanceEstimate),
    imageEstimate,
    enhanceEstimate: enhanceEstimate ?? 0,
    unpricedModel: imageEstimate === undefined || !enhanceCall ? model : enhanceCall.model,
  };
}

/** Partial images a call asks for (0: not streamed): none from a model that does not stream, nor for GIF or SVG. */
export function partialImagesFor(
  { produce }: Pick<JobDeps, 'produce'>,
  { profile, request, previews, spoiler }: Pick<Prepared, 'profile' | 'request' | 'previews' | 'spoiler'>,
): number {
  const raster = request.outputFormat !== 'gif' && request.outputFormat !== 'svg';
  // A preview would show in the clear what a spoiler channel hides.
  return previews && !spoiler && profile.streaming && raster ? produce.partialImages : 0;
}

/** Whether one of the member's input images (references or mask) was posted as a spoiler. */
function hasSpoilerInput(edit: ImageJob['edit']): boolean {
  return edit !== undefined && [...edit.images, ...(edit.mask ? [edit.mask] : [])].some((ref) => ref.spoiler === true);
}

/** An image's dimensions as Discord declared them; 1024×1024 when it did not. */
function declaredDimensions(ref: AttachmentRef | undefined): { width: number; height: number } {
  return { width: ref?.width ?? 1024, height: ref?.height ?? 1024 };
}
