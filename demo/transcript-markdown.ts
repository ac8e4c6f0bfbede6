/**
 * Discord's light markdown as HTML, for the demo's transcript page: bold, italic, underline, strike-through, spoilers,
 * inline code and code blocks, headings, `-# ` subtext, quotes, list items, links, mentions (`<@id>` → @name),
 * channels, custom emoji and timestamps (`<t:…:R>` → a readable date), and backslash escapes (the bot escapes members'
 * prompts that way).
 *
 * Safe by construction: every character of the input either goes through {@link escapeHtml} or is markdown syntax
 * replaced by fixed markup, so no text can become a tag or an attribute.
 */

/** Names that mentions and channel links are shown with. */
export interface MarkdownNames {
  readonly users: ReadonlyMap<string, string>;
  readonly channels: ReadonlyMap<string, string>;
  readonly roles: ReadonlyMap<string, string>;
}

/** Escapes text for use in HTML content and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Renders a message's (or text display's, or embed's) markdown as HTML. */
export function renderMarkdown(text: string, names: MarkdownNames): string {
  const parts: string[] = [];
  // Code blocks first: nothing inside them is markdown, and they span lines.
  const fence = /```(?:[\w+-]*\n)?([\s\S]*?)```/g;
  let at = 0;
  for (const match of text.matchAll(fence)) {
    parts.push(renderLines(text.slice(at, match.index), names));
    parts.push(`<pre class="codeblock"><code>${escapeHtml((match[1] ?? '').replace(/\n$/, ''))}</code></pre>`);
    at = match.index + match[0].length;
  }
  parts.push(renderLines(text.slice(at), names));
  return parts.join('');
}

const BLOCKS: readonly { pattern: RegExp; render: (inner: string) => string }[] = [
  { pattern: /^-# (.*)$/, render: (inner) => `<div class="subtext">${inner}</div>` },
  { pattern: /^### (.*)$/, render: (inner) => `<div class="h3">${inner}</div>` },
  { pattern: /^## (.*)$/, render: (inner) => `<div class="h2">${inner}</div>` },
  { pattern: /^# (.*)$/, render: (inner) => `<div class="h1">${inner}</div>` },
  { pattern: /^> (.*)$/, render: (inner) => `<blockquote>${inner}</blockquote>` },
  { pattern: /^[-*] (.*)$/, render: (inner) => `<div class="li">${inner}</div>` },
];

function renderLines(text: string, names: MarkdownNames): string {
  if (text === '') return '';
  return text
    .split('\n')
    .map((line) => {
      for (const block of BLOCKS) {
        const match = block.pattern.exec(line);
        if (match) return block.render(renderInline(match[1] ?? '', names));
      }
      return line.trim() === '' ? '<div class="blank"></div>' : `<div class="line">${renderInline(line, names)}</div>`;
    })
    .join('');
}

/** One inline rule: a sticky pattern tried at the current position, and its markup. */
interface InlineRule {
  readonly pattern: RegExp;
  readonly render: (match: RegExpExecArray, names: MarkdownNames) => string;
}

const wrap = (tag: string, className?: string) => (m: RegExpExecArray, names: MarkdownNames) =>
  `<${tag}${className ? ` class="${className}"` : ''}>${renderInline(m[1] ?? '', names)}</${tag}>`;

const link = (label: string, href: string) => `<a href="${escapeHtml(href)}" rel="noreferrer noopener" target="_blank">${label}</a>`;

// Order matters where two rules start alike: ** before *, __ before _.
const INLINE: readonly InlineRule[] = [
  { pattern: /\\([^\sA-Za-z0-9])/y, render: (m) => escapeHtml(m[1] ?? '') },
  { pattern: /(`+)([\s\S]*?[^`])\1(?!`)/y, render: (m) => `<code>${escapeHtml((m[2] ?? '').trim())}</code>` },
  { pattern: /<@!?(\d+)>/y, render: (m, names) => `<span class="mention">@${escapeHtml(names.users.get(m[1] ?? '') ?? 'unknown-user')}</span>` },
  { pattern: /<@&(\d+)>/y, render: (m, names) => `<span class="mention">@${escapeHtml(names.roles.get(m[1] ?? '') ?? 'unknown-role')}</span>` },
  { pattern: /<#(\d+)>/y, render: (m, names) => `<span class="mention">#${escapeHtml(names.channels.get(m[1] ?? '') ?? 'unknown')}</span>` },
  { pattern: /<t:(-?\d{1,13})(?::([tTdDfFsSR]))?>/y, render: (m) => renderTimestamp(Number(m[1]), m[2] ?? 'f') },
  { pattern: /<a?:(\w{2,32}):\d+>/y, render: (m) => `<span class="emoji">:${escapeHtml(m[1] ?? '')}:</span>` },
  { pattern: /\*\*([\s\S]+?)\*\*(?!\*)/y, render: wrap('strong') },
  { pattern: /__([\s\S]+?)__(?!_)/y, render: wrap('u') },
  { pattern: /\*([^\s*](?:[\s\S]*?[^\s*])?)\*/y, render: wrap('em') },
  { pattern: /_([^\s_](?:[\s\S]*?[^\s_])?)_(?![A-Za-z0-9])/y, render: wrap('em') },
  { pattern: /~~([\s\S]+?)~~/y, render: wrap('s') },
  { pattern: /\|\|([\s\S]+?)\|\|/y, render: wrap('span', 'spoiler') },
  { pattern: /\[([^\][]+)\]\((https?:\/\/[^\s)<>]+)\)/y, render: (m, names) => link(renderInline(m[1] ?? '', names), m[2] ?? '') },
  { pattern: /https?:\/\/[^\s<>]*[^\s<>.,:;"')\]]/y, render: (m) => link(escapeHtml(m[0]), m[0]) },
];

/** Inline markdown of one line (or of the inside of an emphasis) as HTML. */
export function renderInline(text: string, names: MarkdownNames): string {
  let html = '';
  let plain = '';
  let at = 0;
  outer: while (at < text.length) {
    for (const rule of INLINE) {
      rule.pattern.lastIndex = at;
      const match = rule.pattern.exec(text);
      if (!match) continue;
      html += escapeHtml(plain) + rule.render(match, names);
      plain = '';
      at += match[0].length;
      continue outer;
    }
    plain += text[at] ?? '';
    at += 1;
  }
  return html + escapeHtml(plain);
}

const TIMESTAMP_FORMATS: Record<string, Intl.DateTimeFormatOptions> = {
  t: { hour: '2-digit', minute: '2-digit' },
  T: { hour: '2-digit', minute: '2-digit', second: '2-digit' },
  d: { day: '2-digit', month: '2-digit', year: 'numeric' },
  D: { day: 'numeric', month: 'long', year: 'numeric' },
  f: { day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit' },
  F: { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit' },
  s: { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' },
  S: { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' },
  // Discord counts relative times live ("12 seconds ago"); a saved page cannot, so it shows the moment itself.
  R: { day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' },
};

/** `<t:seconds:style>` as a readable UTC date, with the exact instant in `datetime`. */
function renderTimestamp(seconds: number, style: string): string {
  const date = new Date(seconds * 1000);
  if (Number.isNaN(date.getTime())) return '<span class="timestamp">Invalid Date</span>';
  const text = new Intl.DateTimeFormat('en-GB', { ...TIMESTAMP_FORMATS[style], timeZone: 'UTC' }).format(date);
  return `<time class="timestamp" datetime="${date.toISOString()}" title="${date.toUTCString()}">${escapeHtml(text)} UTC</time>`;
}
