/**
 * Images as Discord can show them. PNG, JPEG, WebP and GIF (animated too) are shown as they are; an SVG is not
 * shown at all, so it is rendered to a PNG (librsvg through sharp, which loads nothing the document links to) and
 * the original is posted beside it.
 */
import sharp from 'sharp';
import type { GeneratedImage } from './ports.js';

/** The rendering's long side when the SVG says nothing larger: as large as a standard image. */
const MIN_LONG_SIDE = 1024;
/** And at most this, however large the SVG says it is. */
const MAX_LONG_SIDE = 4096;
/** librsvg's own resolution: an SVG's sizes are rendered at this many pixels per inch. */
const SVG_DPI = 72;

/** The image to show, and for an SVG its original. */
export interface Displayable {
  image: GeneratedImage;
  original?: GeneratedImage | undefined;
}

/** Renders an SVG to PNG (its long side between 1024 and 4096 pixels); anything else is returned as it is. */
export async function displayable(image: GeneratedImage): Promise<Displayable> {
  if (image.format !== 'svg') return { image };
  const longSide = Math.max(image.width, image.height, 1);
  const target = Math.min(Math.max(longSide, MIN_LONG_SIDE), MAX_LONG_SIDE);
  const { data, info } = await sharp(image.bytes, { density: (SVG_DPI * target) / longSide, limitInputPixels: MAX_LONG_SIDE * MAX_LONG_SIDE })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { image: { bytes: data, format: 'png', width: info.width, height: info.height }, original: image };
}
