/**
 * The start-up check of the image gateway: one `GET /models` after the Discord login, reported to the operator
 * in one clear log line (unreachable, key refused, no image models, ready with the default model in use; a
 * DEFAULT_IMAGE_MODEL it does not list is warned about where the default is chosen, default-model.ts). The bot keeps
 * running either way; while the gateway does not answer properly the check is repeated, and its recovery logged.
 */
import type pino from 'pino';
import { formatDuration } from '../durations.js';
import { GatewayConnectionError, GatewayTimeoutError, type GatewayError } from './errors.js';
import { isImageModel } from './models.js';

/** What the check found. */
export type GatewayCheckOutcome = 'ok' | 'unreachable' | 'timed_out' | 'key_refused' | 'failed' | 'no_image_models' | 'default_not_listed';

/** The outcomes of a check that could not list the models (retried every interval). */
type FailureOutcome = Extract<GatewayCheckOutcome, 'unreachable' | 'timed_out' | 'key_refused' | 'failed'>;

/** Options of a {@link GatewayCheck}. */
export interface GatewayCheckOptions {
  /** `GET /models` bounded by `timeoutMs`: the ids, or a GatewayError. */
  probe: (timeoutMs: number) => Promise<string[]>;
  /** host[:port] of GATEWAY_BASE_URL, named in the messages. */
  host: string;
  /** The model in use by default, as chosen from the listing the probe just fetched (default-model.ts). */
  defaultModel: () => string;
  /** DEFAULT_IMAGE_MODEL, when set (its absence from the listing is warned about where the default is chosen). */
  configured?: string | undefined;
  /** Time one probe may take (GATEWAY_CONNECT_TIMEOUT_MS). */
  timeoutMs: number;
  /** Pause between probes while the gateway does not answer properly (GATEWAY_CHECK_INTERVAL_MS). */
  retryIntervalMs: number;
  /**
   * Probe every interval while the gateway answers too, so the catalogue stays as fresh as readiness (/readyz)
   * requires; a healthy answer is logged only when it follows another outcome. @default false
   */
  keepChecking?: boolean | undefined;
  logger: pino.Logger;
}

/** Checks the gateway at start, then again every interval until it answers. */
export class GatewayCheck {
  private readonly opts: GatewayCheckOptions;
  private readonly log: pino.Logger;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private last: GatewayCheckOutcome | undefined;

  constructor(opts: GatewayCheckOptions) {
    this.opts = opts;
    this.log = opts.logger.child({ module: 'gateway-check' });
  }

  /** Runs the first probe and reports it; resolves with its outcome (never rejects). */
  async start(): Promise<GatewayCheckOutcome> {
    return this.run();
  }

  /** Stops any scheduled probe. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private async run(): Promise<GatewayCheckOutcome> {
    const { host } = this.opts;
    let outcome: GatewayCheckOutcome;
    try {
      const ids = await this.opts.probe(this.opts.timeoutMs);
      if (this.last !== undefined && isFailure(this.last)) this.log.info({ host }, `image gateway at ${host} answers again`);
      outcome = this.reportCatalogue(ids, this.last);
    } catch (err) {
      outcome = this.reportFailure(err);
    }
    this.last = outcome;
    if ((isFailure(outcome) || this.opts.keepChecking === true) && !this.stopped) {
      this.timer = setTimeout(() => void this.run(), this.opts.retryIntervalMs);
      this.timer.unref();
    }
    return outcome;
  }

  private reportCatalogue(ids: readonly string[], last: GatewayCheckOutcome | undefined): GatewayCheckOutcome {
    const { host, configured } = this.opts;
    const defaultModel = this.opts.defaultModel();
    const image = ids.filter(isImageModel);
    const outcome = image.length === 0 ? 'no_image_models' : configured !== undefined && !ids.includes(configured) ? 'default_not_listed' : 'ok';
    // Repeated probes (keepChecking) report only a change.
    if (outcome === last) return outcome;
    if (image.length === 0) {
      this.log.error({ host, models: ids.length }, `image gateway at ${host} lists no image models (it lists ${listOf(ids)}): image commands will fail`);
      return 'no_image_models';
    }
    this.log.info(
      { host, imageModels: image.length, defaultModel },
      `image gateway at ${host} is ready (${image.length} image models, default ${defaultModel})`,
    );
    return outcome;
  }

  private reportFailure(err: unknown): FailureOutcome {
    const { host, timeoutMs } = this.opts;
    const error = err as Partial<GatewayError>;
    const outcome = classify(err);
    // Only a change is worth a line: a gateway that stays down is not reported again every interval.
    if (outcome === this.last) return outcome;
    const fields = { host, status: error.status, code: error.code, requestId: error.requestId };
    const then = 'members are told image generation is not available until it recovers';
    switch (outcome) {
      case 'unreachable':
        this.log.error(fields, `image gateway unreachable at ${host} (${error.code ?? 'connection failed'}): ${then}`);
        break;
      case 'timed_out':
        this.log.error(fields, `image gateway at ${host} did not answer GET /models within ${formatDuration(timeoutMs)}: ${then}`);
        break;
      case 'key_refused':
        this.log.error(fields, `image gateway at ${host} refused the API key (HTTP ${error.status ?? '?'}): check GATEWAY_API_KEY`);
        break;
      case 'failed':
        this.log.error(
          fields,
          `image gateway at ${host} failed GET /models (${error.status === undefined ? (error.code ?? 'no status') : `HTTP ${error.status}`}): ${then}`,
        );
    }
    return outcome;
  }
}

function classify(err: unknown): FailureOutcome {
  if (err instanceof GatewayTimeoutError) return 'timed_out';
  if (err instanceof GatewayConnectionError) return 'unreachable';
  if ((err as Partial<GatewayError>).category === 'invalid_key') return 'key_refused';
  return 'failed';
}

function isFailure(outcome: GatewayCheckOutcome): outcome is FailureOutcome {
  return outcome === 'unreachable' || outcome === 'timed_out' || outcome === 'key_refused' || outcome === 'failed';
}

function listOf(ids: readonly string[]): string {
  if (ids.length === 0) return 'nothing';
  return ids.length <= 8 ? ids.join(', ') : `${ids.slice(0, 8).join(', ')} and ${ids.length - 8} more`;
}
