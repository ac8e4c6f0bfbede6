/**
 * The emoji font the transcript page (and the playground) bundles, so emoji look the same on every machine instead of
 * empty boxes where no emoji font is installed: Noto Emoji from `@fontsource/noto-emoji` (SIL Open Font License),
 * split by the package into subsets by unicode range. A page ships only the subsets its text needs.
 *
 * The monochrome Noto Emoji, not Noto Color Emoji: the colour font's web build is COLRv1 only, which Debian's Chromium
 * (and Safari) load but draw nothing with, so emoji would vanish instead of showing as boxes. Outlines draw everywhere.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The family the stylesheet names (transcript-style.ts) and the @font-face rules declare. */
export const EMOJI_FONT_FAMILY = 'Noto Emoji';

/** One subset of the font: its woff2 file and the code points it covers. */
export interface EmojiFontSubset {
  /** The file's name (`noto-emoji-3-400-normal.woff2`). */
  readonly file: string;
  /** Absolute path of the file in the installed package. */
  readonly path: string;
  /** The rule's `unicode-range` as written (`U+1f1e6-1f1ff,U+200d`). */
  readonly unicodeRange: string;
  /** The same as inclusive [first, last] code point pairs. */
  readonly ranges: readonly (readonly [number, number])[];
}

const require = createRequire(import.meta.url);

/** Every subset the package declares (its `400.css`), in its order. */
export function emojiFontSubsets(): EmojiFontSubset[] {
  const css = require.resolve('@fontsource/noto-emoji/400.css');
  const folder = dirname(css);
  const subsets: EmojiFontSubset[] = [];
  for (const rule of readFileSync(css, 'utf8').matchAll(/@font-face\s*{([^}]*)}/g)) {
    const body = rule[1] ?? '';
    const file = /url\(\.\/files\/([^)]+\.woff2)\)/.exec(body)?.[1];
    const unicodeRange = /unicode-range:\s*([^;]+);/.exec(body)?.[1]?.trim();
    if (file === undefined || unicodeRange === undefined) continue;
    subsets.push({ file, path: join(folder, 'files', file), unicodeRange, ranges: parseUnicodeRange(unicodeRange) });
  }
  if (subsets.length === 0) throw new Error(`no @font-face rule with a woff2 file and a unicode-range in ${css}`);
  return subsets;
}

/** `U+23,U+30-39` → [[0x23, 0x23], [0x30, 0x39]]. */
export function parseUnicodeRange(value: string): [number, number][] {
  return value.split(',').map((part) => {
    const [first = '', last = first] = part.trim().replace(/^U\+/i, '').split('-');
    return [Number.parseInt(first, 16), Number.parseInt(last, 16)];
  });
}

/**
 * Below this code point the text fonts draw (digits, `#`, `*`, ©, ®, which the font also has for keycaps): the rules
 * leave it out of their ranges, or a browser whose listed text fonts are all missing would draw digits with the emoji
 * font before falling back.
 */
const FIRST_EMOJI_POINT = 0x2000;

/** The subsets that cover at least one character of `text` the emoji font draws (from U+2000 on). */
export function subsetsFor(text: string, subsets: readonly EmojiFontSubset[] = emojiFontSubsets()): EmojiFontSubset[] {
  const points = new Set<number>();
  for (const char of text) {
    const point = char.codePointAt(0) ?? 0;
    if (point >= FIRST_EMOJI_POINT) points.add(point);
  }
  return subsets.filter((subset) => [...points].some((point) => subset.ranges.some(([first, last]) => point >= first && point <= last)));
}

/** The @font-face rules for `subsets`, each file loaded from `{base}/{file}`, for its code points from U+2000 on. */
export function emojiFontFaces(subsets: readonly EmojiFontSubset[], base: string): string {
  return subsets
    .map((subset) => {
      const ranges = subset.ranges.filter(([, last]) => last >= FIRST_EMOJI_POINT).map(([first, last]) => [Math.max(first, FIRST_EMOJI_POINT), last]);
      const range = ranges.map(([first = 0, last = 0]) => (first === last ? `U+${hex(first)}` : `U+${hex(first)}-${hex(last)}`)).join(',');
      return ranges.length === 0
        ? ''
        : `@font-face { font-family: "${EMOJI_FONT_FAMILY}"; font-style: normal; font-weight: 400; font-display: block; ` +
            `src: url("${base}/${subset.file}") format("woff2"); unicode-range: ${range}; }`;
    })
    .filter((rule) => rule !== '')
    .join('\n');
}

const hex = (point: number) => point.toString(16);
