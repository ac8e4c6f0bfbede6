import OpenAI, { toFile } from 'openai';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayEmulator, type GatewayEmulator } from './gateway/index.js';
import { textPath, toFontText, wrap } from './gateway/pixel-font.js';

let gateway: GatewayEmulator;
let client: OpenAI;

beforeEach(async () => {
  gateway = await startGatewayEmulator({ imageStyle: 'illustrated' });
  client = new OpenAI({ apiKey: gateway.apiKey, baseURL: gateway.baseUrl, maxRetries: 0 });
});

afterEach(async () => {
  await gateway.close();
});

async function generate(prompt: string, size = '512x512', n = 1): Promise<Buffer[]> {
  const result = await client.images.generate({ model: 'gpt-image-1', prompt, size, n });
  return (result.data ?? []).map((item) => Buffer.from(item.b64_json ?? '', 'base64'));
}

async function edit(prompt: string, image: Buffer, options: { size?: string; mask?: Buffer } = {}): Promise<Buffer> {
  const result = await client.images.edit({
    model: 'gpt-image-1',
    prompt,
    image: await toFile(image, 'in.png', { type: 'image/png' }),
    size: options.size ?? '512x512',
    ...(options.mask ? { mask: await toFile(options.mask, 'mask.png', { type: 'image/png' }) } : {}),
  });
  return Buffer.from(result.data?.[0]?.b64_json ?? '', 'base64');
}

/** A white disc on black, centred at (cx, cy) of a 512x512 image: strong structure, no colour. */
function disc(cx: number, cy: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512"><rect width="512" height="512" fill="#000"/><circle cx="${cx}" cy="${cy}" r="120" fill="#fff"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Luminance of a region, downscaled to 32x32: what a glance at the picture sees. */
async function glance(bytes: Buffer, region = { left: 0, top: 0, width: 512, height: 512 }): Promise<number[]> {
  const pixels = await sharp(bytes).extract(region).greyscale().resize(32, 32, { fit: 'fill' }).raw().toBuffer();
  return Array.from(pixels);
}

function correlation(a: number[], b: number[]): number {
  const mean = (v: number[]) => v.reduce((sum, x) => sum + x, 0) / v.length;
  const [ma, mb] = [mean(a), mean(b)];
  let [ab, aa, bb] = [0, 0, 0];
  a.forEach((x, i) => {
    const y = b[i] ?? 0;
    ab += (x - ma) * (y - mb);
    aa += (x - ma) ** 2;
    bb += (y - mb) ** 2;
  });
  return ab / Math.sqrt(aa * bb);
}

describe('gateway emulator: illustrated images', () => {
  it('draws different images for different prompts, the same bytes for a repeated one', async () => {
    const [fox] = await generate('a red fox');
    const [whale] = await generate('a blue whale');
    const [foxAgain] = await generate('a red fox');
    expect(fox?.equals(whale ?? Buffer.alloc(0))).toBe(false);
    expect(foxAgain).toEqual(fox);
  });

  it('draws the n images of one answer differently', async () => {
    const images = await generate('tiles', '512x512', 3);
    expect(new Set(images.map((image) => image.toString('base64'))).size).toBe(3);
  });

  it.each(['1536x1024', '1024x1536', '1280x720'])('honours the requested size %s for generations and edits', async (size) => {
    const [generated] = await generate('a lighthouse at dusk', size);
    const [width, height] = size.split('x').map(Number);
    expect(await sharp(generated).metadata()).toMatchObject({ format: 'png', width, height, hasAlpha: false });
    expect(await sharp(await edit('in daylight', await disc(256, 256), { size })).metadata()).toMatchObject({ format: 'png', width, height });
  });

  it('gives a transparent request clear corners', async () => {
    const result = await client.images.generate({ model: 'gpt-image-1', prompt: 'sticker', size: '1024x1024', background: 'transparent' });
    const { data, info } = await sharp(Buffer.from(result.data?.[0]?.b64_json ?? '', 'base64'))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    expect(data[3]).toBe(0);
    expect(data[(512 * info.width + 512) * 4 + 3]).toBe(255);
  });

  it('edits into an image that differs from the reference but is recognisably derived from it', async () => {
    const reference = await disc(150, 150);
    const unrelated = await disc(362, 150);
    const edited = await edit('the same disc in winter', reference);
    expect(edited.equals(reference)).toBe(false);
    // The caption panel covers the bottom of an edit; above it, the picture is the reference recoloured.
    const top = { left: 0, top: 0, width: 512, height: 320 };
    const [seen, original, other] = await Promise.all([glance(edited, top), glance(reference, top), glance(unrelated, top)]);
    expect(correlation(seen, original)).toBeGreaterThan(0.9);
    expect(correlation(seen, other)).toBeLessThan(0.5);
    const colours = await sharp(edited).extract({ left: 130, top: 130, width: 40, height: 40 }).stats();
    expect(colours.isOpaque).toBe(true);
    // White became a tinted colour: the channels no longer agree.
    const [r, g, b] = colours.channels.map((c) => c.mean);
    expect(Math.max(r ?? 0, g ?? 0, b ?? 0) - Math.min(r ?? 0, g ?? 0, b ?? 0)).toBeGreaterThan(20);
  });

  it('changes only the transparent area of the mask', async () => {
    const reference = await disc(256, 150);
    // Transparent (editable) left half, opaque right half.
    const alpha = Buffer.alloc(512 * 512 * 4);
    for (let i = 0; i < 512 * 512; i++) alpha[i * 4 + 3] = i % 512 < 256 ? 0 : 255;
    const mask = await sharp(alpha, { raw: { width: 512, height: 512, channels: 4 } })
      .png()
      .toBuffer();
    const edited = await edit('only the left', reference, { mask });
    const kept = { left: 300, top: 20, width: 200, height: 260 };
    const changed = { left: 12, top: 20, width: 200, height: 260 };
    const difference = async (region: typeof kept) => {
      const [a, b] = await Promise.all([glance(edited, region), glance(reference, region)]);
      return Math.max(...a.map((x, i) => Math.abs(x - (b[i] ?? 0))));
    };
    expect(await difference(kept)).toBeLessThanOrEqual(2);
    expect(await difference(changed)).toBeGreaterThan(40);
  });
});

describe('gateway emulator: pixel font', () => {
  it('has a 5-pixel-wide glyph for every printable ASCII character', () => {
    const ascii = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
    expect(toFontText(ascii)).toBe(ascii);
    for (const char of ascii.slice(1)) {
      const xs = [...textPath(char, 0, 0, 1).matchAll(/M(\d+) \d+h(\d+)/g)].map((m) => Number(m[1]) + Number(m[2]));
      expect(xs.length, char).toBeGreaterThan(0);
      expect(Math.max(...xs), char).toBeLessThanOrEqual(5);
    }
  });

  it('drops accents and replaces what it cannot draw', () => {
    expect(toFontText('Café  crème\n狐')).toBe('Cafe creme ?');
  });

  it('wraps words into lines and ends text that does not fit with an ellipsis', () => {
    expect(wrap('a watercolor fox in a misty forest', 12, 4)).toEqual(['a watercolor', 'fox in a', 'misty forest']);
    expect(wrap('one two three four five six', 9, 2)).toEqual(['one two', 'three…']);
    expect(wrap('abcdefghijkl', 5, 4)).toEqual(['abcde', 'fghij', 'kl']);
    expect(wrap('   ', 5, 4)).toEqual(['']);
  });
});
