/**
 * The words of /usage's chart (issue 32) in the admin's language: its axis and legend titles, how its days and
 * amounts are written, and its alt text (the attachment's description, which screen readers read and Discord shows
 * on hover), which says in one sentence what the chart shows.
 */
import type { UsageSummary } from '../../core/reports.js';
import type { ChartNumberLocale, UsageChartTexts } from '../../core/usage-chart.js';
import { intlLocaleOf, resolveLanguage } from '../../i18n/locales.js';
import { formatUsd, t } from '../../i18n/translate.js';

/** A Discord locale (the interaction's); English when unknown. */
type Locale = string | null | undefined;

/** Discord's limit on an attachment's description. */
export const MAX_ALT_TEXT = 1024;

const intlTag = (locale: Locale): string => intlLocaleOf(resolveLanguage(locale));
const dayMs = (day: string): number => Date.parse(`${day}T00:00:00Z`);

/** The chart's titles and formats in `locale`'s language. */
export function usageChartTexts(locale: Locale): UsageChartTexts {
  const short = new Intl.DateTimeFormat(intlTag(locale), { month: 'short', day: 'numeric', timeZone: 'UTC' });
  return {
    images: t(locale, 'admin.usage.chartImages'),
    cost: t(locale, 'admin.usage.chartCost'),
    day: t(locale, 'admin.usage.chartDay'),
    model: t(locale, 'admin.usage.chartModel'),
    member: t(locale, 'admin.usage.chartMember'),
    others: t(locale, 'admin.usage.chartOthers'),
    dayLabel: (day) => short.format(dayMs(day)),
    numbers: numberLocale(locale),
  };
}

/** How `locale`'s language writes an amount of US dollars, as Vega's number locale (`1,234.50` and `$`; `1 234,50` and ` $US`). */
export function numberLocale(locale: Locale): ChartNumberLocale {
  const parts = new Intl.NumberFormat(intlTag(locale), { style: 'currency', currency: 'USD' }).formatToParts(1234.5);
  const first = parts.findIndex((p) => p.type === 'integer');
  const last = parts.findLastIndex((p) => p.type === 'fraction');
  const text = (from: number, to: number) =>
    parts
      .slice(from, to)
      .filter((p) => p.type !== 'minusSign' && p.type !== 'plusSign')
      .map((p) => p.value)
      .join('');
  return {
    decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
    thousands: parts.find((p) => p.type === 'group')?.value ?? ',',
    grouping: [3],
    currency: [text(0, first), text(last + 1, parts.length)],
  };
}

/** The line under /usage's figures when its chart could not be drawn. */
export function usageChartMissing(locale: Locale): string {
  return t(locale, 'admin.usage.chartMissing');
}

/**
 * The chart's alt text: what it shows, over which days, the period's images and cost, and its busiest day. It holds
 * no member text, so it stays far below {@link MAX_ALT_TEXT} in every language (tested).
 */
export function usageChartAlt(summary: Pick<UsageSummary, 'days' | 'models'>, locale: Locale): string {
  const { days } = summary;
  const first = days[0];
  const last = days.at(-1);
  if (first === undefined || last === undefined) return '';
  const busiest = days.reduce((best, day) => (day.images > best.images ? day : best), first);
  const long = new Intl.DateTimeFormat(intlTag(locale), { month: 'long', day: 'numeric', timeZone: 'UTC' });
  return t(locale, 'admin.usage.chartAlt', {
    // Models are counted for the server's figures only, which always have members too.
    by: summary.models.length > 0 ? 'both' : 'member',
    range: long.formatRange(dayMs(first.day), dayMs(last.day)),
    images: days.reduce((n, d) => n + d.images, 0),
    cost: formatUsd(
      locale,
      days.reduce((usd, d) => usd + d.costUsd, 0),
    ),
    busiest: long.format(dayMs(busiest.day)),
    busiestImages: busiest.images,
  });
}
