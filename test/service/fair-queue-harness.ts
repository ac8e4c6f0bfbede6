/**
 * A fair queue whose jobs stay running until the test finishes them by label, recording starts and positions.
 */
import { FairQueue, type FairQueueOptions, type QueueTicket, type SubmitHooks } from '../../src/service/fair-queue.js';
import type { Lane } from '../../src/core/server-settings.js';

/** Lets promise callbacks (the queue's settle handlers) run. */
export const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Controlled {
  resolve(value?: string): void;
  reject(error: unknown): void;
  signal: AbortSignal;
}

/** A queue whose jobs stay running until the test finishes them by label. */
export function harness(options: FairQueueOptions) {
  const queue = new FairQueue(options);
  const started: string[] = [];
  const jobs = new Map<string, Controlled>();
  const positions = new Map<string, number[]>();

  const submit = (member: string, label: string, hooks: SubmitHooks = {}, lane: Lane = 'normal') =>
    queue.submit(
      member,
      (signal) =>
        new Promise<string>((resolve, reject) => {
          started.push(label);
          jobs.set(label, { resolve: (value = label) => resolve(value), reject, signal });
        }),
      {
        onPosition: (position) => positions.set(label, [...(positions.get(label) ?? []), position]),
        ...hooks,
      },
      lane,
    );

  const job = (label: string): Controlled => {
    const found = jobs.get(label);
    if (found === undefined) throw new Error(`${label} has not started`);
    return found;
  };

  const finish = async (label: string) => {
    job(label).resolve();
    await tick();
  };

  return { queue, started, submit, job, finish, positions };
}

export function accepted<T>(outcome: QueueTicket<T> | { accepted: false }): QueueTicket<T> {
  if (!outcome.accepted) throw new Error('submission was refused');
  return outcome;
}
