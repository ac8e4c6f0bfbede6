import { describe, expect, it } from 'vitest';
import { cleanLabel, uniqueLabels, usageChartSpec, type ChartSpec, type UsageChartInput } from '../../src/core/usage-chart.js';
import { day, ENGLISH_CHART_TEXTS } from '../fakes/usage-days.js';

const NAMES = new Map([
  ['1', 'Ada'],
  ['2', 'Bo'],
]);

function input(overrides: Partial<UsageChartInput> = {}): UsageChartInput {
  return {
    days: [
      day('2026-11-01', { 'gpt-image-2': 2, 'gpt-image-1': 1 }, { '1': 2, '2': 1 }),
      day('2026-11-02', {}, {}),
      day('2026-11-03', { 'gpt-image-2': 1 }, { '2': 1 }),
    ],
    models: ['gpt-image-2', 'gpt-image-1'],
    members: ['1', '2'],
    names: NAMES,
    ...overrides,
  };
}

/** Every string of the spec with its path (`hconcat.0.vconcat.1.encoding.y.axis.title`). */
function strings(value: unknown, path = ''): [string, string][] {
  if (typeof value === 'string') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, path === '' ? String(i) : `${path}.${i}`));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([k, v]) => strings(v, path === '' ? k : `${path}.${k}`));
  return [];
}

const valueAt = (spec: ChartSpec | undefined, path: string): unknown =>
  path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], spec);

interface Row {
  x: string;
  s: string;
  g: string;
  images: number;
  cost: number;
}
const rows = (spec: ChartSpec | undefined): Row[] => valueAt(spec, 'data.values') as Row[];

describe('usageChartSpec', () => {
  it('draws nothing for a period without images or cost', () => {
    expect(usageChartSpec(input({ days: [day('2026-11-01', {}, {}), day('2026-11-02', {}, {})] }), ENGLISH_CHART_TEXTS)).toBeUndefined();
    expect(usageChartSpec(input({ models: [], members: [] }), ENGLISH_CHART_TEXTS)).toBeUndefined();
  });

  it('draws images and cost per day, by model and by member, titled in the words given', () => {
    const spec = usageChartSpec(input(), ENGLISH_CHART_TEXTS);
    const titles = (column: number) =>
      [0, 1].map((panel) => [
        valueAt(spec, `hconcat.${column}.vconcat.${panel}.encoding.y.axis.title`),
        valueAt(spec, `hconcat.${column}.vconcat.${panel}.encoding.color.title`),
        valueAt(spec, `hconcat.${column}.vconcat.${panel}.encoding.x.axis.title`),
      ]);
    expect(titles(0)).toEqual([
      ['Images', 'Model', null],
      ['Cost (USD)', 'Model', 'Day'],
    ]);
    expect(titles(1)).toEqual([
      ['Images', 'Member', null],
      ['Cost (USD)', 'Member', 'Day'],
    ]);
    expect(valueAt(spec, 'hconcat.0.vconcat.0.encoding.x.scale.domain')).toEqual(['Nov 1', 'Nov 2', 'Nov 3']);
    expect(valueAt(spec, 'hconcat.1.vconcat.1.encoding.color.scale.domain')).toEqual(['Ada', 'Bo']);
    expect(valueAt(spec, 'config.locale.number')).toEqual(ENGLISH_CHART_TEXTS.numbers);
    // Every day has a bar segment per series, empty days too, so each day keeps its place.
    expect(rows(spec).filter((r) => r.g === 'member' && r.s === 'Bo')).toEqual([
      expect.objectContaining({ x: 'Nov 1', images: 1, cost: 0.04 }),
      expect.objectContaining({ x: 'Nov 2', images: 0, cost: 0 }),
      expect.objectContaining({ x: 'Nov 3', images: 1, cost: 0.04 }),
    ]);
  });

  it('draws the five top members and models apart and the rest together as Others', () => {
    const members = ['1', '2', '3', '4', '5', '6', '7'];
    const spec = usageChartSpec(
      input({ days: [day('2026-11-01', { a: 1 }, { '1': 1, '2': 1, '3': 1, '4': 1, '5': 1, '6': 2, '7': 3 })], members, models: ['a'] }),
      ENGLISH_CHART_TEXTS,
    );
    expect(valueAt(spec, 'hconcat.1.vconcat.0.encoding.color.scale.domain')).toEqual(['Ada', 'Bo', '3', '4', '5', 'Others']);
    expect(valueAt(spec, 'hconcat.0.vconcat.0.encoding.color.scale.domain')).toEqual(['a']);
    expect(rows(spec).find((r) => r.g === 'member' && r.s === 'Others')).toMatchObject({ images: 5, cost: 0.2 });
  });

  it("leaves the by-model column out when there are no models (a member's or a role's figures)", () => {
    const spec = usageChartSpec(input({ models: [], members: ['2'] }), ENGLISH_CHART_TEXTS);
    expect(valueAt(spec, 'hconcat.length')).toBe(1);
    expect(valueAt(spec, 'hconcat.0.vconcat.0.encoding.color.title')).toBe('Member');
    expect(valueAt(spec, 'hconcat.0.vconcat.0.encoding.color.scale.domain')).toEqual(['Bo']);
  });

  it("puts members' and models' names only in data values and the legend's domain, never in an expression or a format", () => {
    const hostile = `<script>alert(1)</script> & "x" {datum.s} ' + datum`;
    const spec = usageChartSpec(
      input({ names: new Map([['1', hostile]]), models: [`model ${hostile}`], days: [day('2026-11-01', { [`model ${hostile}`]: 1 }, { '1': 1 })] }),
      ENGLISH_CHART_TEXTS,
    );
    const places = strings(spec)
      .filter(([, text]) => text.includes('alert'))
      .map(([path]) => path.replace(/\.\d+(?=\.|$)/g, '.n'));
    expect(new Set(places)).toEqual(new Set(['data.values.n.s', 'hconcat.n.vconcat.n.encoding.color.scale.domain.n']));
  });
});

describe('the labels of the series', () => {
  it.each([
    ['a\nb\u0000c', 'a b c'],
    ['\u202eevil\u202c name', 'evil name'],
    ['  spaced   out  ', 'spaced out'],
    ['\n', '?'],
    ['x'.repeat(80), `${'x'.repeat(59)}…`],
    ['👩‍👩‍👧'.repeat(70), `${'👩‍👩‍👧'.repeat(59)}…`],
  ])('GIVEN %j THEN %j', (text, label) => {
    expect(cleanLabel(text)).toBe(label);
  });

  it('numbers repeated labels in order', () => {
    expect(uniqueLabels(['Tom', 'Tom', 'Ann', 'Tom', 'Tom (2)'])).toEqual(['Tom', 'Tom (2)', 'Ann', 'Tom (3)', 'Tom (2) (2)']);
  });

  it('tells two members of one name apart in the legend', () => {
    const spec = usageChartSpec(
      input({
        names: new Map([
          ['1', 'Sam'],
          ['2', 'Sam'],
        ]),
      }),
      ENGLISH_CHART_TEXTS,
    );
    expect(valueAt(spec, 'hconcat.1.vconcat.0.encoding.color.scale.domain')).toEqual(['Sam', 'Sam (2)']);
  });
});
