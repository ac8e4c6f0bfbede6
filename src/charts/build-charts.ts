/**
 * The charts room: the ChartRenderer port over Vega and sharp (issue 32), both loaded on the first chart, so building
 * the room costs nothing at rest.
 */
import type { Logger } from 'pino';
import type { ChartRenderer } from '../ports/chart-renderer.js';
import { VegaChartRenderer } from './vega-chart-renderer.js';

/** The built room. */
export interface Charts {
  renderer: ChartRenderer;
}

/** Builds the charts room. */
export function buildCharts(parts: { logger: Logger }): Charts {
  return { renderer: new VegaChartRenderer({ logger: parts.logger }) };
}
