/** Shared scenario settings: our bot's configuration for the load scenarios and sample summaries. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InteractionSample } from '../emulator-host.js';
import { round, summarize, type Summary } from '../stats.js';

export type Figures = Record<string, number | null>;

/** Both bots' figures and ours/baseline for each (below 1 is better for every figure but throughput). */
export interface Compared {
  ours: Figures;
  baseline: Figures;
  ratio: Figures;
}

export function compare(ours: Figures, baseline: Figures): Compared {
  const ratio: Figures = {};
  for (const key of Object.keys(ours)) {
    const a = ours[key];
    const b = baseline[key];
    ratio[key] = a == null || b == null || b === 0 ? null : round(a / b, 2);
  }
  return { ours, baseline, ratio };
}

/** A fresh SQLite file for one run. */
export function sqliteUrl(): string {
  return `sqlite://${join(mkdtempSync(join(tmpdir(), 'imagine-bench-')), 'bot.sqlite')}`;
}

/**
 * Our bot, sized so the load is not refused: no previews (the baseline has none), no retries, generous quotas.
 * BENCH_BOT_ENV (JSON, e.g. '{"MEMORY_BUDGET_BYTES":"402653184"}') overrides settings for tuning runs.
 */
export function ourEnv(extra: Record<string, string>): Record<string, string> {
  const tuning = process.env['BENCH_BOT_ENV'];
  return {
    GATEWAY_PARTIAL_IMAGES: '0',
    QUOTA_DEFAULT_LIMIT: '1000000',
    MAX_QUEUED_PER_MEMBER: '10',
    ...extra,
    ...(tuning ? (JSON.parse(tuning) as Record<string, string>) : {}),
  };
}

/** p50/p99/max of present values (rounded ms). */
export function latency(values: (number | null)[], prefix: string): Figures {
  const s: Summary = summarize(values.filter((v): v is number => v !== null));
  return { [`${prefix}P50`]: round(s.p50), [`${prefix}P99`]: round(s.p99), [`${prefix}Max`]: round(s.max) };
}

export function completed(samples: InteractionSample[]): number {
  return samples.filter((s) => s.final !== null).length;
}
