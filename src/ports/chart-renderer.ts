import type { ChartSpec } from '../core/usage-chart.js';

/** How one chart is drawn: its size in pixels and its time. */
export interface ChartBounds {
  /** The PNG is exactly this size (the drawing is fitted to it). */
  width: number;
  height: number;
  /** The drawing stops (and rejects) once this aborts: its time limit. */
  signal: AbortSignal;
}

/** Draws declarative chart specifications (Vega-Lite) as PNG images. */
export interface ChartRenderer {
  /** The PNG of `spec`, within `bounds`; rejects when the spec cannot be drawn or the time is up. */
  render: (spec: ChartSpec, bounds: ChartBounds) => Promise<Buffer>;
}
