/**
 * The actions under a result card (issue 18): Vary (subtle, strong), Remix, Zoom out (1.5×, 2×), Pan, Vary region
 * and Enlarge on the card's image, and U1…U10 on a card of several, which post the chosen image as a card of its own.
 * Every action is a normal job started from the click (startJob): charged to whoever clicks, with every gate checked
 * again for them; the service plans the size, canvas and mask from the model's profile, and refuses what the model
 * cannot do before anything is charged. The result's request comes from the archive (so after a restart too). Make
 * 💎 HD makes a draft again at high quality (drafts.ts). Make emoji and Make sticker turn the card's image into the server's own (expression-actions.ts); ⭐ saves it to the
 * clicker's favorites and the server's showcase (favorite-action.ts).
 */
import type { ButtonInteraction, ModalSubmitInteraction } from 'discord.js';
import { UserFacingError } from '../errors.js';
import { GenerateRequest } from '../core/image-request.js';
import type { EditTransform } from '../core/result-actions.js';
import type { AttachmentRef } from '../core/jobs.js';
import { component, type ComponentHandler, type InteractionContext } from './command.js';
import { cardImages } from '../discord/message-images.js';
import { deferInBackground, startJob, type ImageCommandDeps } from './image-jobs.js';
import { buildJob } from './job-from-interaction.js';
import { readPrompt } from './prompt-modal.js';
import { CELLS_FIELD, MODE_FIELD, QUALITY_FIELD, regionModal, remixModal, SIZE_FIELD } from '../discord/views/action-modals.js';
import { ACTIONS, CUSTOM_IDS, pickedImage } from '../discord/custom-ids.js';
import { phrase } from '../core/phrase.js';
import { isDraft } from '../core/drafts.js';
import { askExpression, expressionKindOf, makeExpressionFromModal, type ExpressionActionDeps } from './expression-actions.js';
import { starResult, type FavoriteActionDeps } from './favorite-action.js';

type Deps = ImageCommandDeps & ExpressionActionDeps & FavoriteActionDeps;

/** The transform each button asks for, by its code (any other code: none). */
const TRANSFORMS = new Map<string, EditTransform>([
  [ACTIONS.varySubtle, { kind: 'vary', strength: 'subtle' }],
  [ACTIONS.varyStrong, { kind: 'vary', strength: 'strong' }],
  [ACTIONS.enlarge, { kind: 'enlarge' }],
  [ACTIONS.zoom15, { kind: 'zoom', factor: 1.5 }],
  [ACTIONS.zoom2, { kind: 'zoom', factor: 2 }],
  [ACTIONS.panLeft, { kind: 'pan', direction: 'left' }],
  [ACTIONS.panRight, { kind: 'pan', direction: 'right' }],
  [ACTIONS.panUp, { kind: 'pan', direction: 'up' }],
  [ACTIONS.panDown, { kind: 'pan', direction: 'down' }],
]);

/** Creates the handler of every action button and of the Remix and Vary region modals. */
export function createImageActions(deps: Deps): ComponentHandler {
  const recalled = (jobId: string) => recalledRecord(deps, jobId);
  return component(CUSTOM_IDS.action, {
    async button(interaction, { jobId, code }, ctx) {
      if (code === ACTIONS.favorite) return starResult(interaction, jobId, chosenImage(interaction), deps, ctx);
      const expression = expressionKindOf(code);
      if (expression) {
        chosenImage(interaction);
        return askExpression(interaction, jobId, expression, deps);
      }
      if (code === ACTIONS.remix || code === ACTIONS.region) {
        chosenImage(interaction);
        const record = await recalled(jobId);
        await interaction.showModal(
          code === ACTIONS.remix ? remixModal(jobId, record.request, interaction.locale) : regionModal(jobId, record.request.prompt, interaction.locale),
        );
        return;
      }
      const pick = pickedImage(code);
      if (pick !== undefined) return present(interaction, ctx, deps, jobId, pick);
      if (code === ACTIONS.hd) return makeHd(interaction, ctx, deps, jobId);
      const transform = TRANSFORMS.get(code);
      if (!transform) throw new UserFacingError('button.expired');
      const image = chosenImage(interaction);
      deferInBackground(interaction, ctx);
      const record = await recalled(jobId);
      ctx.logger.info({ from: jobId, action: transform.kind }, 'action on a result');
      await startJob(interaction, ctx, deps, 'edit', kept(record.request), { images: [image], transform });
    },
    async modal(interaction, { jobId, code }, ctx) {
      const image = chosenImage(interaction);
      const expression = expressionKindOf(code);
      if (expression) return makeExpressionFromModal(interaction, jobId, expression, image, deps, ctx);
      const prompt = readPrompt(interaction);
      const record = await recalled(jobId);
      if (code === ACTIONS.region) return regionFromModal(interaction, ctx, deps, { jobId, record, image, prompt });
      await remixFromModal(interaction, ctx, deps, { jobId, record, image, prompt });
    },
  });
}

/** What a modal's action starts from: the result's record, the image chosen on its card, the prompt typed. */
interface ModalStart {
  jobId: string;
  record: Awaited<ReturnType<typeof recalledRecord>>;
  image: ReturnType<typeof chosenImage>;
  prompt: string;
}

/** Vary region: an edit of the chosen cells of the image. */
async function regionFromModal(interaction: ModalSubmitInteraction, ctx: InteractionContext, deps: Deps, start: ModalStart): Promise<void> {
  const { jobId, record, image, prompt } = start;
  const cells = interaction.fields.getStringSelectValues(CELLS_FIELD).map(Number);
  if (cells.length === 0) throw new UserFacingError('input.invalid', { param: 'region', detail: phrase('detail.region.empty') });
  deferInBackground(interaction, ctx);
  ctx.logger.info({ from: jobId, action: 'region', cells }, 'action on a result');
  await startJob(interaction, ctx, deps, 'edit', { ...kept(record.request), prompt }, { images: [image], transform: { kind: 'region', cells } });
}

/** Remix: the prompt (and size or quality) changed, made again from the prompt or as an edit of the image. */
async function remixFromModal(interaction: ModalSubmitInteraction, ctx: InteractionContext, deps: Deps, start: ModalStart): Promise<void> {
  const { jobId, record, image, prompt } = start;
  const changed = GenerateRequest.pick({ size: true, quality: true }).safeParse({
    size: optional(interaction.fields.getTextInputValue(SIZE_FIELD)),
    quality: optional(interaction.fields.getTextInputValue(QUALITY_FIELD)),
  });
  if (!changed.success) throw new UserFacingError('input.invalid', { param: String(changed.error.issues[0]?.path[0] ?? 'size') });
  // A size typed in the modal replaces the ratio the result was asked with.
  const typed = changed.data.size === undefined ? {} : { ratio: undefined, resolution: undefined };
  // The same seed with changed words shows what the words change (the model is the result's, which took the seed).
  const request = { ...kept(record.request), seed: record.request.seed, ...changed.data, ...typed, prompt };
  const fromImage = interaction.fields.getStringSelectValues(MODE_FIELD)[0] === 'edit';
  deferInBackground(interaction, ctx);
  ctx.logger.info({ from: jobId, action: 'remix', fromImage }, 'action on a result');
  if (fromImage) await startJob(interaction, ctx, deps, 'edit', request, { images: [image] });
  else await startJob(interaction, ctx, deps, 'imagine', { ...request, n: record.request.n === undefined ? undefined : 1 });
}

/**
 * HD: the card's image (a draft) made again at high quality, an edit with the same prompt; a normal job of the
 * clicker's, so every gate holds for them (money limit and cost confirmation included: its estimate is at high
 * quality). Refused on a result that was not a draft (its record says what it was made at).
 */
async function makeHd(interaction: ButtonInteraction, ctx: InteractionContext, deps: Deps, jobId: string): Promise<void> {
  const image = chosenImage(interaction);
  deferInBackground(interaction, ctx);
  const record = await recalledRecord(deps, jobId);
  if (!isDraft(record.request.quality ?? record.madeAt)) throw new UserFacingError('input.invalid', { param: 'quality', detail: phrase('detail.hd.notDraft') });
  ctx.logger.info({ from: jobId, action: 'hd' }, 'action on a result');
  // Asked at high quality (the server's highest quality holds); the service asks the model's own word for it.
  await startJob(interaction, ctx, deps, 'edit', { ...kept(record.request), quality: 'high' }, { images: [image], transform: { kind: 'hd' } });
}

/** The result's stored record; gone (expired), the click is answered as an expired button. */
async function recalledRecord(deps: Deps, jobId: string) {
  const record = await deps.archive.recall(jobId);
  if (!record) throw new UserFacingError('button.expired');
  return record;
}

/**
 * U1…: posts image `index` of the result as a card of its own (no gateway call, nothing charged), credited to the
 * result's requester whoever clicks.
 */
async function present(interaction: ButtonInteraction, ctx: InteractionContext, deps: Deps, jobId: string, index: number): Promise<void> {
  const images = cardImages(interaction.message);
  // A long result spans messages of 10 images: the index counts from the first message's first image.
  const first = Number(/-(\d+)\.\w+$/.exec(images[0]?.filename ?? '')?.[1] ?? 1) - 1;
  const image = images[index - first];
  if (!image) throw new UserFacingError('input.noImages');
  deferInBackground(interaction, ctx);
  const record = await deps.archive.recall(jobId);
  if (!record) throw new UserFacingError('button.expired');
  ctx.logger.info({ from: jobId, image: index }, 'image picked from a result');
  // A draft's card offers HD: the quality it was made at goes with the image.
  const built = buildJob(interaction, record.kind, { ...record.request, quality: record.request.quality ?? record.madeAt, n: undefined }, record.edit);
  // The image stays its requester's: the card credits them and only they (or Manage Messages) may delete it; the
  // clicker's own work begins with the actions on it, each a job of theirs. The clicker's line still limits U1.
  const job = { ...built, origin: { ...built.origin, requesterId: record.requesterId } };
  await deps.images.present(job, image, deps.createResponder(interaction, ctx));
}

/** The card's image (a single-image card: its first PNG, JPEG or WebP image, from its attachments or its gallery). */
function chosenImage(interaction: ButtonInteraction | ModalSubmitInteraction): AttachmentRef {
  const image = interaction.message ? cardImages(interaction.message)[0] : undefined;
  if (!image) throw new UserFacingError('input.noImages');
  return image;
}

/**
 * What an action keeps of the result's request: the model and its look, not its count, size or seed (Vary, Zoom,
 * Pan, Vary region, Enlarge and HD edit the image itself; Remix adds the seed back).
 */
function kept(request: GenerateRequest): GenerateRequest {
  const { prompt, model, quality, background, outputFormat, outputCompression, moderation, style } = request;
  return { prompt, model, quality, background, outputFormat, outputCompression, moderation, style };
}

const optional = (text: string): string | undefined => (text.trim() === '' ? undefined : text.trim());
