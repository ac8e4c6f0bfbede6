/**
 * Days of usage for /usage's chart tests: `day(…)` builds one from per-model and per-member images (a cost of 4 cents
 * an image), and ENGLISH_CHART_TEXTS are the chart's words as an English-speaking admin reads them.
 */
import type { UsageDay } from '../../src/core/reports.js';
import type { UsageChartTexts } from '../../src/core/usage-chart.js';
import type { Sum } from '../../src/core/usage-totals.js';

const sums = (images: Readonly<Record<string, number>>): Record<string, Sum> =>
  Object.fromEntries(Object.entries(images).map(([id, n]) => [id, { images: n, jobs: n, costUsd: Math.round(n * 400) / 1e4 }]));

/** A day (`YYYY-MM-DD`) with these images by model and by member; its totals are the members'. */
export function day(date: string, byModel: Readonly<Record<string, number>>, byMember: Readonly<Record<string, number>>): UsageDay {
  const images = Object.values(byMember).reduce((n, x) => n + x, 0);
  return { day: date, images, costUsd: Math.round(images * 400) / 1e4, models: sums(byModel), members: sums(byMember) };
}

export const ENGLISH_CHART_TEXTS: UsageChartTexts = {
  images: 'Images',
  cost: 'Cost (USD)',
  day: 'Day',
  model: 'Model',
  member: 'Member',
  others: 'Others',
  dayLabel: (d) => `Nov ${Number(d.slice(8))}`,
  numbers: { decimal: '.', thousands: ',', grouping: [3], currency: ['$', ''] },
};
