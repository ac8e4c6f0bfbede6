/**
 * The ChartRenderer port over Vega (issue 32): a Vega-Lite spec is compiled to Vega, drawn headless to SVG by a View
 * (no canvas: text is measured by Vega's estimate), and the SVG rasterised to PNG by sharp (loaded lazily,
 * src/lazy-sharp.ts), fitted to the exact size asked for on white.
 *
 * Bounds: the libraries are imported on the first chart (lazy-vega.ts); the View loads nothing (its loader refuses
 * every URL and file: a spec's data is inline), and its logs go to the bot's logger at debug; the time limit's signal
 * is checked between the steps, and sharp has its own timeout; the SVG is drawn at a density that makes it at most the
 * size asked for, under sharp's pixel limit for that size, whatever size Vega gave it.
 */
import type { Logger } from 'pino';
import type { ChartSpec } from '../core/usage-chart.js';
import type { ChartBounds, ChartRenderer } from '../ports/chart-renderer.js';
import { loadSharp } from '../lazy-sharp.js';
import { loadVega, type Loader, type TopLevelSpec, type ViewOptions } from './lazy-vega.js';

/** sharp's own limit on one rasterisation (the caller's signal is the real limit; this one frees libvips' thread). */
const RASTER_TIMEOUT_SECONDS = 10;

/** The SVG's own size, as Vega writes it on its root (`<svg … width="726" height="245" …>`). */
const SVG_SIZE = /^<svg\b[^>]*?\swidth="(\d+(?:\.\d+)?)"[^>]*?\sheight="(\d+(?:\.\d+)?)"/;

/** See the module comment. */
export class VegaChartRenderer implements ChartRenderer {
  readonly #log: Logger;

  constructor(options: { logger: Logger }) {
    this.#log = options.logger.child({ module: 'charts' });
  }

  readonly render = async (spec: ChartSpec, bounds: ChartBounds): Promise<Buffer> => {
    const svg = await chartSvg(spec, bounds.signal, this.#log);
    bounds.signal.throwIfAborted();
    return rasterise(svg, bounds);
  };
}

/** `spec` drawn as an SVG document by Vega (its logs to `log` at debug). */
export async function chartSvg(spec: ChartSpec, signal: AbortSignal, log: Logger): Promise<string> {
  const { vega, vegaLite } = await loadVega();
  signal.throwIfAborted();
  const logger = quietLogger(log);
  // The spec is JSON of our own (core/usage-chart.ts); Vega-Lite checks it as it compiles.
  const compiled = vegaLite.compile(spec as unknown as TopLevelSpec, { logger }).spec;
  const options: ViewOptions = { renderer: 'none', loader: refusingLoader(), logger };
  const view = new vega.View(vega.parse(compiled), options);
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** The SVG as a PNG of exactly `bounds`' size: drawn at most that large, then centred on white. */
async function rasterise(svg: string, bounds: ChartBounds): Promise<Buffer> {
  const size = SVG_SIZE.exec(svg);
  const drawnWidth = Number(size?.[1]);
  const drawnHeight = Number(size?.[2]);
  if (!(drawnWidth > 0 && drawnHeight > 0)) throw new Error('the chart has no size');
  const scale = Math.min(bounds.width / drawnWidth, bounds.height / drawnHeight);
  const sharp = await loadSharp();
  bounds.signal.throwIfAborted();
  return sharp(Buffer.from(svg, 'utf8'), { density: 72 * scale, limitInputPixels: (bounds.width + 2) * (bounds.height + 2) })
    .resize(bounds.width, bounds.height, { fit: 'contain', background: '#ffffff' })
    .flatten({ background: '#ffffff' })
    .png()
    .timeout({ seconds: RASTER_TIMEOUT_SECONDS })
    .toBuffer();
}

/** A loader that loads nothing: a chart's data is in its spec, and a chart never reaches the network or the disk. */
function refusingLoader(): Loader {
  const refuse = (what: string) => Promise.reject(new Error(`a chart loads nothing (${what})`));
  return { load: (uri) => refuse(uri), sanitize: (uri) => refuse(uri), http: (uri) => refuse(uri), file: (name) => refuse(name) };
}

type VegaLogger = NonNullable<ViewOptions['logger']>;

/** Vega's warning level: what its logger is asked to pass on (its View asks; nothing changes it). */
const WARN = 2;

/** Vega's and Vega-Lite's warnings and errors, to the bot's log at debug (the failure itself is logged by the caller). */
function quietLogger(log: Logger): VegaLogger {
  const say =
    (msg: string) =>
    (...args: unknown[]) => {
      log.debug({ vega: args.map(String).join(' ').slice(0, 300) }, msg);
      return logger;
    };
  const logger: VegaLogger = {
    level: (value?: number) => (value === undefined ? WARN : logger),
    error: say('chart library error'),
    warn: say('chart library warning'),
    info: () => logger,
    debug: () => logger,
  };
  return logger;
}
