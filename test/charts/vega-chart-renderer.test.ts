import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { chartSvg, VegaChartRenderer } from '../../src/charts/vega-chart-renderer.js';
import { readSvg, type SvgElement, type SvgNode } from '../../src/core/svg-document.js';
import { USAGE_CHART_SIZE, usageChartSpec, type ChartSpec, type UsageChartInput } from '../../src/core/usage-chart.js';
import { memoryLogger, silentLogger } from '../fakes/memory-logger.js';
import { day, ENGLISH_CHART_TEXTS } from '../fakes/usage-days.js';

const HOSTILE = '<script>A&B';

/** A month of 30 days, seven members (one with a hostile name, one with a long one) and six models. */
function month(): UsageChartInput {
  const models = ['gpt-image-2', 'gpt-image-1', 'dall-e-3', 'black-forest-labs/flux-1.1-pro', 'sd-3.5', 'imagen-4'];
  const members = ['1', '2', '3', '4', '5', '6', '7'];
  const days = Array.from({ length: 30 }, (_, i) =>
    day(
      `2026-11-${String(i + 1).padStart(2, '0')}`,
      Object.fromEntries(models.map((m, j) => [m, (i + j) % 4])),
      Object.fromEntries(members.map((m, j) => [m, ((i + j) % 4) + (j === 0 ? 6 : 0)])),
    ),
  );
  const names = new Map([
    ['1', HOSTILE],
    ['2', 'Somebody with a very long display name indeed'],
  ]);
  return { days, models, members, names };
}

const spec = (input: UsageChartInput): ChartSpec => {
  const built = usageChartSpec(input, ENGLISH_CHART_TEXTS);
  if (built === undefined) throw new Error('nothing to draw');
  return built;
};

const renderer = new VegaChartRenderer({ logger: silentLogger });
const bounds = () => ({ ...USAGE_CHART_SIZE, signal: AbortSignal.timeout(60_000) });

/** The texts of the `<text>` elements of a document, decoded. */
function texts(node: SvgNode): string[] {
  if (typeof node === 'string') return [];
  const own = node.name === 'text' ? node.children.filter((c): c is string => typeof c === 'string') : [];
  return [...own, ...node.children.flatMap(texts)];
}

function names(node: SvgElement): string[] {
  return [node.name, ...node.children.flatMap((c) => (typeof c === 'string' ? [] : names(c)))];
}

describe('VegaChartRenderer', () => {
  it('draws a month by model and by member as a PNG of exactly 1200×600', async () => {
    const png = await renderer.render(spec(month()), bounds());
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1200, 600]);
  }, 60_000);

  it("draws one member's week at the same size", async () => {
    const input = month();
    const png = await renderer.render(spec({ ...input, days: input.days.slice(0, 7), models: [], members: ['1'] }), bounds());
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1200, 600]);
  }, 60_000);

  it('writes member names as text: escaped in the SVG, never markup', async () => {
    const svg = await chartSvg(spec(month()), AbortSignal.timeout(60_000), silentLogger);
    expect(svg).toContain('&lt;script&gt;A&amp;B');
    expect(svg).not.toMatch(/<script/i);
    const root = readSvg(Buffer.from(svg), { maxBytes: 4 * 1024 * 1024, maxElements: 100_000, maxDepth: 64 });
    expect(names(root)).not.toContain('script');
    expect(texts(root)).toContain(HOSTILE);
    // The legend's text is cut to its width with an ellipsis, never wrapped or spilled.
    expect(texts(root).some((t) => t.startsWith('Somebody with') && t.endsWith('…'))).toBe(true);
  }, 60_000);

  it('loads nothing: a spec that names a URL gets no data, and nothing is asked of the network', async () => {
    const server = createServer((_req, res) => res.end('[{"a":"x"}]'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    let connections = 0;
    server.on('connection', () => (connections += 1));
    const log = memoryLogger();
    try {
      const remote: ChartSpec = { data: { url: `http://127.0.0.1:${port}/data.json` }, mark: 'text', encoding: { text: { field: 'a', type: 'nominal' } } };
      const svg = await chartSvg(remote, AbortSignal.timeout(60_000), log.logger);
      expect(svg).not.toContain('>x<');
      expect(connections).toBe(0);
      expect(log.find('chart library warning').map((l) => String(l['vega']))).toEqual([expect.stringContaining('a chart loads nothing')]);
    } finally {
      server.close();
    }
  }, 60_000);

  it('stops once its time is up, before drawing', async () => {
    await expect(chartSvg(spec(month()), AbortSignal.abort(new Error('out of time')), silentLogger)).rejects.toThrow('out of time');
    await expect(renderer.render(spec(month()), { ...USAGE_CHART_SIZE, signal: AbortSignal.abort(new Error('out of time')) })).rejects.toThrow('out of time');
  }, 60_000);
});

describe("the chart's fonts", () => {
  it("are in the Docker image's runtime: DejaVu (Latin, Cyrillic) and Droid Sans Fallback (Chinese, Japanese, Korean)", () => {
    const dockerfile = readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8');
    const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
    expect(runtime).toMatch(/apt-get install[^\n]*\bfonts-dejavu-core\b[^\n]*\bfonts-droid-fallback\b/);
  });
});
