/**
 * Remembers finished jobs (so Re-roll works after a restart: the button holds only a short id) and parks the
 * attachments of an "Edit image" target while the member types a prompt. Both expire on their own.
 */
import { z } from 'zod';
import { EditFields, GenerateRequest } from '../core/image-request.js';
import { EditTransform } from '../core/result-actions.js';
import { ReferenceRoles } from '../core/style-presets.js';
import { AttachmentRef, type ImageJob } from '../core/jobs.js';
import { newJobId } from './job-id.js';
import type { RecordStore } from '../ports/record-store.js';

/**
 * A finished job, as stored for its buttons. The request and the edit fields are read with the request schemas of
 * image-request.ts, so they cannot drift from what a command produces. Records already stored must keep reading:
 * renaming a field, removing a value or tightening a rule there needs a new `v` (or a lenient reader of v1).
 */
export const ArchivedJob = z.object({
  v: z.literal(1),
  kind: z.enum(['imagine', 'edit']),
  requesterId: z.string(),
  guildId: z.string().nullable(),
  channelId: z.string().nullable(),
  request: GenerateRequest,
  edit: EditFields.extend({
    images: z.array(AttachmentRef),
    mask: AttachmentRef.optional(),
    transform: EditTransform.optional(),
    roles: ReferenceRoles.optional(),
  }).optional(),
  /** Prompt help's enhance, as the member asked it (a request waiting for its cost to be confirmed keeps it). */
  enhance: z.union([z.boolean(), z.literal('required')]).optional(),
  messageIds: z.array(z.string()),
  /** The quality the result was made at, when its request named none (a draft's: drafts.ts); HD is offered on drafts. */
  madeAt: GenerateRequest.shape.quality,
});
export type ArchivedJob = z.infer<typeof ArchivedJob>;

/** What the archive keeps of a job besides its messages: what Re-roll needs to run it again. */
export function archivedFieldsOf(job: ImageJob): Omit<ArchivedJob, 'v' | 'messageIds'> {
  return {
    kind: job.kind,
    requesterId: job.origin.requesterId,
    guildId: job.origin.guildId,
    channelId: job.origin.channelId,
    request: job.request,
    edit: job.edit,
    ...(job.enhance === undefined ? {} : { enhance: job.enhance }),
  };
}

/** Attachments of a message being edited through the context menu. */
export const PendingEdit = z.object({ v: z.literal(1), images: z.array(AttachmentRef).min(1), skipped: z.number().int().nonnegative() });
export type PendingEdit = z.infer<typeof PendingEdit>;

/** How long a member has to submit the Edit image prompt. */
export const PENDING_EDIT_TTL_MS = 15 * 60_000;

/** Options for {@link JobArchive}. */
export interface JobArchiveOptions {
  jobs: RecordStore<ArchivedJob>;
  pendingEdits: RecordStore<PendingEdit>;
  /** Requests waiting for their member to confirm the cost; without it, none can wait (they run unasked). */
  confirmations?: RecordStore<ArchivedJob> | undefined;
  /** How long result buttons keep working. */
  jobTtlMs: number;
}

/** See the module comment. */
export class JobArchive {
  private readonly options: JobArchiveOptions;
  /** Confirmations being taken now: a double click is one confirmation (a server's clicks reach one process). */
  readonly #taking = new Set<string>();

  constructor(options: JobArchiveOptions) {
    this.options = options;
  }

  /** Stores a delivered job under its id; `madeAt`: the quality it was made at, when its request named none. */
  async remember(job: ImageJob, messageIds: string[], madeAt?: ArchivedJob['madeAt']): Promise<void> {
    const madeAtField = job.request.quality === undefined && madeAt !== undefined ? { madeAt } : {};
    await this.options.jobs.set(job.id, ArchivedJob.parse({ v: 1, ...archivedFieldsOf(job), messageIds, ...madeAtField }), this.options.jobTtlMs);
  }

  /** Stores a job that was never delivered (its process died), so the Re-roll under the member's notice works. */
  async rememberAbandoned(jobId: string, job: Omit<ArchivedJob, 'v' | 'messageIds'>): Promise<void> {
    await this.options.jobs.set(jobId, ArchivedJob.parse({ ...job, v: 1, messageIds: [] }), this.options.jobTtlMs);
  }

  /** A stored job, or undefined when it expired. */
  recall(jobId: string): Promise<ArchivedJob | undefined> {
    return this.options.jobs.get(jobId);
  }

  /**
   * Parks a request until its member confirms its cost (at most {@link PENDING_EDIT_TTL_MS}, the life of the
   * interaction that confirms it); returns its id, or undefined when this archive keeps no confirmations.
   */
  async stashConfirmation(job: ImageJob): Promise<string | undefined> {
    if (!this.options.confirmations) return undefined;
    await this.options.confirmations.set(job.id, ArchivedJob.parse({ v: 1, ...archivedFieldsOf(job), messageIds: [] }), PENDING_EDIT_TTL_MS);
    return job.id;
  }

  /** A request waiting for confirmation, or undefined once it was confirmed, cancelled or expired. */
  async recallConfirmation(id: string): Promise<ArchivedJob | undefined> {
    return this.options.confirmations?.get(id);
  }

  /** Takes a waiting request (once within this process: a second click finds nothing). */
  async takeConfirmation(id: string): Promise<ArchivedJob | undefined> {
    if (this.#taking.has(id)) return undefined;
    this.#taking.add(id);
    try {
      const pending = await this.options.confirmations?.get(id);
      if (pending) await this.options.confirmations?.delete(id);
      return pending;
    } finally {
      this.#taking.delete(id);
    }
  }

  /** Parks the attachments of an Edit image target; returns the id to put in the modal's custom id. */
  async stashEdit(images: AttachmentRef[], skipped: number): Promise<string> {
    const id = newJobId();
    await this.options.pendingEdits.set(id, { v: 1, images, skipped }, PENDING_EDIT_TTL_MS);
    return id;
  }

  /** Takes back parked attachments (once). */
  async takeEdit(id: string): Promise<PendingEdit | undefined> {
    const pending = await this.options.pendingEdits.get(id);
    if (pending) await this.options.pendingEdits.delete(id);
    return pending;
  }
}
