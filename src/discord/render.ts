/**
 * Message text and components for progress and results. Pure: easy to test, no Discord calls.
 */
import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIButtonComponent } from 'discord.js';
import { inertText } from './text.js';
import type { CostConfirmation, Delivery, DeliveryNotice, JobProgress } from '../service/jobs.js';
import { usd } from '../errors.js';

/** Discord's limit on message content. */
export const MAX_CONTENT_LENGTH = 2000;

/** Custom-id prefixes of the result buttons. */
export const BUTTON_PREFIX = { reroll: 'reroll', edit: 'editres', delete: 'delres', confirm: 'costok', cancel: 'costno', action: 'act' } as const;

/** The actions on one image, and their custom-id codes (`act:{jobId}:{code}`). */
export const ACTIONS = {
  varySubtle: 'vs',
  varyStrong: 'vx',
  region: 'rg',
  remix: 'rm',
  enlarge: 'en',
  zoom15: 'z15',
  zoom2: 'z2',
  panLeft: 'pl',
  panRight: 'pr',
  panUp: 'pu',
  panDown: 'pd',
} as const;
export type ActionCode = (typeof ACTIONS)[keyof typeof ACTIONS];

/** Progress text for the deferred reply. */
export function renderProgress(progress: JobProgress): string {
  switch (progress.stage) {
    case 'queued':
      return progress.position <= 1 ? '⏳ Queued: you are next.' : `⏳ Queued: position ${progress.position}.`;
    case 'gatewayQueued':
      return `⏳ Queued at the gateway… sent <t:${Math.floor(progress.startedAt / 1000)}:R>`;
    case 'generating':
      // Discord renders <t:…:R> as a live "12 seconds ago": elapsed time without an edit per second.
      return `🎨 Generating… started <t:${Math.floor(progress.startedAt / 1000)}:R>${progress.preview ? ' (early preview below)' : ''}`;
  }
}

/** The caption under the delivered images: prompt, model, size and quality, plus any notices. */
export function renderCaption(delivery: Delivery, part?: { index: number; total: number }): string {
  const { job } = delivery;
  const details = [delivery.model, job.request.size ?? 'auto', job.request.quality ? `${job.request.quality} quality` : undefined]
    .filter((d): d is string => d !== undefined)
    .join(' · ');
  const verb = job.kind === 'edit' ? 'Edited' : 'Imagined';
  const partText = part && part.total > 1 ? ` (${part.index}/${part.total})` : '';
  const footer = `-# ${verb} for <@${job.origin.requesterId}> · ${details}${partText}`;
  const notes = [...originalPromptLines(delivery), ...delivery.notices.map(renderNotice)].map((n) => `-# ${n}`);
  const fixed = [footer, ...notes].join('\n');
  const room = MAX_CONTENT_LENGTH - fixed.length - 6;
  return `**${inertText(job.request.prompt, Math.max(room, 20))}**\n${fixed}`;
}

export function renderNotice(notice: DeliveryNotice): string {
  switch (notice.kind) {
    case 'sizeFallback':
      return `The service didn't accept ${notice.requested}, so I used ${notice.used}.`;
    case 'sizeDiffers':
      return `The service made ${notice.made} instead of ${notice.requested}.`;
    case 'droppedParams':
      return `This model ignored: ${notice.params.join(', ')}.`;
    case 'reencoded':
      return `${notice.count === 1 ? 'One image was' : `${notice.count} images were`} re-encoded as ${notice.format.toUpperCase()} to fit Discord's upload limit.`;
    case 'dropped':
      return `${notice.count === 1 ? 'One image was' : `${notice.count} images were`} too large to post even after re-encoding, and ${notice.count === 1 ? "wasn't" : "weren't"} charged.`;
    case 'enhanceSkipped':
      return notice.reason === 'off'
        ? 'Prompt help is off here, so I used your prompt as written.'
        : "The prompt helper didn't answer, so I used your prompt as written.";
  }
}

/** The most characters of the member's own prompt shown under an enhanced result. */
const MAX_ORIGINAL_PROMPT = 600;

/** The line under an enhanced result's prompt that shows what the member wrote (none for other results). */
export function originalPromptLines(delivery: Pick<Delivery, 'prompts'>): string[] {
  if (!delivery.prompts) return [];
  return [`✨ Enhanced from your prompt: ${inertText(delivery.prompts.original.replace(/\s+/g, ' '), MAX_ORIGINAL_PROMPT)}`];
}

/** Re-roll alone, under the notice of a job that was cancelled (there is no result to edit or delete). */
export function rerollButton(jobId: string): APIActionRowComponent<APIButtonComponent> {
  return {
    type: ComponentType.ActionRow,
    components: [
      { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: `${BUTTON_PREFIX.reroll}:${jobId}`, label: 'Re-roll', emoji: { name: '🔁' } },
    ],
  };
}

/** Re-roll, Edit and Delete under a result. */
export function resultButtons(jobId: string): APIActionRowComponent<APIButtonComponent>[] {
  return [
    {
      type: ComponentType.ActionRow,
      components: [
        { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: `${BUTTON_PREFIX.reroll}:${jobId}`, label: 'Re-roll', emoji: { name: '🔁' } },
        { type: ComponentType.Button, style: ButtonStyle.Primary, custom_id: `${BUTTON_PREFIX.edit}:${jobId}`, label: 'Edit', emoji: { name: '✏️' } },
        { type: ComponentType.Button, style: ButtonStyle.Danger, custom_id: `${BUTTON_PREFIX.delete}:${jobId}`, label: 'Delete', emoji: { name: '🗑️' } },
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
  const count = job.request.n ?? 1;
  const content = [
    `💰 <@${job.origin.requesterId}>, this request will cost about **${usd(estimateUsd)}** (${count} image${count === 1 ? '' : 's'}), above this server's ${usd(thresholdUsd)} threshold. Generate it?`,
    `> ${inertText(job.request.prompt, 300)}`,
    "-# An estimate from the model's prices: the actual cost is recorded when the images are made. Nothing is charged until you confirm.",
  ].join('\n');
  return {
    content,
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          { type: ComponentType.Button, style: ButtonStyle.Success, custom_id: `${BUTTON_PREFIX.confirm}:${id}`, label: `Generate (~${usd(estimateUsd)})` },
          { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: `${BUTTON_PREFIX.cancel}:${id}`, label: 'Cancel' },
        ],
      },
    ],
  };
}
