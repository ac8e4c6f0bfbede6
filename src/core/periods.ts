import type { QuotaPeriod } from './quota.js';

/** One quota window, calendar-aligned in UTC: `[start, end)` in ms since epoch. */
export interface PeriodWindow {
  period: QuotaPeriod;
  start: number;
  /** Start of the next window: when the quota resets. */
  end: number;
  /** `day:2025-03-31`, `week:2025-03-31` (the Monday), `month:2025-03`: stable, sortable, used in keys. */
  label: string;
}

const DAY_MS = 86_400_000;

/** Average length of each period in days, used to compare limits of different periods by rate. */
export const PERIOD_DAYS: Readonly<Record<QuotaPeriod, number>> = { day: 1, week: 7, month: 30.44 };

/** The window of `period` that contains `now`. Weeks start on Monday (ISO 8601); months have their real length. */
export function periodWindow(period: QuotaPeriod, now: number): PeriodWindow {
  const date = new Date(now);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const dayStart = Date.UTC(year, month, date.getUTCDate());
  switch (period) {
    case 'day':
      return { period, start: dayStart, end: dayStart + DAY_MS, label: `day:${isoDate(dayStart)}` };
    case 'week': {
      // getUTCDay() is 0 for Sunday; ISO weeks start on Monday, so Sunday is the 7th day.
      const daysSinceMonday = (date.getUTCDay() + 6) % 7;
      const start = dayStart - daysSinceMonday * DAY_MS;
      return { period, start, end: start + 7 * DAY_MS, label: `week:${isoDate(start)}` };
    }
    case 'month': {
      const start = Date.UTC(year, month, 1);
      // Date.UTC rolls month 12 over to January of the next year.
      const end = Date.UTC(year, month + 1, 1);
      return { period, start, end, label: `month:${isoDate(start).slice(0, 7)}` };
    }
  }
}

/** `YYYY-MM-DD` (UTC) of a time. */
export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
