/**
 * What a member sees while a job waits and runs: "Queued (position n)", then "Generating" with the latest
 * partial image (or "Queued at the gateway" while a task the gateway answered with waits there), coalesced and
 * rate-limited by the progress throttle.
 */
import type { Logger } from 'pino';
import type { JobProgress } from '../core/jobs.js';
import type { PartialImage } from '../core/images.js';
import { createProgressThrottle, type ProgressThrottle } from './progress-throttle.js';

/** One job's progress reports. */
export class JobProgressReporter {
  private readonly throttle: ProgressThrottle<JobProgress>;
  private readonly intervalMs: number;
  private startedAt = 0;
  private wasQueued = false;
  private latest: PartialImage | undefined;
  private atGateway = false;
  private firstUpdate: NodeJS.Timeout | undefined;

  constructor(send: (progress: JobProgress) => Promise<void>, options: { intervalMs: number; log: Logger }) {
    this.intervalMs = options.intervalMs;
    this.throttle = createProgressThrottle(send, { intervalMs: options.intervalMs, onError: (err) => options.log.warn({ err }, 'progress update failed') });
  }

  /** The job waits in the queue at `position`. */
  queued(position: number): void {
    this.wasQueued = true;
    this.throttle.update({ stage: 'queued', position });
  }

  /** The gateway call started at `startedAt` (ms since epoch). */
  started(startedAt: number): void {
    this.startedAt = startedAt;
    // After "Queued", say at once that it started. Otherwise Discord's "thinking…" already says so: the first edit
    // waits one interval, and a quick job finishes without one (less traffic under load).
    if (this.wasQueued) this.generating();
    else this.firstUpdate = setTimeout(() => this.generating(), this.intervalMs).unref();
  }

  /** A partial image arrived (a function property: passed on for the gateway call's `partial_image` events). */
  readonly preview = (image: PartialImage): void => {
    this.latest = image;
    this.generating();
  };

  /** The gateway answered with a task, now in this phase (a function property: passed on for the gateway call's `task_status` events). */
  readonly taskStatus = (status: 'queued' | 'generating'): void => {
    this.atGateway = status === 'queued';
    clearTimeout(this.firstUpdate);
    this.generating();
  };

  /** No more edits: resolves once the one in flight has landed, so nothing can land after what follows. */
  stop(): Promise<void> {
    clearTimeout(this.firstUpdate);
    return this.throttle.stop();
  }

  private generating(): void {
    if (this.atGateway && !this.latest) this.throttle.update({ stage: 'gatewayQueued', startedAt: this.startedAt });
    else this.throttle.update({ stage: 'generating', startedAt: this.startedAt, preview: this.latest });
  }
}
