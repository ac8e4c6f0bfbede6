/**
 * The 'illustrated' image style: pictures that show what was asked, for the demo. A generation is a gradient with
 * soft discs behind the prompt's words; an edit is its first input image at the output size, hue-rotated and tinted
 * (only under the mask's transparent area when a mask came), with the edit prompt over it. Both carry a
 * GENERATED/EDIT badge, the variant number, the size and the model, in the built-in pixel font.
 */
import sharp, { type Sharp } from 'sharp';
import type { ImageSpec } from './images.js';
import { GLYPH_HEIGHT, LINE_HEIGHT, textPath, textWidth, toFontText, wrap } from './pixel-font.js';

/** What an illustrated image shows. */
export interface Scene {
  kind: 'generation' | 'edit';
  prompt: string;
  model: string;
  /** Images in the answer (the `n` of the request). */
  count: number;
  /** The first input image of an edit. */
  reference?: Buffer | undefined;
  /** The edit's mask: its transparent area is what changes. */
  mask?: Buffer | undefined;
  /** Identifies the scene in the image cache: a digest of everything above. */
  key: string;
}

// Drawn for an illustrated spec that carries no scene.
const UNTITLED: Scene = { kind: 'generation', prompt: '', model: '', count: 1, key: '000000' };
const MAX_PROMPT_LINES = 4;
/** Prompt characters per line the layout aims for; the scale follows from it. */
const TARGET_COLUMNS = 24;

/** The un-encoded picture of an illustrated spec: RGB, or RGBA when the spec asks for transparency. */
export async function illustrate(spec: ImageSpec): Promise<Sharp> {
  const scene = spec.scene ?? UNTITLED;
  const overlay = Buffer.from(overlaySvg(spec, scene));
  const image =
    scene.kind === 'edit' && scene.reference
      ? sharp(await editedPixels(spec, scene, scene.reference), { raw: raw(spec) })
      : sharp(Buffer.from(backgroundSvg(spec, scene)));
  // sharp composites after every other operation of a pipeline, so the alpha is settled in a second one.
  const { data, info } = await image
    .composite([{ input: overlay }])
    .raw()
    .toBuffer({ resolveWithObject: true });
  const composed = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  return spec.transparent ? composed.ensureAlpha() : composed.flatten({ background: '#ffffff' });
}

function raw(spec: ImageSpec): { width: number; height: number; channels: 3 | 4 } {
  return { width: spec.width, height: spec.height, channels: spec.transparent ? 4 : 3 };
}

/** The reference at the output size, recoloured and softened; under a mask, only where the mask is transparent. */
async function editedPixels(spec: ImageSpec, scene: Scene, reference: Buffer): Promise<Buffer> {
  const { width, height, channels } = raw(spec);
  const resized = sharp(reference).resize(width, height, { fit: 'cover' }).toColourspace('srgb');
  const base = await (channels === 4 ? resized.ensureAlpha() : resized.flatten({ background: '#ffffff' })).raw().toBuffer();
  const tint = hexToRgb(paletteOf(scene, spec.variant).dark).map((value) => 0.3 * value);
  // 70% the hue-rotated reference plus 30% the variant's tint; blurred a little so the reference's own lettering
  // recedes behind the edit's. A matrix, not modulate(): a tenth of the time.
  const recoloured = sharp(base, { raw: { width, height, channels } })
    .recomb(hueRotation(180 + 60 * spec.variant, 0.7))
    .linear(channels === 4 ? [1, 1, 1, 1] : [1, 1, 1], channels === 4 ? [...tint, 0] : tint);
  const sigma = Math.min(width, height) / 512;
  const edited = await (sigma >= 0.3 ? recoloured.blur(sigma) : recoloured).raw().toBuffer();
  if (!scene.mask) return edited;
  // OpenAI's mask: fully transparent pixels mark where the image may change.
  const keep = await sharp(scene.mask).resize(width, height, { fit: 'fill' }).ensureAlpha().extractChannel(3).raw().toBuffer();
  const out = Buffer.alloc(base.length);
  for (let pixel = 0, i = 0; pixel < width * height; pixel++) {
    const weight = (keep[pixel] ?? 0) / 255;
    for (let c = 0; c < channels; c++, i++) out[i] = Math.round((base[i] ?? 0) * weight + (edited[i] ?? 0) * (1 - weight));
  }
  return out;
}

/** The RGB matrix turning hues by `degrees` (CSS hue-rotate), times `gain`. */
function hueRotation(degrees: number, gain: number): [[number, number, number], [number, number, number], [number, number, number]] {
  const cos = Math.cos((degrees * Math.PI) / 180);
  const sin = Math.sin((degrees * Math.PI) / 180);
  const row = (a: number, b: number, c: number) => [a * gain, b * gain, c * gain] as [number, number, number];
  return [
    row(0.213 + cos * 0.787 - sin * 0.213, 0.715 - cos * 0.715 - sin * 0.715, 0.072 - cos * 0.072 + sin * 0.928),
    row(0.213 - cos * 0.213 + sin * 0.143, 0.715 + cos * 0.285 + sin * 0.14, 0.072 - cos * 0.072 - sin * 0.283),
    row(0.213 - cos * 0.213 - sin * 0.787, 0.715 - cos * 0.715 + sin * 0.715, 0.072 + cos * 0.928 + sin * 0.072),
  ];
}

/** A diagonal gradient in the scene's colours with soft discs placed by a seeded generator. */
function backgroundSvg(spec: ImageSpec, scene: Scene): string {
  const { width, height } = spec;
  const palette = paletteOf(scene, spec.variant);
  const random = seededRandom(`${scene.key} ${spec.variant}`);
  const short = Math.min(width, height);
  const discs = Array.from({ length: 9 }, () => {
    const r = short * (0.06 + random() * 0.22);
    return `<circle cx="${(random() * width).toFixed(1)}" cy="${(random() * height).toFixed(1)}" r="${r.toFixed(1)}" fill="#ffffff" fill-opacity="${(0.06 + random() * 0.14).toFixed(2)}"/>`;
  });
  // A transparent request gets a sticker: the gradient and discs on a rounded card, clear around it.
  const inset = spec.transparent ? Math.round(short * 0.03) : 0;
  const radius = spec.transparent ? Math.round(short * 0.08) : 0;
  const card = `<rect x="${inset}" y="${inset}" width="${width - 2 * inset}" height="${height - 2 * inset}" rx="${radius}"/>`;
  const gradient = `<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${palette.light}"/><stop offset="1" stop-color="${palette.dark}"/></linearGradient>`;
  return svg(spec, [
    `<defs>${gradient}<clipPath id="card">${card}</clipPath></defs>`,
    `<g clip-path="url(#card)"><rect width="${width}" height="${height}" fill="url(#bg)"/>${discs.join('')}</g>`,
  ]);
}

/** Sizes of one image's lettering, in image pixels. */
interface Layout {
  width: number;
  height: number;
  margin: number;
  /** Pixels per font pixel of the prompt. */
  scale: number;
  /** Pixels per font pixel of the labels. */
  small: number;
  /** Height of a label pill. */
  pill: number;
  /** Prompt characters per line. */
  columns: number;
}

function layoutOf(spec: ImageSpec): Layout {
  const { width, height } = spec;
  const margin = Math.max(1, Math.round(Math.min(width, height) * 0.05));
  const scale = Math.max(1, Math.floor(Math.min((width - 2 * margin) / (TARGET_COLUMNS * 6), height / 60)));
  const small = Math.max(1, Math.round(scale * 0.7));
  const columns = Math.max(1, Math.floor((width - 2 * margin - 4 * scale) / (6 * scale)));
  return { width, height, margin, scale, small, pill: (GLYPH_HEIGHT + 4) * small, columns };
}

/** The labels both kinds of image carry. */
interface Labels {
  /** `2/4`: which of the answer's images this is. */
  counter: string;
  /** `1024x1024 · gpt-image-1`. */
  details: string;
  palette: { light: string; dark: string };
}

/** GENERATED or EDIT badge, variant counter, the prompt (centred for a generation, in a caption panel for an edit), size and model. */
function overlaySvg(spec: ImageSpec, scene: Scene): string {
  const layout = layoutOf(spec);
  const labels = {
    counter: `${spec.variant + 1}/${scene.count}`,
    details: toFontText(`${spec.width}x${spec.height} · ${scene.model}`),
    palette: paletteOf(scene, spec.variant),
  };
  return svg(spec, scene.kind === 'edit' ? editOverlay(scene, layout, labels) : generationOverlay(scene, layout, labels));
}

function generationOverlay(scene: Scene, l: Layout, labels: Labels): string[] {
  const footerTop = l.height - l.margin - l.pill;
  const room = footerTop - (l.margin + l.pill) - 2 * l.margin - 4 * l.scale;
  const lines = wrap(toFontText(scene.prompt), l.columns, Math.max(1, Math.min(MAX_PROMPT_LINES, Math.floor(room / (LINE_HEIGHT * l.scale)))));
  const cardHeight = lines.length * LINE_HEIGHT * l.scale + 2 * l.scale;
  const cardWidth = Math.max(...lines.map((line) => textWidth(line, l.scale))) + 4 * l.scale;
  const cardTop = Math.round((l.height - cardHeight) / 2);
  return [
    pill('GENERATED', l.margin, l.margin, l.small, '#ffffff', labels.palette.dark),
    pill(labels.counter, counterLeft(l, labels.counter), l.margin, l.small, labels.palette.dark, '#ffffff'),
    pill(labels.details, l.margin, footerTop, l.small, '#000000', '#ffffff', 0.55),
    `<rect x="${Math.round((l.width - cardWidth) / 2)}" y="${cardTop}" width="${cardWidth}" height="${cardHeight}" rx="${2 * l.scale}" fill="#000000" fill-opacity="0.45"/>`,
    promptText(lines, cardTop + 2 * l.scale, l),
  ];
}

/** One panel across the bottom, so an edited image's own labels (a generated reference has some) stay clear of it. */
function editOverlay(scene: Scene, l: Layout, labels: Labels): string[] {
  const lines = wrap(toFontText(scene.prompt), l.columns, Math.max(1, Math.min(MAX_PROMPT_LINES, Math.floor((l.height * 0.4) / (LINE_HEIGHT * l.scale)))));
  const step = Math.max(1, Math.round(l.margin / 2));
  const top = l.height - (3 * step + l.pill + lines.length * LINE_HEIGHT * l.scale);
  const detailsLeft = l.margin + textWidth('EDIT', l.small) + 8 * l.small;
  return [
    `<rect x="0" y="${top}" width="${l.width}" height="${l.height - top}" fill="#000000" fill-opacity="0.85"/>`,
    pill('EDIT', l.margin, top + step, l.small, '#ffffff', labels.palette.dark, 1),
    `<path d="${textPath(labels.details, detailsLeft, top + step + 2 * l.small, l.small)}" fill="#ffffff"/>`,
    pill(labels.counter, counterLeft(l, labels.counter), top + step, l.small, labels.palette.light, '#000000', 1),
    promptText(lines, top + 2 * step + l.pill, l),
  ];
}

/** Where a right-aligned counter pill starts. */
function counterLeft(l: Layout, counter: string): number {
  return l.width - l.margin - textWidth(counter, l.small) - 4 * l.small;
}

/** Centred white lines with a drop shadow. */
function promptText(lines: string[], top: number, l: Layout): string {
  const text = lines.map((line, i) => textPath(line, Math.round((l.width - textWidth(line, l.scale)) / 2), top + i * LINE_HEIGHT * l.scale, l.scale)).join('');
  const shadow = Math.max(1, Math.round(l.scale / 2));
  return `<path d="${text}" fill="#000000" fill-opacity="0.5" transform="translate(${shadow} ${shadow})"/><path d="${text}" fill="#ffffff"/>`;
}

/** Text on a rounded label. */
function pill(text: string, x: number, y: number, scale: number, background: string, colour: string, opacity = 0.85): string {
  const pad = 2 * scale;
  const box = `<rect x="${x}" y="${y}" width="${textWidth(text, scale) + 2 * pad}" height="${GLYPH_HEIGHT * scale + 2 * pad}" rx="${pad}" fill="${background}" fill-opacity="${opacity}"/>`;
  return `${box}<path d="${textPath(text, x + pad, y + pad, scale)}" fill="${colour}"/>`;
}

function svg(spec: ImageSpec, parts: string[]): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${spec.width}" height="${spec.height}" viewBox="0 0 ${spec.width} ${spec.height}">${parts.join('')}</svg>`;
}

/** Two colours from the prompt's digest, turned round the colour wheel per variant so the n images differ. */
function paletteOf(scene: Scene, variant: number): { light: string; dark: string } {
  const hue = (Number.parseInt(scene.key.slice(0, 6), 16) + variant * 97) % 360;
  return { light: hslToHex(hue, 0.65, 0.62), dark: hslToHex((hue + 40) % 360, 0.6, 0.28) };
}

function hslToHex(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return `#${[0, 8, 4].map((n) => channel(n).toString(16).padStart(2, '0')).join('')}`;
}

function hexToRgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** xorshift32 seeded from a string, so a scene always gets the same layout. */
function seededRandom(seed: string): () => number {
  let state = 2166136261;
  for (const char of seed) state = Math.imul(state ^ char.charCodeAt(0), 16777619) >>> 0;
  state ||= 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}
