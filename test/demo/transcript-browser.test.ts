/**
 * The demo's transcript page in a real browser: the demo's own steps (with a prompt full of HTML, /models for an
 * ephemeral answer, and a Components V2 card the bot's discord.js client posts) run against the emulators, the page
 * is written to a temp folder and opened from disk in headless Chromium. Every image loads, the conversation reads
 * as text, and nothing in the prompt became markup or ran.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ButtonStyle, ComponentType, MessageFlags, SeparatorSpacingSize } from 'discord.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editStep, imagineStep, type DemoStep } from '../../demo/demo-steps.js';
import { runDemo } from '../../demo/run-demo.js';
import { browserTest, launchChromium } from '../support/chromium.js';

const HOSTILE_PROMPT = `a fox <script>window.pwned=1</script><img src=x onerror="window.pwned=1"> & "friends"`;
const TIMEOUT_MS = 60_000;

/** /models: its answer is ephemeral. */
const modelsStep: DemoStep = {
  name: 'models',
  run: async (ctx) => {
    const handle = ctx.slash('models', []);
    await handle.waitFor((h) => h.edits.some((e) => e.status === 200));
    return { message: handle.lastMessage(), images: ctx.last?.images ?? [] };
  },
};

/** A Components V2 card in #general, posted by the bot's own client, showing the previous step's first image. */
const cardStep: DemoStep = {
  name: 'card',
  run: async (ctx) => {
    const image = ctx.last?.images[0];
    const channel = await ctx.harness.bot.client.channels.fetch(ctx.harness.discord.fixtures.guild.channels.general.id);
    if (!image || !channel?.isSendable()) throw new Error('the card needs an image and a channel');
    const message = await channel.send({
      flags: MessageFlags.IsComponentsV2,
      files: [{ attachment: image.bytes, name: 'card.png' }],
      components: [
        {
          type: ComponentType.Container,
          accent_color: 0x57f287,
          components: [
            { type: ComponentType.TextDisplay, content: `## V2 card\n-# for <@${ctx.member.id}>` },
            { type: ComponentType.MediaGallery, items: [{ media: { url: 'attachment://card.png' }, description: 'the card image' }] },
            {
              type: ComponentType.Section,
              components: [{ type: ComponentType.TextDisplay, content: 'Section beside a thumbnail' }],
              accessory: { type: ComponentType.Thumbnail, media: { url: 'attachment://card.png' } },
            },
            { type: ComponentType.Separator, divider: true, spacing: SeparatorSpacingSize.Small },
            {
              type: ComponentType.ActionRow,
              components: [{ type: ComponentType.Button, style: ButtonStyle.Primary, custom_id: 'vary:demo', label: 'Vary', emoji: { name: '🎲' } }],
            },
          ],
        },
        {
          type: ComponentType.ActionRow,
          components: [
            { type: ComponentType.StringSelect, custom_id: 'pick:demo', placeholder: 'Pick a size', options: [{ label: '1024x1024', value: 'square' }] },
          ],
        },
      ],
    });
    return { message: ctx.harness.discord.messages.get(message.id), images: [] };
  },
};

const browser = browserTest('the demo transcript page in headless Chromium');

describe.skipIf(browser.skip)(browser.title, () => {
  let dir: string;
  let chromium: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'imagine-transcript-'));
    const steps = [imagineStep(HOSTILE_PROMPT, 2), editStep('the same scene in deep winter'), modelsStep, cardStep];
    const written = await runDemo({ outputDir: dir, steps, say: () => undefined, harness: { gateway: { delayMs: 0, imageStyle: 'illustrated' } } });
    chromium = await launchChromium();
    page = await chromium.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
    // goto resolves on the load event, after every (eager) image has loaded or failed.
    await page.goto(pathToFileURL(written.page).href);
  }, TIMEOUT_MS);

  afterAll(async () => {
    await chromium.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads every image: both /imagine results, the /edit result, and the card gallery and thumbnail', async () => {
    // A string, evaluated in the page: the project's TypeScript has no DOM types.
    const images = await page.evaluate<{ src: string | null; width: number }[]>(
      "[...document.images].map((img) => ({ src: img.getAttribute('src'), width: img.naturalWidth }))",
    );
    expect(images).toHaveLength(5);
    for (const image of images) expect(image.width, `${image.src} did not load`).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  it('shows the conversation as text: who used which command, the prompts, the buttons, the card and the ephemeral answer', async () => {
    const lines = await page.locator('.interaction-line').allInnerTexts();
    expect(lines.map((line) => line.replace(/\s+/g, ' ').trim())).toEqual(['Member used /imagine', 'Member used /edit', 'Member used /models']);
    const text = await page.locator('main').innerText();
    expect(text).toContain(HOSTILE_PROMPT);
    expect(text).toContain('the same scene in deep winter');
    expect(await page.locator('button', { hasText: 'Re-roll' }).count()).toBe(2);
    expect(await page.locator('button', { hasText: 'Delete' }).count()).toBe(2);
    expect(text).toContain('Image models');
    expect(await page.locator('article.ephemeral').innerText()).toContain('Only you can see this');
    const card = page.locator('.container.accented', { hasText: 'V2 card' });
    expect(await card.innerText()).toMatch(/V2 card\s+for @Member\s+Section beside a thumbnail\s+🎲\s*Vary/);
    expect(await page.locator('.select summary').innerText()).toContain('Pick a size');
  });

  it('draws emoji with the bundled Noto Emoji: its face loads from next to the page and a die has ink of its own', async () => {
    // Chromium here has no emoji font of its own (issue 31: empty boxes), so the die's glyph can only come from the bundled one.
    const loaded = await page.evaluate<string[]>(
      'document.fonts.load(\'32px "Noto Emoji"\', "🎲").then((faces) => faces.map((face) => face.family + ":" + face.status))',
    );
    expect(loaded).toEqual(['Noto Emoji:loaded']);
    // The die drawn alone on a canvas in the bundled font, and in a family the page does not have (the box a missing
    // glyph leaves): the first has ink, and it is not the box.
    const drawn = await page.evaluate<{ ink: number; same: boolean }>(`(() => {
      const draw = (font) => {
        const canvas = document.createElement('canvas');
        canvas.width = 48; canvas.height = 48;
        const ctx = canvas.getContext('2d');
        ctx.font = font;
        ctx.textBaseline = 'top';
        ctx.fillStyle = '#000';
        ctx.fillText('🎲', 4, 4);
        return ctx.getImageData(0, 0, 48, 48).data;
      };
      const bundled = draw('32px "Noto Emoji"');
      const fallback = draw('32px "no such font", monospace');
      let ink = 0;
      let same = true;
      for (let i = 3; i < bundled.length; i += 4) {
        if (bundled[i] > 0) ink++;
        if (bundled[i] !== fallback[i]) same = false;
      }
      return { ink, same };
    })()`);
    expect(drawn.ink).toBeGreaterThan(50);
    expect(drawn.same).toBe(false);
    const box = await page.locator('.container.accented .emoji').boundingBox();
    expect(box?.width).toBeGreaterThan(0);
  });

  it('keeps the prompt inert: no script element, no event handler, nothing ran', async () => {
    expect(await page.locator('script, [onerror]').count()).toBe(0);
    expect(await page.evaluate('"pwned" in window')).toBe(false);
  });
});
