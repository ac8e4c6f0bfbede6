import { describe, expect, it, vi } from 'vitest';
import type { UsageSummary } from '../../src/core/reports.js';
import type { ChartSpec } from '../../src/core/usage-chart.js';
import type { ChartBounds, ChartRenderer } from '../../src/ports/chart-renderer.js';
import { MemoryBudget } from '../../src/service/memory-budget.js';
import { USAGE_CHART_BYTES, UsageCharts } from '../../src/service/usage-chart.js';
import { memoryLogger } from '../fakes/memory-logger.js';
import { day, ENGLISH_CHART_TEXTS } from '../fakes/usage-days.js';

const PNG = Buffer.from('png');
const MIB = 1024 * 1024;

function summary(days = [day('2026-11-01', { 'gpt-image-2': 2 }, { '1': 1, '2': 1 })]): UsageSummary {
  return {
    from: Date.parse('2026-11-01T00:00:00Z'),
    images: 2,
    jobs: 2,
    reportedUsd: 0.08,
    estimatedUsd: 0,
    members: [
      { userId: '1', images: 1, jobs: 1, costUsd: 0.04 },
      { userId: '2', images: 1, jobs: 1, costUsd: 0.04 },
    ],
    models: [{ model: 'gpt-image-2', images: 2, jobs: 2, costUsd: 0.08 }],
    refusals: {},
    failures: 0,
    jobIds: [],
    jobIdsCut: false,
    promptHelpCalls: 0,
    promptHelpUsd: 0,
    days,
  };
}

/** A renderer that records what it is asked and answers as `answer` says (a PNG by default). */
function fakeRenderer(answer: (spec: ChartSpec, bounds: ChartBounds) => Promise<Buffer> = () => Promise.resolve(PNG)) {
  const calls: { spec: ChartSpec; bounds: ChartBounds }[] = [];
  const renderer: ChartRenderer = {
    render: (spec, bounds) => {
      calls.push({ spec, bounds });
      return answer(spec, bounds);
    },
  };
  return { renderer, calls };
}

const names = () => Promise.resolve(new Map([['1', 'Ada']]));

describe('UsageCharts', () => {
  it('draws the period at the fixed size, naming the top members, and gives its memory back', async () => {
    const { renderer, calls } = fakeRenderer();
    const memory = new MemoryBudget({ totalBytes: 64 * MIB, answerBytes: 16 * MIB });
    const namesOf = vi.fn(names);
    const charts = new UsageCharts({ renderer, memory, logger: memoryLogger().logger });
    expect(await charts.chart(summary(), ENGLISH_CHART_TEXTS, namesOf)).toEqual({ kind: 'drawn', png: PNG });
    expect(namesOf).toHaveBeenCalledWith(['1', '2']);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.bounds).toMatchObject({ width: 1200, height: 600 });
    expect(JSON.stringify(calls[0]?.spec)).toContain('"Ada"');
    expect(memory.inUse).toBe(0);
  });

  it('draws nothing, and asks no names, for a period without images or cost', async () => {
    const { renderer, calls } = fakeRenderer();
    const namesOf = vi.fn(names);
    const charts = new UsageCharts({ renderer, memory: new MemoryBudget(), logger: memoryLogger().logger });
    expect(await charts.chart(summary([day('2026-11-01', {}, {})]), ENGLISH_CHART_TEXTS, namesOf)).toEqual({ kind: 'empty' });
    expect(namesOf).not.toHaveBeenCalled();
    expect(calls).toHaveLength(0);
  });

  it('holds its bytes in the memory budget while it draws', async () => {
    const memory = new MemoryBudget({ totalBytes: 64 * MIB, answerBytes: 16 * MIB });
    let heldWhileDrawing = 0;
    const { renderer } = fakeRenderer(() => {
      heldWhileDrawing = memory.inUse;
      return Promise.resolve(PNG);
    });
    await new UsageCharts({ renderer, memory, logger: memoryLogger().logger }).chart(summary(), ENGLISH_CHART_TEXTS, names);
    expect(heldWhileDrawing).toBe(USAGE_CHART_BYTES);
    expect(USAGE_CHART_BYTES).toBeGreaterThanOrEqual(1200 * 600 * 4 * 2);
  });

  it('leaves the chart out, and says why in the log, when its memory is not free now', async () => {
    const { renderer, calls } = fakeRenderer();
    const log = memoryLogger();
    const memory = new MemoryBudget({ totalBytes: USAGE_CHART_BYTES, answerBytes: 1 });
    const held = memory.tryTake(1);
    const charts = new UsageCharts({ renderer, memory, logger: log.logger });
    expect(await charts.chart(summary(), ENGLISH_CHART_TEXTS, names)).toEqual({ kind: 'failed' });
    expect(calls).toHaveLength(0);
    expect(log.find('usage chart left out: the memory budget is full')).toHaveLength(1);
    held?.();
    expect(await charts.chart(summary(), ENGLISH_CHART_TEXTS, names)).toMatchObject({ kind: 'drawn' });
    // A budget smaller than one chart has none, even with nothing else held.
    const small = new UsageCharts({ renderer, memory: new MemoryBudget({ totalBytes: USAGE_CHART_BYTES - 1, answerBytes: 1 }), logger: log.logger });
    expect(await small.chart(summary(), ENGLISH_CHART_TEXTS, names)).toEqual({ kind: 'failed' });
    expect(calls).toHaveLength(1);
  });

  it('leaves the chart out, logged, when drawing fails or names cannot be found', async () => {
    const log = memoryLogger();
    const memory = new MemoryBudget({ totalBytes: 64 * MIB, answerBytes: 16 * MIB });
    const { renderer } = fakeRenderer(() => Promise.reject(new Error('librsvg says no')));
    const charts = new UsageCharts({ renderer, memory, logger: log.logger });
    expect(await charts.chart(summary(), ENGLISH_CHART_TEXTS, names)).toEqual({ kind: 'failed' });
    expect(await charts.chart(summary(), ENGLISH_CHART_TEXTS, () => Promise.reject(new Error('Discord is down')))).toEqual({ kind: 'failed' });
    expect(log.find('usage chart left out: it could not be drawn').map((l) => (l['err'] as { message: string }).message)).toEqual([
      'librsvg says no',
      'Discord is down',
    ]);
    expect(memory.inUse).toBe(0);
  });

  it('gives up on a drawing past its time limit, and keeps its memory until the drawing is over', async () => {
    const log = memoryLogger();
    const memory = new MemoryBudget({ totalBytes: 64 * MIB, answerBytes: 16 * MIB });
    let finish: (png: Buffer) => void = () => undefined;
    const { renderer, calls } = fakeRenderer(() => new Promise<Buffer>((resolve) => (finish = resolve)));
    const charts = new UsageCharts({ renderer, memory, logger: log.logger, timeoutMs: 20 });
    expect(await charts.chart(summary(), ENGLISH_CHART_TEXTS, names)).toEqual({ kind: 'failed' });
    expect(calls[0]?.bounds.signal.aborted).toBe(true);
    expect(log.find('usage chart left out: it could not be drawn')[0]).toMatchObject({ timedOut: true });
    expect(memory.inUse).toBe(USAGE_CHART_BYTES);
    finish(PNG);
    await vi.waitFor(() => expect(memory.inUse).toBe(0));
  });

  it('draws one chart at a time: a second waits for the first', async () => {
    const memory = new MemoryBudget({ totalBytes: 64 * MIB, answerBytes: 16 * MIB });
    const finishes: (() => void)[] = [];
    let drawing = 0;
    let most = 0;
    const { renderer, calls } = fakeRenderer(
      () =>
        new Promise<Buffer>((resolve) => {
          most = Math.max(most, ++drawing);
          finishes.push(() => {
            drawing -= 1;
            resolve(PNG);
          });
        }),
    );
    const charts = new UsageCharts({ renderer, memory, logger: memoryLogger().logger });
    const both = Promise.all([charts.chart(summary(), ENGLISH_CHART_TEXTS, names), charts.chart(summary(), ENGLISH_CHART_TEXTS, names)]);
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    finishes[0]?.();
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    finishes[1]?.();
    expect((await both).map((c) => c.kind)).toEqual(['drawn', 'drawn']);
    expect(most).toBe(1);
  });

  it('draws nothing for a period whose days have images but no model or member to chart them by', async () => {
    const { renderer, calls } = fakeRenderer(() => Promise.resolve(PNG));
    const charts = new UsageCharts({ renderer, memory: new MemoryBudget({ totalBytes: 64 * MIB, answerBytes: 16 * MIB }), logger: memoryLogger().logger });
    expect(await charts.chart({ ...summary(), models: [], members: [] }, ENGLISH_CHART_TEXTS, names)).toEqual({ kind: 'empty' });
    expect(calls).toHaveLength(0);
  });
});
