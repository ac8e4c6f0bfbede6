/**
 * The transcript page's bundled emoji font (demo/transcript-font.ts, issue 31): the page names Noto Color Emoji in its
 * stylesheet, declares @font-face rules only for the subsets its text needs, and each rule's file is there next to
 * the page, a real woff2 font. (The browser test, transcript-browser.test.ts, checks that an emoji then draws in colour.)
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { MessageType, type APIMessage } from 'discord-api-types/v10';
import { afterAll, describe, expect, it } from 'vitest';
import { EMOJI_FONT_FAMILY, emojiFontSubsets, parseUnicodeRange, subsetsFor } from '../../demo/transcript-font.js';
import { writeTranscript } from '../../demo/transcript-files.js';

const BOT = { id: '1000000000000000001', username: 'imagine-bot', discriminator: '0', global_name: null, avatar: null, bot: true };
const CHANNEL = '1000000000000000010';

function message(content: string): APIMessage {
  return {
    id: '1000000000000000100',
    type: MessageType.Default,
    channel_id: CHANNEL,
    author: BOT,
    content,
    embeds: [],
    components: [],
    attachments: [],
    mentions: [],
    mention_roles: [],
    mention_everyone: false,
    pinned: false,
    tts: false,
    timestamp: '2026-06-01T12:00:00.000Z',
    edited_timestamp: null,
  };
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function written(content: string) {
  const dir = mkdtempSync(join(tmpdir(), 'imagine-font-'));
  dirs.push(dir);
  const names = { users: new Map<string, string>(), channels: new Map([[CHANNEL, 'general']]), roles: new Map<string, string>() };
  const result = await writeTranscript(dir, { title: 'font', messages: [message(content)], names, commands: new Map() });
  return { ...result, html: readFileSync(result.page, 'utf8') };
}

describe('the emoji font the transcript bundles', () => {
  it('reads every subset of the installed package, each with its woff2 file and ranges', () => {
    const subsets = emojiFontSubsets();
    expect(subsets.length).toBeGreaterThan(5);
    for (const subset of subsets) {
      expect(existsSync(subset.path), subset.path).toBe(true);
      expect(subset.ranges.length).toBeGreaterThan(0);
    }
    expect(parseUnicodeRange('U+23,U+1f1e6-1f1ff')).toEqual([
      [0x23, 0x23],
      [0x1f1e6, 0x1f1ff],
    ]);
  });

  it('picks the subsets that cover the text: some for a die, none for plain ASCII', () => {
    expect(subsetsFor('🎲').length).toBeGreaterThan(0);
    expect(subsetsFor('a plain prompt #1')).toEqual([]);
  });

  it('writes a page whose stylesheet names the font and whose @font-face files are next to it, as woff2', async () => {
    const { html, page, fonts } = await written('Re-roll 🔁 and a die 🎲');
    expect(html).toContain(`"gg sans", "Noto Sans", "Helvetica Neue", Helvetica, Arial, sans-serif, "${EMOJI_FONT_FAMILY}"`);
    expect(html).toContain("font-src 'self'");
    // Digits, '#' and '*' stay with the text fonts: no rule claims them.
    for (const range of html.matchAll(/unicode-range: ([^;]+);/g))
      expect(Math.min(...parseUnicodeRange(range[1] ?? '').map(([first]) => first))).toBeGreaterThanOrEqual(0x2000);
    const urls = [...html.matchAll(/@font-face \{ font-family: "Noto Emoji";[^}]*url\("([^"]+)"\)/g)].map((m) => m[1] ?? '');
    expect(urls.length).toBeGreaterThan(0);
    expect(fonts).toHaveLength(urls.length);
    for (const url of urls) {
      expect(url).toMatch(/^transcript-files\/fonts\/noto-emoji-[\w-]+\.woff2$/);
      const file = join(dirname(page), url);
      expect(readFileSync(file).subarray(0, 4).toString('latin1'), file).toBe('wOF2');
    }
  });
});
