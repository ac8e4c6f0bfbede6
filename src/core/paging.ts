/** Pages of a list (/history list, /history favorites): `page` clamped to those there are, at least one. Pure. */

/** One page of `items`, `size` to a page. */
export interface PageOf<T> {
  entries: T[];
  /** 0-based, within [0, pages). */
  page: number;
  pages: number;
  total: number;
}

/** Page `page` (0-based, clamped; a fraction truncated) of `items`. */
export function pageOf<T>(items: readonly T[], page: number, size: number): PageOf<T> {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const at = Math.min(Math.max(0, Math.trunc(page)), pages - 1);
  return { entries: items.slice(at * size, (at + 1) * size), page: at, pages, total: items.length };
}
