/**
 * Task answers (README "Task answers"): an image POST answered with a task instead of images, and the GET routes
 * that poll it. Shape `generation.task` is polled at `/v1/images/generations/{id}`, shapes `tasks-api` (new-api's
 * task API) and `tasks-result` (APIMart's, task-results.ts) at `/v1/tasks/{task_id}`. A task's images are rendered
 * when its last poll answers them.
 */
import { randomBytes } from 'node:crypto';
import type { Answer } from './behaviours.js';
import { imagesResponseObject, renderImages, type SuccessContext } from './responses.js';
import { resultTaskPoll, resultTaskSubmission, type ResultTaskStep } from './task-results.js';
import type { SuccessBehaviour } from './types.js';
import type { ImageJob } from './validation.js';

/** A task the emulator handed out, with the polls it has answered. */
export interface EmulatedTask {
  kind: 'generation.task' | 'tasks-api' | 'tasks-result';
  id: string;
  job: ImageJob;
  behaviour: SuccessBehaviour;
  /** Unix seconds. */
  created: number;
  polls: number;
}

/** What a task's status is at one poll. */
type TaskStep = ResultTaskStep;

const FAILED = { message: 'Image generation failed', code: 'image_generation_failed' };
const MODERATED = { message: 'Your request was rejected as a result of our safety system.', code: 'moderation_blocked' };

/** A new task for a job, answered to its POST as {@link submissionAnswer}. */
export function createTask(job: ImageJob, behaviour: SuccessBehaviour & { asTask: EmulatedTask['kind'] }): EmulatedTask {
  return { kind: behaviour.asTask, id: `task_${randomBytes(12).toString('hex')}`, job, behaviour, created: Math.floor(Date.now() / 1000), polls: 0 };
}

/** The POST's answer: the task, queued (shape 1) or submitted (shape 2). */
export function submissionAnswer(task: EmulatedTask): Answer {
  if (task.kind === 'tasks-result') return json(200, resultTaskSubmission(task));
  const body =
    task.kind === 'generation.task'
      ? { object: 'generation.task', id: task.id, created: task.created, status: 'queued' }
      : { created: task.created, data: [{ task_id: task.id, status: 'submitted' }] };
  return json(200, body);
}

/** The answer to one poll of the task; counts the poll. */
export async function pollAnswer(task: EmulatedTask, ctx: SuccessContext): Promise<Answer> {
  const step = stepAt(task, task.polls);
  task.polls += 1;
  const rendered = step === 'completed' ? await renderImages(task.job, task.behaviour, ctx) : undefined;
  if (task.kind === 'tasks-result') return json(200, resultTaskPoll(task, step, rendered, ctx));
  const result = rendered && imagesResponseObject(task.job, task.behaviour, rendered, ctx);
  return json(200, task.kind === 'generation.task' ? generationTask(task, step, result) : taskEnvelope(task, step, result));
}

/** The answer to a poll of a task the emulator does not know (on that route). */
export function unknownTaskAnswer(kind: EmulatedTask['kind']): Answer {
  if (kind !== 'generation.task') return json(404, { code: 'task_not_exist', message: 'task_not_exist', data: null });
  return json(404, { error: { message: 'No task found with that id', type: 'invalid_request_error', param: null, code: 'task_not_found' } });
}

/** Pending polls first (the first half, rounded up, queued; the rest in progress), then how the task ends. */
function stepAt(task: EmulatedTask, poll: number): TaskStep {
  const pending = task.behaviour.taskPolls ?? 2;
  if (poll < Math.ceil(pending / 2)) return 'queued';
  if (poll < pending) return 'in_progress';
  return task.behaviour.taskEnd ?? 'completed';
}

function generationTask(task: EmulatedTask, step: TaskStep, result: Record<string, unknown> | undefined): Record<string, unknown> {
  const base = { object: 'generation.task', id: task.id, created: task.created };
  switch (step) {
    case 'completed':
      return { ...result, ...base, status: 'completed' };
    case 'failed':
      return { ...base, status: 'failed', error: FAILED };
    case 'moderated':
      return { ...base, status: 'failed', error: MODERATED };
    case 'unknown-status':
      return { ...base, status: 'paused' };
    case 'queued':
    case 'in_progress':
      return { ...base, status: step };
  }
}

function taskEnvelope(task: EmulatedTask, step: TaskStep, result: Record<string, unknown> | undefined): Record<string, unknown> {
  const STATUS: Record<TaskStep, string> = {
    queued: 'QUEUED',
    in_progress: 'IN_PROGRESS',
    completed: 'SUCCESS',
    failed: 'FAILURE',
    moderated: 'FAILURE',
    'unknown-status': 'UNKNOWN',
  };
  const PROGRESS: Record<TaskStep, string> = { queued: '0%', in_progress: '40%', completed: '100%', failed: '100%', moderated: '100%', 'unknown-status': '0%' };
  const reason = step === 'failed' ? FAILED.message : step === 'moderated' ? MODERATED.message : '';
  const data = {
    task_id: task.id,
    action: task.job.endpoint === 'edits' ? 'imageEdit' : 'imageGenerate',
    status: STATUS[step],
    progress: PROGRESS[step],
    fail_reason: reason,
    submit_time: task.created,
    ...(result ? { finish_time: Math.floor(Date.now() / 1000), data: result } : {}),
  };
  return { code: 'success', message: '', data };
}

function json(status: number, body: unknown): Answer {
  return { status, headers: { 'content-type': 'application/json' }, frames: [JSON.stringify(body)] };
}
