/**
 * Text shortened to fit Discord's length limits (message content, modal titles, attachment descriptions), and
 * members' text made inert before the bot shows it.
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

/**
 * A member's text (a prompt) as the bot may show it inside its own message, at most `max` code units: one line (so
 * it cannot start a heading, a list or a `-#` subtext line that imitates the bot's), with every markdown construct
 * escaped, mentions, channels, emoji and timestamps shown as text (`\<@…>`), and links broken so they neither
 * link nor embed. It reads the same; it just formats nothing.
 */
export function inertText(text: string, max: number): string {
  const line = text.replace(/[\r\n\u2028\u2029]+/g, ' ').trim();
  // Escaping only lengthens the text: cut the member's text until its escaped form fits (never mid-escape).
  let room = max;
  for (;;) {
    const escaped = escapeInline(shortenForDiscord(line, room));
    if (escaped.length <= max || room <= 1) return escaped.length <= max ? escaped : '';
    room = Math.min(room - 1, Math.floor((room * max) / escaped.length));
  }
}

/**
 * Every character that starts markdown gets a backslash (Discord hides it and shows the character), so nothing
 * pairs up however the text was cut: emphasis, code, spoilers, strike-through, masked links, mentions and
 * timestamps anywhere, and a heading, list or quote marker at the start. `://` gets a zero-width space, so a URL
 * is shown as text rather than linked.
 */
function escapeInline(text: string): string {
  return text
    .replace(/[\\*_~|`[\]<>]/g, '\\$&')
    .replace(/^([#\-+]|\d+\.)/, '\\$1')
    .replace(/:\/\//g, ':/\u200b/');
}
