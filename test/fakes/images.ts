/**
 * Real image bytes made with sharp: small flat images (tiny files) and noise (incompressible).
 */
import sharp from 'sharp';
import type { GeneratedImage } from '../../src/core/images.js';

/** A flat-colour PNG of a few hundred bytes at most. */
export async function flatPng(width = 16, height = 16): Promise<GeneratedImage> {
  const bytes = await sharp({ create: { width, height, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
  return { bytes, format: 'png', width, height };
}

/** A PNG of deterministic noise: no encoder gets it small. */
export async function noisyPng(width = 128, height = 128): Promise<GeneratedImage> {
  const raw = Buffer.alloc(width * height * 3);
  let state = 42;
  for (let i = 0; i < raw.length; i += 1) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    raw[i] = state >>> 24;
  }
  const bytes = await sharp(raw, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
  return { bytes, format: 'png', width, height };
}
