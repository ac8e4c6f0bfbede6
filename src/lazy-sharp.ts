/**
 * sharp (libvips and its native threads) loaded when an image is first read, not at start: the idle bot does not
 * carry it (docs/benchmarks.md, "Light at rest"). Every module of src reaches sharp through here
 * (test/architecture.test.ts); the SVG render child resolves it on its own (svg-rasterise.ts).
 */
import type sharp from 'sharp';

export type { Metadata, Sharp } from 'sharp';

let loading: Promise<typeof sharp> | undefined;

/** sharp's factory, imported on the first call; the same module afterwards. */
export function loadSharp(): Promise<typeof sharp> {
  loading ??= import('sharp').then((module) => {
    // libvips' operation cache (up to 50 MB) keeps results for a pipeline run again on the same input; the bot
    // never runs one twice, so the cache would only hold memory.
    module.default.cache(false);
    return module.default;
  });
  return loading;
}
