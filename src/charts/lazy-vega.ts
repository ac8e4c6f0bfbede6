/**
 * Vega and Vega-Lite loaded when the first chart is drawn, not at start: the idle bot does not carry them (about
 * 30 MB once loaded; issue 28 measures the bot at rest). Every module of src reaches them through here
 * (test/architecture.test.ts), as sharp through src/lazy-sharp.ts.
 */
import type * as Vega from 'vega';
import type * as VegaLite from 'vega-lite';

export type { Loader, ViewOptions } from 'vega';
export type { TopLevelSpec } from 'vega-lite';

/** The two libraries. */
export interface VegaLibraries {
  vega: typeof Vega;
  vegaLite: typeof VegaLite;
}

let loading: Promise<VegaLibraries> | undefined;

/** Vega and Vega-Lite, imported on the first call; the same modules afterwards (a failed import is tried again next time). */
export function loadVega(): Promise<VegaLibraries> {
  loading ??= Promise.all([import('vega'), import('vega-lite')]).then(
    ([vega, vegaLite]) => ({ vega, vegaLite }),
    (err: unknown) => {
      loading = undefined;
      throw err;
    },
  );
  return loading;
}
