/**
 * The README's pictures (issue 31), written by `npm run screenshots` (playground/screenshots.ts): both are in docs/,
 * are PNGs about 1000 pixels wide, and stay under 300 KB each.
 */
import { readFileSync, statSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

describe.each(['playground.png', 'result-card.png'])('docs/%s', (name) => {
  const path = new URL(`../../docs/${name}`, import.meta.url);

  it('is a PNG about 1000 pixels wide, under 300 KB', async () => {
    expect(statSync(path).size).toBeLessThan(300 * 1024);
    const { format, width } = await sharp(readFileSync(path)).metadata();
    expect(format).toBe('png');
    expect(width).toBeGreaterThanOrEqual(800);
    expect(width).toBeLessThanOrEqual(1200);
  });
});
