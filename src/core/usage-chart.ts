/**
 * /usage's chart (issue 32) as a declarative Vega-Lite specification: images and cost per day over the period, by
 * model and by the top members. Pure: the spec is plain JSON that the charts room compiles and draws
 * (ports/chart-renderer.ts); every text in it comes from the caller in the member's language.
 *
 * Member names and model names are data, never code: they go in as data values and the colour scale's domain (drawn
 * as legend labels, which Vega writes as escaped SVG text), never into an expression, a format or a URL, and control
 * and direction-override characters are taken out of them. The top {@link CHART_TOP} models and members are drawn,
 * the rest as one "others" series; labels are made unique (two members may share a name).
 * @see https://vega.github.io/vega-lite/docs/spec.html
 */
import type { UsageDay } from './reports.js';
import { roundUsd } from './cost.js';
import type { Sum } from './usage-totals.js';

/** A Vega-Lite specification as JSON. */
export type ChartSpec = Readonly<Record<string, unknown>>;

/** The chart's size in pixels (the drawing is fitted to it exactly). */
export const USAGE_CHART_SIZE = { width: 1200, height: 600 } as const;

/** Models and members drawn apart; the rest are one series. */
export const CHART_TOP = 5;

/** The longest series label kept (legends cut what is wider than they show anyway). */
const MAX_LABEL = 60;
const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

const PADDING = 12;
const SPACING = 24;

/** Tableau's first colours for the top series; grey for the rest. */
const PALETTE = ['#4c78a8', '#f58518', '#e45756', '#72b7b2', '#54a24b'];
const OTHERS_COLOUR = '#9d9d9d';

/** Numbers as the member's language writes them: Vega's number locale (d3-format's). */
export interface ChartNumberLocale {
  decimal: string;
  thousands: string;
  grouping: number[];
  /** Before and after an amount (`["$", ""]`, `["", " $US"]`). */
  currency: [string, string];
}

/** The chart's words and formats, in the member's language. */
export interface UsageChartTexts {
  images: string;
  cost: string;
  day: string;
  model: string;
  member: string;
  others: string;
  /** A day's label under its bar (`Nov 14`), from `YYYY-MM-DD`. */
  dayLabel: (day: string) => string;
  numbers: ChartNumberLocale;
}

/** What the chart draws. */
export interface UsageChartInput {
  days: readonly UsageDay[];
  /** The period's models by images, most first (none: no "by model" column). */
  models: readonly string[];
  /** The period's members by images, most first (none: no "by member" column). */
  members: readonly string[];
  /** Members' display names by id; an id without one shows as itself. */
  names: ReadonlyMap<string, string>;
}

type Group = 'model' | 'member';

/** One bar segment: a series' images and cost on a day. */
interface Row {
  x: string;
  s: string;
  o: number;
  g: Group;
  images: number;
  cost: number;
}

/** A column of the chart: its series (labels, in order) and rows. */
interface Column {
  group: Group;
  labels: string[];
  rows: Row[];
}

/** The chart's spec; undefined when there is nothing to draw (no images and no cost in the period). */
export function usageChartSpec(input: UsageChartInput, texts: UsageChartTexts): ChartSpec | undefined {
  if (!input.days.some((d) => d.images > 0 || d.costUsd > 0)) return undefined;
  const xLabels = uniqueLabels(input.days.map((d) => texts.dayLabel(d.day)));
  const columns = [
    column(
      'model',
      input.models,
      (id) => id,
      (d) => d.models,
      xLabels,
      input.days,
      texts,
    ),
    column(
      'member',
      input.members,
      (id) => input.names.get(id) ?? id,
      (d) => d.members,
      xLabels,
      input.days,
      texts,
    ),
  ].filter((c): c is Column => c !== undefined);
  if (columns.length === 0) return undefined;
  const maxCost = Math.max(...input.days.map((d) => d.costUsd));
  // What a column's axis and legend take beside its panels (measured on Vega's drawings), and the panels' height.
  const width = Math.floor((USAGE_CHART_SIZE.width - 2 * PADDING - SPACING * (columns.length - 1)) / columns.length) - 235;
  return {
    background: 'white',
    padding: PADDING,
    data: { values: columns.flatMap((c) => c.rows) },
    hconcat: columns.map((c) => ({
      vconcat: [panel(c, 'images', { width, xLabels, texts, maxCost }), panel(c, 'cost', { width, xLabels, texts, maxCost })],
      resolve: { scale: { color: 'shared' }, legend: { color: 'shared' } },
    })),
    resolve: { scale: { color: 'independent' }, legend: { color: 'independent' } },
    config: {
      aria: false,
      locale: { number: texts.numbers },
      view: { stroke: null },
      font: 'sans-serif',
      axis: { labelFontSize: 12, titleFontSize: 13 },
      legend: { labelFontSize: 12, titleFontSize: 13, labelLimit: 150 },
      concat: { spacing: SPACING },
    },
  };
}

/** A column's series and rows: the top of `ranked`, then the rest as "others" (when there is a rest). */
function column(
  group: Group,
  ranked: readonly string[],
  labelOf: (id: string) => string,
  sumsOf: (day: UsageDay) => Readonly<Record<string, Sum>>,
  xLabels: readonly string[],
  days: readonly UsageDay[],
  texts: UsageChartTexts,
): Column | undefined {
  if (ranked.length === 0) return undefined;
  const top = ranked.slice(0, CHART_TOP);
  const topSet = new Set(top);
  const others = ranked.length > CHART_TOP;
  const labels = uniqueLabels([...top.map((id) => cleanLabel(labelOf(id))), ...(others ? [cleanLabel(texts.others)] : [])]);
  const rows: Row[] = [];
  days.forEach((day, index) => {
    const x = xLabels[index] ?? day.day;
    const sums = sumsOf(day);
    top.forEach((id, o) => rows.push(row(x, labels[o] ?? id, o, group, sums[id])));
    if (!others) return;
    const rest = Object.entries(sums).filter(([id]) => !topSet.has(id));
    const sum = rest.reduce((acc, [, s]) => ({ images: acc.images + s.images, jobs: acc.jobs + s.jobs, costUsd: roundUsd(acc.costUsd + s.costUsd) }), {
      images: 0,
      jobs: 0,
      costUsd: 0,
    });
    rows.push(row(x, labels[top.length] ?? texts.others, top.length, group, sum));
  });
  return { group, labels, rows };
}

const row = (x: string, s: string, o: number, g: Group, sum: Sum | undefined): Row => ({ x, s, o, g, images: sum?.images ?? 0, cost: sum?.costUsd ?? 0 });

/** One panel: a measure per day, stacked by the column's series. */
function panel(c: Column, measure: 'images' | 'cost', layout: { width: number; xLabels: readonly string[]; texts: UsageChartTexts; maxCost: number }) {
  const { texts } = layout;
  const images = measure === 'images';
  return {
    width: layout.width,
    height: 225,
    transform: [{ filter: { field: 'g', equal: c.group } }],
    mark: { type: 'bar' },
    encoding: {
      x: {
        field: 'x',
        type: 'ordinal',
        scale: { domain: layout.xLabels },
        axis: { title: images ? null : texts.day, labelAngle: 0, labelOverlap: 'parity', labelLimit: 80 },
      },
      y: {
        field: measure,
        type: 'quantitative',
        stack: 'zero',
        axis: images ? { title: texts.images, format: ',d', tickMinStep: 1 } : { title: texts.cost, format: costFormat(layout.maxCost) },
      },
      color: {
        field: 's',
        type: 'nominal',
        title: c.group === 'model' ? texts.model : texts.member,
        scale: { domain: c.labels, range: c.labels.map((_, i) => PALETTE[i] ?? OTHERS_COLOUR) },
      },
      order: { field: 'o', type: 'quantitative' },
    },
  };
}

/** Enough decimals that the cost axis's ticks differ: cents from ten cents a day, tenths of a cent below, then hundredths. */
function costFormat(maxDay: number): string {
  return `$,.${maxDay >= 0.1 ? 2 : maxDay >= 0.01 ? 3 : 4}f`;
}

/**
 * A label as plain, one-line text: no control characters (a line break, a NUL) and no direction overrides or
 * isolates (which would turn the legend's text around), spaces collapsed, at most {@link MAX_LABEL} characters (as a reader counts them: an emoji is one).
 */
export function cleanLabel(text: string): string {
  const clean = text
    .replace(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const graphemes = Array.from(GRAPHEMES.segment(clean), (g) => g.segment);
  return graphemes.length > MAX_LABEL ? `${graphemes.slice(0, MAX_LABEL - 1).join('')}…` : clean || '?';
}

/** The labels made unique in order: a repeated one gets ` (2)`, ` (3)`, … */
export function uniqueLabels(labels: readonly string[]): string[] {
  const seen = new Set<string>();
  return labels.map((label) => {
    let unique = label;
    for (let n = 2; seen.has(unique); n++) unique = `${label} (${n})`;
    seen.add(unique);
    return unique;
  });
}
