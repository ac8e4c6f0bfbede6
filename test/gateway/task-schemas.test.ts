/**
 * Reading task answers: APIMart's form of the tasks API (`result.images[].url` a link or an array of links, a numeric
 * progress, lower-case statuses, an `error` object) beside new-api's.
 */
import { describe, expect, it } from 'vitest';
import { findTask, readTaskState } from '../../src/gateway/task-schemas.js';

const poll = (data: Record<string, unknown>) => readTaskState('tasks-api', { code: 200, data: { id: 'task_1', ...data } });

describe("APIMart's task answers", () => {
  it('submits like new-api’s: a task polled at /tasks/{id}', () => {
    expect(findTask({ code: 200, data: [{ status: 'submitted', task_id: 'task_01KPQ' }] })).toEqual({
      kind: 'tasks-api',
      id: 'task_01KPQ',
      path: '/tasks/task_01KPQ',
      phase: 'queued',
    });
  });

  it.each([
    ['pending', 0, 'queued'],
    ['processing', 40, 'generating'],
  ])('reads %s (progress %i) as %s', (status, progress, phase) => {
    expect(poll({ status, progress })).toEqual({ state: 'pending', phase });
  });

  it('reads every link of a url array as an image, in order', () => {
    const images = [{ url: ['https://cdn.example/a_0.png', 'https://cdn.example/a_1.png'], expires_at: 1 }, { url: ['https://cdn.example/b.png'] }];
    expect(poll({ status: 'completed', progress: 100, result: { images } })).toEqual({
      state: 'done',
      items: [{ url: 'https://cdn.example/a_0.png' }, { url: 'https://cdn.example/a_1.png' }, { url: 'https://cdn.example/b.png' }],
      usage: undefined,
    });
  });

  it('reads a url string as one image, and skips empty links', () => {
    const images = [{ url: 'https://cdn.example/a.png' }, { url: '' }, { url: ['', 'https://cdn.example/b.png'] }, { url: null }];
    expect(poll({ status: 'completed', result: { images } })).toMatchObject({
      state: 'done',
      items: [{ url: 'https://cdn.example/a.png' }, { url: 'https://cdn.example/b.png' }],
    });
  });

  it('reads a completed task without links as done with no images (the exchange reports that)', () => {
    expect(poll({ status: 'completed', result: { images: [] } })).toMatchObject({ state: 'done', items: [] });
  });

  it.each(['failed', 'cancelled'])('reads a %s task by its error object', (status) => {
    const error = { code: 'content_policy_violation', message: 'Your request was rejected as a result of our safety system.', type: 'task_error' };
    expect(poll({ status, error })).toEqual({ state: 'failed', failure: { message: error.message, code: error.code, type: 'task_error' } });
  });

  it('reads a failed task that gives no reason with an empty message', () => {
    expect(poll({ status: 'failed', error: { code: 'x', type: null } })).toEqual({ state: 'failed', failure: { message: '', code: 'x', type: undefined } });
    expect(poll({ status: 'failed' })).toEqual({ state: 'failed', failure: { message: '', code: undefined, type: undefined } });
  });

  it('still reads new-api’s form: its fail reason, its inner data and usage', () => {
    expect(readTaskState('tasks-api', { code: 'success', data: { status: 'FAILURE', fail_reason: 'boom', progress: '100%' } })).toMatchObject({
      state: 'failed',
      failure: { message: 'boom' },
    });
    const done = readTaskState('tasks-api', { code: 'success', data: { status: 'SUCCESS', data: { data: [{ b64_json: 'x' }], usage: { total_tokens: 3 } } } });
    expect(done).toMatchObject({ state: 'done', items: [{ b64_json: 'x' }], usage: { total_tokens: 3 } });
  });
});
