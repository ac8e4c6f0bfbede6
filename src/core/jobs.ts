/**
 * A member's image job as the service receives it from a command: what to make, for whom, from which attachments.
 */
import { z } from 'zod';
import type { EditTransform, ResultActions } from './result-actions.js';
import type { ReferenceRoles } from './style-presets.js';
export type { ResultActions };
import type { GenerateRequest, ImageFormat, InputFidelity, PartialImage } from './images.js';
import type { QuotaSubject } from './quota.js';

/** A Discord attachment the service downloads (signed URLs expire, so at once). */
export const AttachmentRef = z.object({
  url: z.string(),
  filename: z.string(),
  /**
   * Bytes, as Discord declares them; absent for an image it gives no size for (an embed's, a media gallery's), which
   * is read no further than image-rules.ts unsizedImageBytes.
   */
  size: z.number().int().nonnegative().optional(),
  contentType: z.string().nullable().optional(),
  /** Pixels, as Discord declares them for an image (a model taking square images only is checked on them first). */
  width: z.number().int().nullable().optional(),
  height: z.number().int().nullable().optional(),
  /** The member posted it as a spoiler (Discord's IS_SPOILER flag, or a SPOILER_ name): what is made from it is one too. */
  spoiler: z.boolean().optional(),
});
export type AttachmentRef = z.infer<typeof AttachmentRef>;

/** Where a job came from, for re-rolls and for delivery after the interaction token expires. */
interface JobOrigin {
  guildId: string | null;
  channelId: string | null;
  /** A thread's parent channel (the server's channel rules follow it). */
  parentChannelId?: string | null | undefined;
  requesterId: string;
  /** The requester has Manage Server there: the server's limits on models and counts do not bind them. */
  manager?: boolean | undefined;
  /** The channel (or a thread's parent) is age-restricted: where `moderation:low` is allowed by default. */
  ageRestricted?: boolean | undefined;
  /** The requester's language (Discord's locale of their client, `ja`): the job's progress and results are written in it. */
  locale?: string | undefined;
  /** The server's preferred language (Discord's `guild_locale`): what its admins' audit lines are written in. */
  guildLocale?: string | null | undefined;
}

/**
 * Where to answer a job once the process that accepted it is gone: the interaction's webhook while its token lives
 * (Discord: 15 minutes). Kept in the job journal; the token is a secret and never logged.
 */
export const ReplyAddress = z.object({ applicationId: z.string(), interactionToken: z.string(), tokenExpiresAt: z.number() });
export type ReplyAddress = z.infer<typeof ReplyAddress>;

/** A job: the request, the member it is charged to, and (for edits) the reference images to download. */
export interface ImageJob {
  id: string;
  kind: 'imagine' | 'edit';
  subject: QuotaSubject;
  origin: JobOrigin;
  request: GenerateRequest;
  /** Edits only: reference images in order, an optional mask, and the fidelity. */
  edit?:
    | {
        images: AttachmentRef[];
        mask?: AttachmentRef | undefined;
        inputFidelity?: InputFidelity | undefined;
        /** An action on a result (Vary, Zoom out, Pan, Vary region, Enlarge) of its first image. */
        transform?: EditTransform | undefined;
        /** Style and subject references and a saved style's images: the prompt sent says which image is which. */
        roles?: ReferenceRoles | undefined;
      }
    | undefined;
  /** The member confirmed its estimated cost (the server's confirm threshold): it is not asked again. */
  confirmed?: boolean | undefined;
  /**
   * Rewrite the prompt with the chat model first (prompt help's enhance; PROMPT_MODEL). `true` (the `enhance`
   * option): where prompt help is off, the prompt is used as written, with a notice. `'required'` (the ✨ Enhance
   * button, whose whole point it is): where it is off, the request is refused before anything is held.
   */
  enhance?: boolean | 'required' | undefined;
}

/** An expensive request waiting for its member's confirmation (issue 17): nothing is reserved until they confirm. */
export interface CostConfirmation {
  /** Where the request waits (JobArchive.stashConfirmation); the buttons carry it. */
  id: string;
  job: ImageJob;
  /** The estimated cost (cost-estimate.ts) and the server's threshold it is above, in USD. */
  estimateUsd: number;
  thresholdUsd: number;
}

/** Progress the member sees on the deferred reply. */
export type JobProgress =
  | { stage: 'queued'; position: number }
  /** The gateway answered with a task that waits in its own queue (some relays queue requests). */
  | { stage: 'gatewayQueued'; startedAt: number }
  /**
   * `startedAt` (ms since epoch) lets Discord show the elapsed time itself (a live relative timestamp), so no edit
   * is needed just to count seconds; `preview` is the latest partial image, uploaded once by the responder.
   */
  | { stage: 'generating'; startedAt: number; preview?: PartialImage | undefined };

/** Something the member should know about the result. */
export type DeliveryNotice =
  | { kind: 'sizeFallback'; requested: string; used: string }
  | { kind: 'sizeDiffers'; requested: string; made: string }
  | { kind: 'droppedParams'; params: string[] }
  | { kind: 'reencoded'; count: number; format: ImageFormat }
  | { kind: 'dropped'; count: number }
  /** The gateway made fewer images than asked (some upstreams answer 1 for n=2 without a word): only those are charged. */
  | { kind: 'fewer'; requested: number; received: number; charged: number }
  /** Enhance was asked but the prompt was used as written: the chat call failed, or prompt help is off here. */
  | { kind: 'enhanceSkipped'; reason: 'failed' | 'off' }
  /** Parts of an SVG were removed (images, scripts, external links) or its filters toned down before it was drawn. */
  | { kind: 'svgCleaned'; removed: boolean; simplified: boolean };

/** One file ready to post. */
export interface DeliveryFile {
  bytes: Buffer;
  format: ImageFormat;
  width: number;
  height: number;
  /** The vector original of the file before it (an SVG beside its PNG rendering): not an image of its own. */
  original?: true | undefined;
}

/** What the responder posts. */
export interface Delivery {
  job: ImageJob;
  model: string;
  files: DeliveryFile[];
  notices: DeliveryNotice[];
  /** Post the files as spoilers (the server's setting for the channel, or a spoiler among the member's input images). */
  spoiler?: boolean | undefined;
  /** What can be done with the result's images (the model's profile); absent: nothing but a new generation. */
  actions?: ResultActions | undefined;
  /** An enhanced job: the member's prompt and the one generated from (also `job.request.prompt`). */
  prompts?: { original: string; enhanced: string } | undefined;
  /** ✨ Enhance is offered under the result: prompt help is configured and allowed here, and this prompt was not enhanced. */
  enhanceable?: boolean | undefined;
}

/** Where a delivery landed (Responder.deliver): its messages, and where the first one is. */
export interface Posted {
  /** The messages that carry the images, in order. */
  messageIds: string[];
  /** The channel of the first message (a hand-off may have posted it in a direct message); undefined when unknown. */
  channelId?: string | undefined;
  /** The server of that channel, null for a direct message; undefined when unknown. */
  guildId?: string | null | undefined;
  /** The first image as Discord serves it: a signed URL, which expires. */
  imageUrl?: string | undefined;
}
