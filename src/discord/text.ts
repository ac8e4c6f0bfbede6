/**
 * Text shortened to fit Discord's length limits (message content, modal titles, attachment descriptions).
 */

const ELLIPSIS = '…';

/**
 * Shortens `text` to at most `max` UTF-16 code units, ending with `…` when it had to cut.
 *
 * Lengths are counted in UTF-16 code units, as JavaScript does; Discord's limits count characters, and a
 * string is never longer in characters than in code units, so the result always fits. The cut never splits
 * a surrogate pair, which would leave a lone surrogate that Discord rejects or renders as `�`.
 */
export function shortenForDiscord(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max < ELLIPSIS.length) return '';
  let end = max - ELLIPSIS.length;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end).trimEnd() + ELLIPSIS;
}
