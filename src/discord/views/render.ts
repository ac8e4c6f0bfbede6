/**
 * Message text and components for progress and results. Pure: easy to test, no Discord calls.
 */
import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIButtonComponent, type APIEmbed } from 'discord.js';
import { inertText, shortenForDiscord } from '../text.js';
import type { CostConfirmation, Delivery, DeliveryNotice, JobProgress } from '../../core/jobs.js';
import { formatUsd, t, translator } from '../../i18n/translate.js';
import { CUSTOM_IDS } from '../custom-ids.js';
import { spoilerButton } from './spoiler-toggle.js';

/** Blurple, the accent of the bot's cards and of its progress. */
export const CARD_ACCENT = 0x5865f2;
/** Discord's red: the accent of error cards, so they never look like results. */
export const ERROR_ACCENT = 0xed4245;
/** Discord's limit on an embed's description. */
const MAX_EMBED_DESCRIPTION = 4096;

/**
 * Progress as the reply shows it: an embed in the cards' colour, the preview (an attachment of the reply, by name) as
 * its image. An embed, not a Components V2 card: an edit may upload the image an embed shows, while one that uploads
 * the image a V2 gallery shows is refused (discord-api-docs#7529; deferred-reply.ts).
 */
export function progressEmbed(text: string, image?: string): APIEmbed {
  const embed: APIEmbed = { description: shortenForDiscord(text, MAX_EMBED_DESCRIPTION), color: CARD_ACCENT };
  if (image !== undefined) embed.image = { url: `attachment://${image}` };
  return embed;
}

/** Progress text for the deferred reply, in the member's language (`locale`, English by default). */
export function renderProgress(progress: JobProgress, locale?: string | null): string {
  switch (progress.stage) {
    case 'queued':
      return progress.position <= 1 ? t(locale, 'progress.queuedNext') : t(locale, 'progress.queued', { position: progress.position });
    case 'gatewayQueued':
      return t(locale, 'progress.gatewayQueued', { sentAt: `<t:${Math.floor(progress.startedAt / 1000)}:R>` });
    case 'generating':
      // Discord renders <t:…:R> as a live "12 seconds ago" in the reader's language: elapsed time without an edit per second.
      return t(locale, 'progress.generating', { startedAt: `<t:${Math.floor(progress.startedAt / 1000)}:R>`, hasPreview: progress.preview ? 'yes' : 'no' });
  }
}

/**
 * The footer under a result, in words: what was done (Imagined, Edited, Varied (strong), Zoomed out 2×, …) for whom,
 * and how (model, the size made, the quality, the seed), and which part of a long delivery this message is; in the requester's
 * language.
 */
export function renderFooter(delivery: Delivery, part?: { index: number; total: number }): string {
  const { job } = delivery;
  const locale = job.origin.locale;
  const quality =
    job.request.quality && job.request.quality !== 'auto' ? t(locale, 'result.quality', { quality: job.request.quality }) : t(locale, 'result.qualityAuto');
  // The ratio asked for, beside the size made (`16:9 · 2048×1152`); the seed as a string, never grouped (`1,234`).
  const seed = job.request.seed === undefined ? undefined : t(locale, 'result.seed', { seed: String(job.request.seed) });
  const details = [delivery.model, job.request.ratio, sizeMade(delivery), quality, seed].filter((d): d is string => d !== undefined).join(' · ');
  const partText = part && part.total > 1 ? ` (${part.index}/${part.total})` : '';
  const action = t(locale, 'result.action', { action: actionOf(job) });
  return `-# ${t(locale, 'result.footer', { action, requester: `<@${job.origin.requesterId}>`, details })}${partText}`;
}

/** The size of the first image made (`1536×1024`), else the size asked for; undefined when neither is known. */
function sizeMade(delivery: Delivery): string | undefined {
  const image = delivery.files.find((f) => f.original !== true);
  if (image) return `${image.width}×${image.height}`;
  const asked = delivery.job.request.size;
  return asked === undefined || asked === 'auto' ? undefined : `${asked.width}×${asked.height}`;
}

/** What a job did, as `result.action` words it. */
function actionOf(job: Delivery['job']): string {
  const transform = job.edit?.transform;
  if (!transform) return job.kind;
  switch (transform.kind) {
    case 'vary':
      return transform.strength === 'subtle' ? 'varySubtle' : 'varyStrong';
    case 'zoom':
      return transform.factor === 2 ? 'zoom2' : 'zoom15';
    case 'pan':
      return `pan${transform.direction.charAt(0).toUpperCase()}${transform.direction.slice(1)}`;
    case 'region':
    case 'enlarge':
    case 'hd':
      return transform.kind;
  }
}

/** The lines under a result's prompt: the footer, then the enhanced prompt's original and the notices, as subtext. */
export function resultFooterLines(delivery: Delivery, part?: { index: number; total: number }): string[] {
  const notes = [...originalPromptLines(delivery), ...delivery.notices.map((n) => renderNotice(n, delivery.job.origin.locale))];
  return [renderFooter(delivery, part), ...notes.map((n) => `-# ${n}`)];
}

/** A notice under a result, in the member's language. */
export function renderNotice(notice: DeliveryNotice, locale?: string | null): string {
  switch (notice.kind) {
    case 'sizeFallback':
      return t(locale, 'notice.sizeFallback', { requested: notice.requested, used: notice.used });
    case 'sizeDiffers':
      return t(locale, 'notice.sizeDiffers', { made: notice.made, requested: notice.requested });
    case 'droppedParams':
      // Request parameters are wire names, the same in every language.
      return t(locale, 'notice.droppedParams', { params: notice.params.join(', ') });
    case 'reencoded':
      return t(locale, 'notice.reencoded', { count: notice.count, format: notice.format.toUpperCase() });
    case 'dropped':
      return t(locale, 'notice.dropped', { count: notice.count });
    case 'fewer':
      return t(locale, 'notice.fewer', { received: notice.received, requested: notice.requested, charged: notice.charged });
    case 'enhanceSkipped':
      return t(locale, notice.reason === 'off' ? 'notice.enhanceSkipped.off' : 'notice.enhanceSkipped.failed');
    case 'svgCleaned':
      return t(locale, 'notice.svgCleaned', {
        removed: notice.removed ? 'yes' : 'no',
        simplified: notice.simplified ? 'yes' : 'no',
        both: notice.removed && notice.simplified ? 'yes' : 'no',
      });
  }
}

/** The most characters of the member's own prompt shown under an enhanced result. */
const MAX_ORIGINAL_PROMPT = 600;

/** The line under an enhanced result's prompt that shows what the member wrote (none for other results). */
export function originalPromptLines(delivery: Pick<Delivery, 'prompts' | 'job'>): string[] {
  if (!delivery.prompts) return [];
  const prompt = inertText(delivery.prompts.original.replace(/\s+/g, ' '), MAX_ORIGINAL_PROMPT);
  return [t(delivery.job.origin.locale, 'notice.enhancedFrom', { prompt })];
}

/** Re-roll alone, under the notice of a job that was cancelled (there is no result to edit or delete). */
export function rerollButton(jobId: string, locale?: string | null): APIActionRowComponent<APIButtonComponent> {
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.Button,
        style: ButtonStyle.Secondary,
        custom_id: CUSTOM_IDS.reroll.build({ jobId }),
        label: t(locale, 'button.reroll'),
        emoji: { name: '🔁' },
      },
    ],
  };
}

/** Re-roll, ✨ Enhance (when `offers.enhance`), Edit and Delete under a result, and Reveal under a spoiler (`offers.spoiler`). */
export function resultButtons(
  jobId: string,
  locale?: string | null,
  offers: { enhance?: boolean | undefined; spoiler?: boolean | undefined } = {},
): APIActionRowComponent<APIButtonComponent>[] {
  const say = translator(locale);
  const enhance: APIButtonComponent = {
    type: ComponentType.Button,
    style: ButtonStyle.Secondary,
    custom_id: CUSTOM_IDS.enhance.build({ jobId }),
    label: say('button.enhance'),
    emoji: { name: '✨' },
  };
  return [
    {
      type: ComponentType.ActionRow,
      components: [
        {
          type: ComponentType.Button,
          style: ButtonStyle.Secondary,
          custom_id: CUSTOM_IDS.reroll.build({ jobId }),
          label: say('button.reroll'),
          emoji: { name: '🔁' },
        },
        ...(offers.enhance === true ? [enhance] : []),
        {
          type: ComponentType.Button,
          style: ButtonStyle.Primary,
          custom_id: CUSTOM_IDS.edit.build({ jobId }),
          label: say('button.edit'),
          emoji: { name: '✏️' },
        },
        {
          type: ComponentType.Button,
          style: ButtonStyle.Danger,
          custom_id: CUSTOM_IDS.delete.build({ jobId }),
          label: say('button.delete'),
          emoji: { name: '🗑️' },
        },
        // A card posted as a spoiler: its requester may reveal it for everyone (and hide it again).
        ...(offers.spoiler === true ? [spoilerButton(jobId, 'show', locale)] : []),
      ],
    },
  ];
}

/** The question before an expensive request (the server's confirm threshold): its estimate, Generate and Cancel. */
export function renderCostConfirmation(confirmation: CostConfirmation): {
  content: string;
  components: APIActionRowComponent<APIButtonComponent>[];
} {
  const { id, job, estimateUsd, thresholdUsd } = confirmation;
  const locale = job.origin.locale;
  const say = translator(locale);
  const estimate = formatUsd(locale, estimateUsd);
  const content = [
    say('cost.question', { requester: `<@${job.origin.requesterId}>`, estimate, count: job.request.n ?? 1, threshold: formatUsd(locale, thresholdUsd) }),
    `> ${inertText(job.request.prompt, 300)}`,
    say('cost.note'),
  ].join('\n');
  return {
    content,
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          { type: ComponentType.Button, style: ButtonStyle.Success, custom_id: CUSTOM_IDS.confirm.build({ id }), label: say('cost.generate', { estimate }) },
          { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: CUSTOM_IDS.cancel.build({ id }), label: say('cost.cancel') },
        ],
      },
    ],
  };
}

/** What the cost question becomes once answered (no buttons left), in the clicker's language: Generate's, then the job's progress, or Cancel's. */
export function renderCostAnswer(answer: 'confirmed' | 'cancelled', locale?: string | null): { content: string; components: [] } {
  return { content: t(locale, answer === 'confirmed' ? 'cost.confirmed' : 'cost.cancelled'), components: [] };
}
