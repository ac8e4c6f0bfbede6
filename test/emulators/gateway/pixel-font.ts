/**
 * A built-in 5x9 pixel font (ASCII plus `…` and `·`) drawn as SVG path data, and word wrap in its cells, so the
 * emulator's illustrated images need no system font: librsvg's `<text>` goes through fontconfig, and a machine without
 * fonts (slim containers) renders every letter as a box. Pixel glyphs look the same everywhere and cost no font lookup.
 */

/** Glyph cell: 5 columns, rows 0–6 above the baseline, 7–8 for descenders. */
const COLUMNS = 5;
/** Horizontal distance between two characters, in font pixels. */
export const ADVANCE = 6;
/** Vertical distance between two lines, in font pixels. */
export const LINE_HEIGHT = 11;
/** Rows a line of text occupies (cap height plus descenders), in font pixels. */
export const GLYPH_HEIGHT = 9;

// Rows top to bottom, `#` lit; rows left out are blank.
const GLYPHS: Record<string, string> = {
  ' ': '',
  '!': '..#.. ..#.. ..#.. ..#.. ..#.. ..... ..#..',
  '"': '.#.#. .#.#.',
  '#': '.#.#. .#.#. ##### .#.#. ##### .#.#. .#.#.',
  $: '..#.. .#### #.#.. .###. ..#.# ####. ..#..',
  '%': '##... ##..# ...#. ..#.. .#... #..## ...##',
  '&': '.##.. #..#. #.#.. .#... #.#.# #..#. .##.#',
  "'": '..#.. ..#..',
  '(': '...#. ..#.. .#... .#... .#... ..#.. ...#.',
  ')': '.#... ..#.. ...#. ...#. ...#. ..#.. .#...',
  '*': '..... ..#.. #.#.# .###. #.#.# ..#..',
  '+': '..... ..#.. ..#.. ##### ..#.. ..#..',
  ',': '..... ..... ..... ..... ..... ..... .##.. ..#.. .#...',
  '-': '..... ..... ..... .###.',
  '.': '..... ..... ..... ..... ..... .##.. .##..',
  '/': '..... ....# ...#. ..#.. .#... #....',
  '0': '.###. #...# #..## #.#.# ##..# #...# .###.',
  '1': '..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.',
  '2': '.###. #...# ....# ...#. ..#.. .#... #####',
  '3': '##### ...#. ..#.. ...#. ....# #...# .###.',
  '4': '...#. ..##. .#.#. #..#. ##### ...#. ...#.',
  '5': '##### #.... ####. ....# ....# #...# .###.',
  '6': '..##. .#... #.... ####. #...# #...# .###.',
  '7': '##### ....# ...#. ..#.. .#... .#... .#...',
  '8': '.###. #...# #...# .###. #...# #...# .###.',
  '9': '.###. #...# #...# .#### ....# ...#. .##..',
  ':': '..... .##.. .##.. ..... .##.. .##..',
  ';': '..... .##.. .##.. ..... .##.. .##.. ..#.. .#...',
  '<': '...#. ..#.. .#... #.... .#... ..#.. ...#.',
  '=': '..... ..... ##### ..... #####',
  '>': '.#... ..#.. ...#. ....# ...#. ..#.. .#...',
  '?': '.###. #...# ....# ...#. ..#.. ..... ..#..',
  '@': '.###. #...# ....# .##.# #.#.# #.#.# .###.',
  A: '.###. #...# #...# ##### #...# #...# #...#',
  B: '####. #...# #...# ####. #...# #...# ####.',
  C: '.###. #...# #.... #.... #.... #...# .###.',
  D: '###.. #..#. #...# #...# #...# #..#. ###..',
  E: '##### #.... #.... ####. #.... #.... #####',
  F: '##### #.... #.... ####. #.... #.... #....',
  G: '.###. #...# #.... #.### #...# #...# .####',
  H: '#...# #...# #...# ##### #...# #...# #...#',
  I: '.###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.',
  J: '..### ...#. ...#. ...#. ...#. #..#. .##..',
  K: '#...# #..#. #.#.. ##... #.#.. #..#. #...#',
  L: '#.... #.... #.... #.... #.... #.... #####',
  M: '#...# ##.## #.#.# #.#.# #...# #...# #...#',
  N: '#...# #...# ##..# #.#.# #..## #...# #...#',
  O: '.###. #...# #...# #...# #...# #...# .###.',
  P: '####. #...# #...# ####. #.... #.... #....',
  Q: '.###. #...# #...# #...# #.#.# #..#. .##.#',
  R: '####. #...# #...# ####. #.#.. #..#. #...#',
  S: '.#### #.... #.... .###. ....# ....# ####.',
  T: '##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..',
  U: '#...# #...# #...# #...# #...# #...# .###.',
  V: '#...# #...# #...# #...# #...# .#.#. ..#..',
  W: '#...# #...# #...# #.#.# #.#.# #.#.# .#.#.',
  X: '#...# #...# .#.#. ..#.. .#.#. #...# #...#',
  Y: '#...# #...# .#.#. ..#.. ..#.. ..#.. ..#..',
  Z: '##### ....# ...#. ..#.. .#... #.... #####',
  '[': '.###. .#... .#... .#... .#... .#... .###.',
  '\\': '..... #.... .#... ..#.. ...#. ....#',
  ']': '.###. ...#. ...#. ...#. ...#. ...#. .###.',
  '^': '..#.. .#.#. #...#',
  _: '..... ..... ..... ..... ..... ..... ..... #####',
  '`': '.#... ..#..',
  a: '..... ..... .###. ....# .#### #...# .####',
  b: '#.... #.... #.##. ##..# #...# #...# ####.',
  c: '..... ..... .###. #.... #.... #...# .###.',
  d: '....# ....# .##.# #..## #...# #...# .####',
  e: '..... ..... .###. #...# ##### #.... .###.',
  f: '..##. .#..# .#... ###.. .#... .#... .#...',
  g: '..... ..... .#### #...# #...# #...# .#### ....# .###.',
  h: '#.... #.... #.##. ##..# #...# #...# #...#',
  i: '..#.. ..... .##.. ..#.. ..#.. ..#.. .###.',
  j: '...#. ..... ..##. ...#. ...#. ...#. ...#. #..#. .##..',
  k: '#.... #.... #..#. #.#.. ##... #.#.. #..#.',
  l: '.##.. ..#.. ..#.. ..#.. ..#.. ..#.. .###.',
  m: '..... ..... ##.#. #.#.# #.#.# #.#.# #.#.#',
  n: '..... ..... #.##. ##..# #...# #...# #...#',
  o: '..... ..... .###. #...# #...# #...# .###.',
  p: '..... ..... ####. #...# #...# #...# ####. #.... #....',
  q: '..... ..... .#### #...# #...# #...# .#### ....# ....#',
  r: '..... ..... #.##. ##..# #.... #.... #....',
  s: '..... ..... .#### #.... .###. ....# ####.',
  t: '.#... .#... ###.. .#... .#... .#..# ..##.',
  u: '..... ..... #...# #...# #...# #..## .##.#',
  v: '..... ..... #...# #...# #...# .#.#. ..#..',
  w: '..... ..... #...# #...# #.#.# #.#.# .#.#.',
  x: '..... ..... #...# .#.#. ..#.. .#.#. #...#',
  y: '..... ..... #...# #...# #...# #...# .#### ....# .###.',
  z: '..... ..... ##### ...#. ..#.. .#... #####',
  '{': '...#. ..#.. ..#.. .#... ..#.. ..#.. ...#.',
  '|': '..#.. ..#.. ..#.. ..#.. ..#.. ..#.. ..#.. ..#..',
  '}': '.#... ..#.. ..#.. ...#. ..#.. ..#.. .#...',
  '~': '..... ..... .#... #.#.# ...#.',
  '…': '..... ..... ..... ..... ..... ..... #.#.#',
  '·': '..... ..... ..... ..#..',
};

/** Horizontal runs of lit pixels per glyph, as `[row, firstColumn, length]`, parsed once. */
const RUNS = new Map<string, [number, number, number][]>(Object.entries(GLYPHS).map(([char, rows]) => [char, runsOf(rows)]));

function runsOf(rows: string): [number, number, number][] {
  const runs: [number, number, number][] = [];
  rows.split(' ').forEach((row, y) => {
    for (const match of row.matchAll(/#+/g)) runs.push([y, match.index, match[0].length]);
  });
  return runs;
}

/**
 * Text the font can draw: accents are dropped (é → e), other characters the font lacks become `?`, and runs of
 * whitespace become one space.
 */
export function toFontText(text: string): string {
  const plain = text.normalize('NFKD').replace(/\p{M}/gu, '').replace(/\s+/g, ' ');
  return Array.from(plain, (char) => (RUNS.has(char) ? char : '?')).join('');
}

/** Width in image pixels of `text` (already passed through {@link toFontText}) at `scale` image pixels per font pixel. */
export function textWidth(text: string, scale: number): number {
  return Math.max(0, (Array.from(text).length * ADVANCE - (ADVANCE - COLUMNS)) * scale);
}

/** SVG path data drawing `text` with its top-left corner at (x, y), each font pixel a `scale`-sized square. */
export function textPath(text: string, x: number, y: number, scale: number): string {
  const parts: string[] = [];
  Array.from(text).forEach((char, index) => {
    const left = x + index * ADVANCE * scale;
    for (const [row, column, length] of RUNS.get(char) ?? []) {
      parts.push(`M${left + column * scale} ${y + row * scale}h${length * scale}v${scale}h${-length * scale}z`);
    }
  });
  return parts.join('');
}

/**
 * Greedy word wrap into at most `maxLines` lines of `columns` characters; a word longer than a line is cut, and text
 * that does not fit ends the last line with `…`.
 */
export function wrap(text: string, columns: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.trim().split(' ').filter(Boolean)) {
    let rest = word;
    while (rest.length > 0) {
      const candidate = line ? `${line} ${rest}` : rest;
      if (candidate.length <= columns) {
        line = candidate;
        rest = '';
      } else if (line) {
        lines.push(line);
        line = '';
      } else {
        lines.push(rest.slice(0, columns));
        rest = rest.slice(columns);
      }
      if (lines.length === maxLines) return ellipsise(lines, columns);
    }
  }
  if (line) lines.push(line);
  // A blank prompt still gets its (empty) line, so the layout has something to measure.
  return lines.length > 0 ? lines : [''];
}

function ellipsise(lines: string[], columns: number): string[] {
  const last = lines.pop() ?? '';
  return [...lines, `${last.slice(0, Math.max(0, columns - 1)).trimEnd()}…`];
}
