/**
 * The bot's Prometheus metrics (prom-client), on a registry of their own: the process's default metrics (event-loop
 * lag included) and the `imagine_bot_*` series below. build-ops.ts builds one and main.ts hands its observer methods to the parts
 * that report: the service (its JobMetrics port), the gateway and ledger wrappers in this folder, the router's event
 * and the attachment download.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { JobMetrics } from '../ports/job-metrics.js';
import type { JobOutcome } from '../core/job-outcome.js';

/** What kind of interaction Discord sent. */
export type InteractionKind = 'command' | 'button' | 'modal' | 'autocomplete' | 'menu' | 'other';

/** Seconds buckets for calls that take from milliseconds (store) to minutes (image generation). */
const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 180];

/** Options of {@link BotMetrics}. */
export interface BotMetricsOptions {
  /** Jobs waiting in the fair queue now, read at each scrape. */
  queueDepth: () => number;
  /** Whether to collect Node's default process metrics (tests of the counters leave them out). @default true */
  defaultMetrics?: boolean | undefined;
}

/** The registry and its observers. */
export class BotMetrics implements JobMetrics {
  readonly registry = new Registry();
  private readonly interactions: Counter<'type'>;
  private readonly jobs: Counter<'outcome'>;
  private readonly gatewaySeconds: Histogram<'operation'>;
  private readonly gatewayFailures: Counter<'category'>;
  private readonly quotaRefusals: Counter;
  private readonly queueWait: Histogram;
  private readonly downloadedBytes: Counter;
  private readonly uploadedBytes: Counter;
  private readonly storeSeconds: Histogram<'operation'>;

  constructor(options: BotMetricsOptions) {
    const registers = [this.registry];
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry, prefix: 'imagine_bot_' });
    this.interactions = new Counter({ name: 'imagine_bot_interactions_total', help: 'Interactions received, by type', labelNames: ['type'], registers });
    this.jobs = new Counter({ name: 'imagine_bot_jobs_total', help: 'Image jobs settled, by outcome', labelNames: ['outcome'], registers });
    this.gatewaySeconds = new Histogram({
      name: 'imagine_bot_gateway_request_duration_seconds',
      help: 'Image gateway calls (retries included), by operation',
      labelNames: ['operation'],
      buckets: SECONDS_BUCKETS,
      registers,
    });
    this.gatewayFailures = new Counter({
      name: 'imagine_bot_gateway_failures_total',
      help: 'Image gateway calls that failed, by error category',
      labelNames: ['category'],
      registers,
    });
    this.quotaRefusals = new Counter({ name: 'imagine_bot_quota_refusals_total', help: 'Reservations the quota refused', registers });
    new Gauge({
      name: 'imagine_bot_queue_depth',
      help: 'Jobs waiting in the fair queue',
      registers,
      collect() {
        this.set(options.queueDepth());
      },
    });
    this.queueWait = new Histogram({ name: 'imagine_bot_queue_wait_seconds', help: 'Time jobs waited for their turn', buckets: SECONDS_BUCKETS, registers });
    this.downloadedBytes = new Counter({ name: 'imagine_bot_downloaded_bytes_total', help: "Members' reference images downloaded", registers });
    this.uploadedBytes = new Counter({ name: 'imagine_bot_uploaded_bytes_total', help: 'Result files posted to Discord', registers });
    this.storeSeconds = new Histogram({
      name: 'imagine_bot_store_operation_duration_seconds',
      help: 'Quota ledger operations, by operation',
      labelNames: ['operation'],
      buckets: SECONDS_BUCKETS,
      registers,
    });
  }

  /** The Prometheus text exposition and its content type. */
  async expose(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  interaction(kind: InteractionKind): void {
    this.interactions.inc({ type: kind });
  }

  jobSettled(outcome: JobOutcome): void {
    this.jobs.inc({ outcome });
  }

  queueWaited(seconds: number): void {
    this.queueWait.observe(seconds);
  }

  uploaded(bytes: number): void {
    this.uploadedBytes.inc(bytes);
  }

  downloaded(bytes: number): void {
    this.downloadedBytes.inc(bytes);
  }

  quotaRefused(): void {
    this.quotaRefusals.inc();
  }

  /** One gateway call took `seconds`; `failure` is its error category when it failed. */
  gatewayCall(operation: 'generate' | 'edit', seconds: number, failure?: string): void {
    this.gatewaySeconds.observe({ operation }, seconds);
    if (failure !== undefined) this.gatewayFailures.inc({ category: failure });
  }

  storeOperation(operation: string, seconds: number): void {
    this.storeSeconds.observe({ operation }, seconds);
  }
}
