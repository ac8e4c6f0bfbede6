/** The size an SVG document declares, in pixels (svg-sanitise.ts reads it: the bot chooses the size it is drawn at). */
import type { SvgElement } from './svg-document.js';

/** The size of an SVG that declares none (librsvg's and browsers' default is 100%, which means nothing here). */
const DEFAULT_SIDE = 1024;

const UNITS: Readonly<Record<string, number>> = { '': 1, px: 1, pt: 4 / 3, pc: 16, in: 96, cm: 96 / 2.54, mm: 96 / 25.4, em: 16, ex: 8 };

function length(value: string | undefined): number | undefined {
  const match = value === undefined ? null : /^\s*([+]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*(px|pt|pc|in|cm|mm|em|ex)?\s*$/i.exec(value);
  if (!match) return undefined;
  const n = Number(match[1]) * (UNITS[(match[2] ?? '').toLowerCase()] ?? 1);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** Width and height in pixels: as declared, else from the viewBox (keeping its aspect), else 1024 square. */
export function declaredSize(root: SvgElement): { width: number; height: number } {
  const attr = (name: string) => root.attributes.find(([n]) => n === name)?.[1];
  const [, , boxWidth = NaN, boxHeight = NaN, ...extra] = (attr('viewBox') ?? '')
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  const viewBox =
    extra.length === 0 && boxWidth > 0 && boxHeight > 0 && Number.isFinite(boxWidth * boxHeight) ? { width: boxWidth, height: boxHeight } : undefined;
  const width = length(attr('width'));
  const height = length(attr('height'));
  const size = (w: number, h: number) => ({ width: Math.max(1, Math.round(w)), height: Math.max(1, Math.round(h)) });
  if (width !== undefined && height !== undefined) return size(width, height);
  if (width !== undefined) return size(width, viewBox ? (width * viewBox.height) / viewBox.width : width);
  if (height !== undefined) return size(viewBox ? (height * viewBox.width) / viewBox.height : height, height);
  return viewBox ? size(viewBox.width, viewBox.height) : size(DEFAULT_SIDE, DEFAULT_SIDE);
}
