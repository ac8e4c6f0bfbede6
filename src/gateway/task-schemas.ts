/**
 * Task answers: some relays answer an image POST with a task to poll instead of images. Two shapes are read:
 *
 * 1. `{"object":"generation.task","id","status"}`, polled at `GET /images/generations/{id}`, which answers the same
 *    object: `status` queued | in_progress | completed | failed; when completed `data` (image items) and `usage`,
 *    when failed `error` {message, code}.
 * 2. `{"data":[{"task_id","status":"submitted"}]}`, polled at `GET /tasks/{task_id}`, whose answer comes in two
 *    forms that submit alike: new-api's task API,
 *    `{"code":"success","data":{"task_id","status","progress","fail_reason","data":{"data":[…],"usage"}}}`, and
 *    APIMart's, `{"code":200,"data":{"id","status","progress":40,"result":{"images":[{"url":[…],"expires_at"}]},
 *    "error"}}`, whose `url` is an array of links or one link. APIMart's links are signed and short-lived, so they
 *    are fetched as soon as the poll has them (image-exchange.ts downloads right after the last poll).
 *
 * Statuses are read case-insensitively (new-api writes them in capitals).
 *
 * @see ../../test/emulators/gateway/README.md "Task answers"
 * @see https://docs.apimart.ai/en/api-reference/tasks/status
 */
import { z } from 'zod';
import type { FailureInfo } from './classify.js';
import { ErrorObject, ImageItem, ImagesUsage } from './schemas.js';

/** Which of the two shapes a task came in (and so where it is polled and how its answers read). */
export type TaskKind = 'generation.task' | 'tasks-api';

/** What a member can be told about a task that is not done. */
export type TaskPhase = 'queued' | 'generating';

/** A task found in an image POST's answer. */
export interface TaskRef {
  kind: TaskKind;
  id: string;
  /** Where it is polled, relative to the base URL. */
  path: string;
  /** Its phase as the POST's answer gave it. */
  phase: TaskPhase;
}

/** A poll answer, read. */
export type TaskState =
  | { state: 'pending'; phase: TaskPhase }
  | { state: 'done'; items: ImageItem[]; usage?: ImagesUsage | undefined }
  | { state: 'failed'; failure: FailureInfo }
  | { state: 'unknown'; detail: string };

const STATUSES: Readonly<Record<string, TaskPhase | 'done' | 'failed'>> = {
  queued: 'queued',
  submitted: 'queued',
  not_start: 'queued',
  pending: 'queued',
  in_progress: 'generating',
  processing: 'generating',
  completed: 'done',
  success: 'done',
  failed: 'failed',
  failure: 'failed',
  cancelled: 'failed',
  canceled: 'failed',
};

/** Shape 1, as the POST answers it and as every poll answers it. */
export const GenerationTask = z.object({
  object: z.literal('generation.task'),
  id: z.string().min(1),
  status: z.string(),
  data: z.array(ImageItem).nullish(),
  // A malformed usage block must not cost the member their image.
  usage: ImagesUsage.nullish().catch(undefined),
  error: ErrorObject.nullish(),
});
export type GenerationTask = z.infer<typeof GenerationTask>;

/** Shape 2 as the POST answers it: image items that are task references. */
export const TaskSubmission = z.object({
  data: z.array(z.object({ task_id: z.string().min(1), status: z.string().nullish() })).length(1),
});
export type TaskSubmission = z.infer<typeof TaskSubmission>;

/** One image of APIMart's `result.images`: its link, or an array of links (one per image). */
export const ResultImage = z.object({ url: z.union([z.string(), z.array(z.string())]).nullish() });
export type ResultImage = z.infer<typeof ResultImage>;

/** Shape 2 as `GET /tasks/{task_id}` answers it: new-api's fields and APIMart's (`result`, `error`, a numeric `progress`). */
export const TaskEnvelope = z.object({
  code: z.union([z.string(), z.number()]).nullish(),
  message: z.string().nullish(),
  data: z
    .object({
      task_id: z.string().nullish(),
      status: z.string(),
      progress: z.union([z.string(), z.number()]).nullish(),
      fail_reason: z.string().nullish(),
      error: ErrorObject.nullish(),
      data: z.object({ data: z.array(ImageItem).nullish(), usage: ImagesUsage.nullish().catch(undefined) }).nullish(),
      result: z.object({ images: z.array(ResultImage).nullish() }).nullish(),
    })
    .nullish(),
});
export type TaskEnvelope = z.infer<typeof TaskEnvelope>;

/** The task an image POST answered with, or undefined when the answer is not a task (images, or anything else). */
export function findTask(answer: unknown): TaskRef | undefined {
  const single = GenerationTask.safeParse(answer);
  if (single.success && !single.data.data?.some(hasImage)) {
    const { id, status } = single.data;
    return { kind: 'generation.task', id, path: `/images/generations/${encodeURIComponent(id)}`, phase: phaseOf(status) };
  }
  const submitted = TaskSubmission.safeParse(answer);
  const first = submitted.data?.data[0];
  if (!first) return undefined;
  return { kind: 'tasks-api', id: first.task_id, path: `/tasks/${encodeURIComponent(first.task_id)}`, phase: phaseOf(first.status ?? '') };
}

/** Reads one poll answer of a task of `kind`. */
export function readTaskState(kind: TaskKind, answer: unknown): TaskState {
  if (kind === 'generation.task') {
    const task = GenerationTask.safeParse(answer);
    if (!task.success) return { state: 'unknown', detail: 'poll answer is not a generation.task' };
    const { status, data, usage, error } = task.data;
    return stateOf(status, { items: data ?? [], usage }, { message: error?.message ?? '', code: error?.code, type: error?.type ?? undefined });
  }
  const envelope = TaskEnvelope.safeParse(answer);
  if (!envelope.success) return { state: 'unknown', detail: 'poll answer is not a task envelope' };
  const { code, message, data } = envelope.data;
  // new-api answers a task it cannot find or read with `{"code":"…","message":"…"}` and no data.
  if (!data) return code !== undefined && code !== 'success' && message ? { state: 'failed', failure: { message, code: String(code) } } : unknownShape();
  const items = data.data?.data?.length ? data.data.data : linkItems(data.result?.images ?? []);
  // new-api sends an empty fail_reason on every poll; APIMart an `error` object when it failed.
  const reason = [data.fail_reason, data.error?.message].find((text) => text) ?? '';
  const failure = { message: reason, code: data.error?.code, type: data.error?.type ?? undefined };
  return stateOf(data.status, { items, usage: data.data?.usage }, failure);
}

/** APIMart's result images as image items, one per link (a `url` array holds several images' links). */
function linkItems(images: readonly ResultImage[]): ImageItem[] {
  return images.flatMap(({ url }) => (Array.isArray(url) ? url : [url ?? ''])).flatMap((url) => (url === '' ? [] : [{ url }]));
}

function stateOf(status: string, done: { items: ImageItem[]; usage?: ImagesUsage | null | undefined }, failure: FailureInfo): TaskState {
  const read = STATUSES[status.toLowerCase()];
  if (read === undefined) return { state: 'unknown', detail: `unknown task status ${JSON.stringify(status.slice(0, 40))}` };
  if (read === 'done') return { state: 'done', items: done.items, usage: done.usage ?? undefined };
  if (read === 'failed') return { state: 'failed', failure };
  return { state: 'pending', phase: read };
}

function unknownShape(): TaskState {
  return { state: 'unknown', detail: 'poll answer has no task' };
}

/** A pending phase of a status; anything else (unknown, or already over) counts as queued until a poll says more. */
function phaseOf(status: string): TaskPhase {
  return STATUSES[status.toLowerCase()] === 'generating' ? 'generating' : 'queued';
}

function hasImage(item: ImageItem): boolean {
  return (item.b64_json ?? '') !== '' || (item.url ?? '') !== '';
}
