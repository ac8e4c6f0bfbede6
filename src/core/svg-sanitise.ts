/**
 * Makes a model's SVG safe to render and to post (issue 28). The document is read strictly (svg-document.ts) and
 * written again from an allow-list: only elements that draw (shapes, text, gradients, patterns, clips, masks,
 * markers, filters and their primitives) with their attributes survive. Removed: `<image>`, `<feImage>`,
 * `<script>`, `<foreignObject>`, animation, fonts, every `data:` and `javascript:` value, every reference to
 * anything but a local `#id` (href, xlink:href, url(...)), and style sheets or style attributes that could load
 * anything. So the rendering loads nothing, and the original posted beside it cannot act as a tracking pixel in a
 * browser. Filters are bounded: numOctaves, stdDeviation and morphology radii clamped, more primitives than
 * {@link SVG_LIMITS}.filterPrimitives, a convolution kernel over 5x5, or more elements than allowed once every
 * `<use>` is expanded, and the document is refused. Pure: no I/O, no sharp.
 */
import { readSvg, SvgDocumentError, writeSvg, type SvgElement, type SvgNode } from './svg-document.js';
import { declaredSize } from './svg-size.js';

/** What a document may hold; beyond these it is refused (or, for filter parameters, clamped). */
export const SVG_LIMITS = {
  /** The document's bytes. */
  bytes: 4 * 1024 * 1024,
  /** Elements as written, and as rendered once every `<use>` is expanded. */
  elements: 10_000,
  depth: 64,
  /** Filter primitives (`<fe…>` that compute a result) in the whole document. */
  filterPrimitives: 32,
  numOctaves: 4,
  stdDeviation: 100,
  morphologyRadius: 10,
  convolveOrder: 5,
} as const;

/** What a sanitised document lost or had changed, for the member's note. */
export interface SvgChanges {
  /** Embedded or linked images, scripts, foreign content, animation, external references. */
  removed: boolean;
  /** Filter parameters clamped. */
  simplified: boolean;
}

/** A sanitised SVG: its text, its declared size in pixels, whether it has filters, and what was changed. */
export interface SanitisedSvg {
  root: SvgElement;
  text: string;
  width: number;
  height: number;
  filtered: boolean;
  changes: SvgChanges;
}

/** Why an SVG was refused (too large, malformed, too many elements or filter primitives). */
export class SvgRefusedError extends Error {
  override readonly name = 'SvgRefusedError';
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';

const PRIMITIVES = new Set([
  'feBlend',
  'feColorMatrix',
  'feComponentTransfer',
  'feComposite',
  'feConvolveMatrix',
  'feDiffuseLighting',
  'feDisplacementMap',
  'feDropShadow',
  'feFlood',
  'feGaussianBlur',
  'feMerge',
  'feMorphology',
  'feOffset',
  'feSpecularLighting',
  'feTile',
  'feTurbulence',
]);

/** Elements kept (with their allowed attributes); any other element is removed with everything inside it. */
const ELEMENTS = new Set([
  'svg',
  'g',
  'defs',
  'symbol',
  'use',
  'title',
  'desc',
  'switch',
  'a',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'textPath',
  'linearGradient',
  'radialGradient',
  'stop',
  'pattern',
  'clipPath',
  'mask',
  'marker',
  'filter',
  'style',
  'feFuncR',
  'feFuncG',
  'feFuncB',
  'feFuncA',
  'feMergeNode',
  'feDistantLight',
  'fePointLight',
  'feSpotLight',
  ...PRIMITIVES,
]);

/** Elements removed without a word: they draw nothing and load nothing. */
const SILENT = new Set(['metadata', 'sodipodi:namedview']);

const LOCAL_REF = /^#[A-Za-z_][-\w.:]*$/;

/**
 * Reads and sanitises `bytes`.
 * @throws SvgRefusedError when the document cannot be read or passes a limit of {@link SVG_LIMITS}
 */
export function sanitiseSvg(bytes: Uint8Array): SanitisedSvg {
  let root: SvgElement;
  try {
    root = readSvg(bytes, { maxBytes: SVG_LIMITS.bytes, maxElements: SVG_LIMITS.elements, maxDepth: SVG_LIMITS.depth });
  } catch (err) {
    if (err instanceof SvgDocumentError) throw new SvgRefusedError(err.message, { cause: err });
    throw err;
  }
  const changes: SvgChanges = { removed: false, simplified: false };
  const counts = { primitives: 0 };
  const clean = cleanElement(root, changes, counts);
  if (counts.primitives > SVG_LIMITS.filterPrimitives) throw new SvgRefusedError(`more than ${SVG_LIMITS.filterPrimitives} filter primitives`);
  checkExpansion(clean);
  ensureNamespaces(clean);
  const { width, height } = declaredSize(clean);
  return { root: clean, text: writeSvg(clean), width, height, filtered: counts.primitives > 0, changes };
}

/** The size an SVG declares in pixels (width and height, else its viewBox, else 1024 square), or undefined when unreadable. */
export function svgDeclaredSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  try {
    return declaredSize(readSvg(bytes, { maxBytes: SVG_LIMITS.bytes, maxElements: SVG_LIMITS.elements, maxDepth: SVG_LIMITS.depth }));
  } catch {
    return undefined;
  }
}

/**
 * The document drawn at `width` x `height` pixels: the root's width and height replaced, and a viewBox of its
 * declared size added when it had none, so everything is scaled rather than cropped.
 */
export function resizedSvg(svg: SanitisedSvg, width: number, height: number): string {
  const attributes = svg.root.attributes.filter(([name]) => name !== 'width' && name !== 'height');
  if (!attributes.some(([name]) => name === 'viewBox')) attributes.push(['viewBox', `0 0 ${svg.width} ${svg.height}`]);
  attributes.push(['width', String(width)], ['height', String(height)]);
  return writeSvg({ ...svg.root, attributes });
}

function cleanElement(element: SvgElement, changes: SvgChanges, counts: { primitives: number }): SvgElement {
  const children: SvgNode[] = [];
  for (const child of element.children) {
    if (typeof child === 'string') {
      children.push(child);
      continue;
    }
    if (!ELEMENTS.has(child.name)) {
      if (!SILENT.has(child.name)) changes.removed = true;
      continue;
    }
    if (child.name === 'style') {
      const css = child.children.filter((c): c is string => typeof c === 'string').join('');
      const safe = safeCss(css);
      if (safe === undefined || child.children.some((c) => typeof c !== 'string')) changes.removed = true;
      else children.push({ name: 'style', attributes: cleanAttributes(child, changes), children: [safe] });
      continue;
    }
    if (PRIMITIVES.has(child.name)) counts.primitives += 1;
    children.push(cleanElement(child, changes, counts));
  }
  return { name: element.name, attributes: cleanAttributes(element, changes), children };
}

function cleanAttributes(element: SvgElement, changes: SvgChanges): [string, string][] {
  const kept: [string, string][] = [];
  for (const [name, value] of element.attributes) {
    const cleaned = cleanAttribute(element.name, name, value, changes);
    if (cleaned === undefined) changes.removed = true;
    else kept.push([name, cleaned]);
  }
  return kept;
}

/** The attribute's value to keep (clamped for filter parameters), or undefined to remove it. */
function cleanAttribute(element: string, name: string, value: string, changes: SvgChanges): string | undefined {
  if (name === 'xmlns') return value === SVG_NS ? value : undefined;
  if (name === 'xmlns:xlink') return value === XLINK_NS ? value : undefined;
  if (name === 'href' || name === 'xlink:href') return LOCAL_REF.test(value.trim()) ? value.trim() : undefined;
  if (name.includes(':') && name !== 'xml:space' && name !== 'xml:lang') return undefined;
  if (/^on/i.test(name)) return undefined;
  // Browsers skip whitespace and control characters inside a URL's scheme (`da\tta:`): so does this check.
  // eslint-disable-next-line no-control-regex -- control characters are what it removes
  const squeezed = value.replace(/[\s\u0000-\u001f]+/g, '').toLowerCase();
  if (squeezed.includes('data:') || squeezed.includes('javascript:')) return undefined;
  if (name === 'style') return safeCss(value);
  if (!urlsAreLocal(value)) return undefined;
  return clampFilterParameter(element, name, value, changes);
}

function clampFilterParameter(element: string, name: string, value: string, changes: SvgChanges): string {
  const clamp = (max: number, integer: boolean): string => {
    const numbers = value
      .trim()
      .split(/[\s,]+/)
      .map(Number);
    if (numbers.some((n) => !Number.isFinite(n))) return value;
    const clamped = numbers.map((n) => Math.min(Math.max(integer ? Math.floor(n) : n, 0), max));
    if (clamped.some((n, i) => n !== numbers[i])) changes.simplified = true;
    return clamped.join(' ');
  };
  if (element === 'feTurbulence' && name === 'numOctaves') return clamp(SVG_LIMITS.numOctaves, true);
  if ((element === 'feGaussianBlur' || element === 'feDropShadow') && name === 'stdDeviation') return clamp(SVG_LIMITS.stdDeviation, false);
  if (element === 'feMorphology' && name === 'radius') return clamp(SVG_LIMITS.morphologyRadius, false);
  if (element === 'feConvolveMatrix' && name === 'order') {
    const orders = value
      .trim()
      .split(/[\s,]+/)
      .map(Number);
    if (orders.some((n) => !(n <= SVG_LIMITS.convolveOrder)))
      throw new SvgRefusedError(`a convolution kernel over ${SVG_LIMITS.convolveOrder}x${SVG_LIMITS.convolveOrder}`);
  }
  return value;
}

/** Every url(...) in the value points at a local #id. */
function urlsAreLocal(value: string): boolean {
  const urls = value.match(/url\s*\(([^)]*)\)?/gi) ?? [];
  return urls.every((url) => {
    const inner = /url\s*\(\s*(['"]?)(.*?)\1\s*\)$/is.exec(url);
    return inner !== null && LOCAL_REF.test(inner[2] ?? '');
  });
}

/**
 * CSS that loads nothing, comments removed; undefined when it could: an at-rule (@import, @font-face), an escape
 * (which could spell url), a resource function other than url(#id) (image-set, image, src, cross-fade, element).
 */
function safeCss(css: string): string | undefined {
  const plain = css.replace(/\/\*[\s\S]*?(\*\/|$)/g, ' ');
  if (/[@\\]/.test(plain)) return undefined;
  if (/(image-set|image|src|cross-fade|element)\s*\(/i.test(plain)) return undefined;
  const squeezed = plain.replace(/\s+/g, '').toLowerCase();
  if (squeezed.includes('data:') || squeezed.includes('javascript:') || squeezed.includes('expression(')) return undefined;
  return urlsAreLocal(plain) ? plain : undefined;
}

/**
 * Refuses a document whose `<use>` elements, expanded, would draw more than the element limit (a few nested
 * `<use>` of groups of `<use>` multiply), or refer to themselves.
 */
function checkExpansion(root: SvgElement): void {
  const byId = new Map<string, SvgElement>();
  const index = (element: SvgElement): void => {
    const id = element.attributes.find(([name]) => name === 'id')?.[1];
    if (id !== undefined && !byId.has(id)) byId.set(id, element);
    for (const child of element.children) if (typeof child !== 'string') index(child);
  };
  index(root);
  const sizes = new Map<SvgElement, number>();
  const visiting = new Set<SvgElement>();
  const size = (element: SvgElement): number => {
    const known = sizes.get(element);
    if (known !== undefined) return known;
    if (visiting.has(element)) throw new SvgRefusedError('a <use> that refers to itself');
    visiting.add(element);
    let total = 1;
    if (element.name === 'use') {
      const href = element.attributes.find(([name]) => name === 'href' || name === 'xlink:href')?.[1];
      const target = href === undefined ? undefined : byId.get(href.slice(1));
      if (target) total += size(target);
    }
    for (const child of element.children) if (typeof child !== 'string') total += size(child);
    visiting.delete(element);
    if (total > SVG_LIMITS.elements) throw new SvgRefusedError(`more than ${SVG_LIMITS.elements} elements once expanded`);
    sizes.set(element, total);
    return total;
  };
  size(root);
}

function ensureNamespaces(root: SvgElement): void {
  if (!root.attributes.some(([name]) => name === 'xmlns')) root.attributes.unshift(['xmlns', SVG_NS]);
  const usesXlink = (element: SvgElement): boolean =>
    element.attributes.some(([name]) => name === 'xlink:href') || element.children.some((c) => typeof c !== 'string' && usesXlink(c));
  if (usesXlink(root) && !root.attributes.some(([name]) => name === 'xmlns:xlink')) root.attributes.push(['xmlns:xlink', XLINK_NS]);
}
