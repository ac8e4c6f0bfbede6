/**
 * SVG answers (output_format svg, the gpt-image-2.6 family): a real SVG document, UTF-8 text, of the requested
 * size, drawing what the flat style draws (a colour field and a disc; without the field when transparent).
 */
import type { ImageSpec } from './images.js';

/** An RGB colour. */
export interface Rgb {
  r: number;
  g: number;
  b: number;
}

/** The SVG bytes; a partial image (`partial` = its index) shows the field only, the disc still to come. */
export function svgDocument(spec: Pick<ImageSpec, 'width' | 'height' | 'transparent'>, colour: Rgb, partial?: number): Buffer {
  const { width, height } = spec;
  const field = spec.transparent ? '' : `<rect width="${width}" height="${height}" fill="${hex(colour)}"/>`;
  const inverse = { r: 255 - colour.r, g: 255 - colour.g, b: 255 - colour.b };
  const radius = Math.round(Math.min(width, height) / 3);
  const disc = partial === undefined ? `<circle cx="${width / 2}" cy="${height / 2}" r="${radius}" fill="${hex(inverse)}"/>` : '';
  const svg =
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${field}${disc}</svg>\n`;
  return Buffer.from(svg, 'utf8');
}

function hex({ r, g, b }: Rgb): string {
  return `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}
