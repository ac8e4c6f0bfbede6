/**
 * Shape `tasks-result` (README "Task answers"): APIMart's task API and its clones. The image POST answers
 * `{"code":200,"data":[{"status":"submitted","task_id":…}]}` (as new-api's task API does); `GET /v1/tasks/{task_id}`
 * answers `{"code":200,"data":{"id","status","progress",…}}` with `status` pending → processing → completed or
 * failed, in lower case, `progress` a number; completed, `result.images[]` whose `url` is an array of links (or a
 * string) with an `expires_at`, and no usage; failed, an `error` object. The links are signed and short-lived: the
 * client must fetch them at once (10 minutes here, unless `urlTtlMs` says otherwise).
 *
 * @see https://docs.apimart.ai/en/api-reference/tasks/status
 * @see https://docs.apimart.ai/en/api-reference/images/gpt-image-2/generation
 */
import type { RenderedImage, SuccessContext } from './responses.js';
import type { SuccessBehaviour } from './types.js';

/** How long a result link lives unless the behaviour says otherwise. */
export const RESULT_LINK_TTL_MS = 10 * 60_000;

/** A task's status at one poll (tasks.ts). */
export type ResultTaskStep = 'queued' | 'in_progress' | 'completed' | 'failed' | 'moderated' | 'unknown-status';

/** What a poll of a `tasks-result` task needs. */
export interface ResultTask {
  id: string;
  /** Unix seconds. */
  created: number;
  behaviour: SuccessBehaviour;
}

const STATUS: Record<ResultTaskStep, string> = {
  queued: 'pending',
  in_progress: 'processing',
  completed: 'completed',
  failed: 'failed',
  moderated: 'failed',
  'unknown-status': 'paused',
};
const PROGRESS: Record<ResultTaskStep, number> = { queued: 0, in_progress: 40, completed: 100, failed: 100, moderated: 100, 'unknown-status': 0 };

const FAILED = { code: 'generation_failed', message: 'Image generation failed', type: 'task_error' };
const MODERATED = { code: 'content_policy_violation', message: 'Your request was rejected as a result of our safety system.', type: 'task_error' };

/** The POST's answer. */
export function resultTaskSubmission(task: ResultTask): Record<string, unknown> {
  return { code: 200, data: [{ status: 'submitted', task_id: task.id }] };
}

/** The answer to one poll; `rendered` are the task's images when it completed (published as expiring links here). */
export function resultTaskPoll(task: ResultTask, step: ResultTaskStep, rendered: RenderedImage[] | undefined, ctx: SuccessContext): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  const data: Record<string, unknown> = { id: task.id, status: STATUS[step], progress: PROGRESS[step], created: task.created, estimated_time: 60 };
  if (step === 'failed' || step === 'moderated') data['error'] = step === 'failed' ? FAILED : MODERATED;
  if (step === 'completed' && rendered) {
    const ttlMs = task.behaviour.urlTtlMs ?? RESULT_LINK_TTL_MS;
    const links = rendered.map((image) => ctx.files.publish(image.bytes, image.spec.format, task.behaviour.brokenUrl === true, ttlMs));
    const expires_at = now + Math.floor(ttlMs / 1000);
    const images = task.behaviour.taskUrls === 'string' ? links.map((url) => ({ url, expires_at })) : [{ url: links, expires_at }];
    Object.assign(data, { completed: now, actual_time: now - task.created, result: { images } });
  }
  return { code: 200, data };
}
