/**
 * /usage's chart (issue 32): the period's images and cost per day, by model and by the top members, drawn from a
 * Vega-Lite spec (core/usage-chart.ts) by the ChartRenderer port as a PNG of {@link USAGE_CHART_SIZE}.
 *
 * The chart is an extra beside /usage's text and CSV, never a reason for /usage to fail: a period with nothing to draw
 * has none; a chart whose memory is not free now, or whose drawing fails or runs out of its time limit
 * (USAGE_CHART_TIMEOUT_MS, members' names and the wait for the one drawing slot included) is left out and logged.
 * Its bytes (the drawing's pixels twice: librsvg's surface and the fitted copy; the SVG and the PNG) are taken from
 * the memory budget before it starts, only if they are free then (a budget smaller than one chart has no charts), and
 * given back once the drawing is over, even one given up on. One chart is drawn at a time in the process (charts are
 * for admins, and a drawing takes a core for a moment).
 */
import type { Logger } from 'pino';
import type { UsageSummary } from '../core/reports.js';
import { CHART_TOP, USAGE_CHART_SIZE, usageChartSpec, type UsageChartTexts } from '../core/usage-chart.js';
import type { ChartRenderer } from '../ports/chart-renderer.js';
import type { MemoryBudget } from './memory-budget.js';
import { Semaphore } from './semaphore.js';

/** The longest a chart may take, from the names to the PNG. */
export const USAGE_CHART_TIMEOUT_MS = 10_000;

/** Beside the pixels: the SVG text and the PNG (a chart's SVG is a few hundred kB, its PNG less). */
const DOCUMENT_BYTES = 2 * 1024 * 1024;

/** What a chart holds at most while it is drawn. */
export const USAGE_CHART_BYTES = USAGE_CHART_SIZE.width * USAGE_CHART_SIZE.height * 4 * 2 + DOCUMENT_BYTES;

/** What the service is built with for its charts. */
export interface ChartParts {
  /** Draws them (the charts room's). */
  charts: ChartRenderer;
}

/** Members' display names by id (those it could find). */
export type NamesOf = (userIds: readonly string[]) => Promise<ReadonlyMap<string, string>>;

/** A chart, or why there is none: nothing to draw, or it could not be drawn (logged). */
export type UsageChart = { kind: 'drawn'; png: Buffer } | { kind: 'empty' } | { kind: 'failed' };

/** See the module comment. */
export class UsageCharts {
  readonly #renderer: ChartRenderer;
  readonly #memory: Pick<MemoryBudget, 'tryTake' | 'totalBytes'>;
  readonly #log: Logger;
  readonly #timeoutMs: number;
  readonly #slot = new Semaphore(1);

  constructor(options: { renderer: ChartRenderer; memory: Pick<MemoryBudget, 'tryTake' | 'totalBytes'>; logger: Logger; timeoutMs?: number | undefined }) {
    this.#renderer = options.renderer;
    this.#memory = options.memory;
    this.#log = options.logger.child({ module: 'usage-chart' });
    this.#timeoutMs = options.timeoutMs ?? USAGE_CHART_TIMEOUT_MS;
  }

  /** The chart of `summary` with `texts` in the admin's language; members named by `namesOf`. */
  async chart(summary: UsageSummary, texts: UsageChartTexts, namesOf: NamesOf): Promise<UsageChart> {
    if (!summary.days.some((d) => d.images > 0 || d.costUsd > 0)) return { kind: 'empty' };
    // A budget smaller than one chart never has room for it (tryTake would let it through alone).
    const release = USAGE_CHART_BYTES <= this.#memory.totalBytes ? this.#memory.tryTake(USAGE_CHART_BYTES) : undefined;
    if (!release) {
      this.#log.warn({ bytes: USAGE_CHART_BYTES }, 'usage chart left out: the memory budget is full');
      return { kind: 'failed' };
    }
    const signal = AbortSignal.timeout(this.#timeoutMs);
    const drawing = this.#draw(summary, texts, namesOf, signal);
    // Held until the drawing is over, even once given up on: its memory is in use until then.
    const over = () => release();
    void drawing.then(over, over);
    try {
      const png = await Promise.race([drawing, aborted(signal)]);
      return png === undefined ? { kind: 'empty' } : { kind: 'drawn', png };
    } catch (err) {
      this.#log.warn({ err, timedOut: signal.aborted }, 'usage chart left out: it could not be drawn');
      return { kind: 'failed' };
    }
  }

  async #draw(summary: UsageSummary, texts: UsageChartTexts, namesOf: NamesOf, signal: AbortSignal): Promise<Buffer | undefined> {
    const top = summary.members.slice(0, CHART_TOP).map((m) => m.userId);
    const names = await namesOf(top);
    const spec = usageChartSpec(
      { days: summary.days, models: summary.models.map((m) => m.model), members: summary.members.map((m) => m.userId), names },
      texts,
    );
    if (spec === undefined) return undefined;
    const free = await this.#slot.acquire(1, signal);
    try {
      return await this.#renderer.render(spec, { ...USAGE_CHART_SIZE, signal });
    } finally {
      free();
    }
  }
}

/** Rejects with the signal's reason (a TimeoutError) once it aborts; the signal is new, never aborted yet. */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise<never>((_, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });
}
