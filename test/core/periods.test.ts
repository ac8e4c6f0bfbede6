import { describe, expect, it } from 'vitest';
import { periodWindow } from '../../src/core/periods.js';

const iso = (ms: number): string => new Date(ms).toISOString();

describe('periodWindow', () => {
  it.each([
    ['2025-01-31T23:59:59.999Z', '2025-01-31T00:00:00.000Z', '2025-02-01T00:00:00.000Z', 'day:2025-01-31'],
    ['2025-02-01T00:00:00.000Z', '2025-02-01T00:00:00.000Z', '2025-02-02T00:00:00.000Z', 'day:2025-02-01'],
    ['2024-12-31T12:00:00.000Z', '2024-12-31T00:00:00.000Z', '2025-01-01T00:00:00.000Z', 'day:2024-12-31'],
  ])('GIVEN %s THEN the day runs from %s to %s', (now, start, end, label) => {
    const window = periodWindow('day', Date.parse(now));
    expect([iso(window.start), iso(window.end), window.label]).toEqual([start, end, label]);
  });

  it.each([
    ['2025-03-10T00:00:00.000Z', '2025-03-10T00:00:00.000Z'], // Monday
    ['2025-03-12T15:00:00.000Z', '2025-03-10T00:00:00.000Z'], // Wednesday
    ['2025-03-16T23:59:59.999Z', '2025-03-10T00:00:00.000Z'], // Sunday belongs to the week before
    ['2025-01-01T08:00:00.000Z', '2024-12-30T00:00:00.000Z'], // ISO week spanning the new year
  ])('GIVEN %s THEN the ISO week starts on Monday %s', (now, start) => {
    const window = periodWindow('week', Date.parse(now));
    expect(iso(window.start)).toBe(start);
    expect(window.end - window.start).toBe(7 * 86_400_000);
    expect(window.label).toBe(`week:${start.slice(0, 10)}`);
  });

  it.each([
    ['2024-02-29T23:59:59.999Z', '2024-02-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z'], // leap February
    ['2025-02-15T00:00:00.000Z', '2025-02-01T00:00:00.000Z', '2025-03-01T00:00:00.000Z'],
    ['2025-04-30T10:00:00.000Z', '2025-04-01T00:00:00.000Z', '2025-05-01T00:00:00.000Z'], // 30 days
    ['2025-12-31T23:59:59.999Z', '2025-12-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'], // year end
  ])('GIVEN %s THEN the month runs from %s to %s', (now, start, end) => {
    const window = periodWindow('month', Date.parse(now));
    expect([iso(window.start), iso(window.end)]).toEqual([start, end]);
    expect(window.label).toBe(`month:${start.slice(0, 7)}`);
  });
});
