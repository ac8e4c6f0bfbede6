/**
 * `npm run screenshots`: the pictures the README shows, taken in headless Chromium (test/support/chromium.ts) and
 * written as small palette PNGs:
 * - docs/playground.png: the playground after /imagine (two images) and U1, the picked image on its own card;
 * - docs/result-card.png: a result card on the demo's transcript page (`npm run demo`'s output).
 * Both come from the real bot against the emulators, so they change when the cards do: run it again then.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { imagineStep } from '../demo/demo-steps.js';
import { runDemo } from '../demo/run-demo.js';
import { launchChromium } from '../test/support/chromium.js';
import { startPlayground } from './server.js';

const DOCS = new URL('../docs/', import.meta.url).pathname;
const PROMPT = 'a watercolor fox in a misty forest';
/** The README keeps its pictures small. */
const MAX_BYTES = 300 * 1024;
const VIEWPORT = { width: 1000, height: 1000 };
const IMAGES_LOADED = '[...document.images].every((img) => img.complete && img.naturalWidth > 0)';

/** Writes `png` as a palette PNG (a few hundred KB at most) to docs/`name`; returns its size. */
async function save(name: string, png: Buffer): Promise<number> {
  const small = await sharp(png).png({ palette: true, colours: 128, compressionLevel: 9, effort: 10 }).toBuffer();
  if (small.length > MAX_BYTES) throw new Error(`${name} is ${small.length} bytes, over ${MAX_BYTES}`);
  mkdirSync(DOCS, { recursive: true });
  writeFileSync(join(DOCS, name), small);
  return small.length;
}

async function playgroundShot(page: Page): Promise<Buffer> {
  const playground = await startPlayground({ port: 0, harness: { gateway: { delayMs: 0, imageStyle: 'illustrated' } } });
  try {
    await page.goto(playground.url);
    await page.locator('body[data-ready="true"]').waitFor();
    await page.fill('#options [name="prompt"]', PROMPT);
    await page.click('#more summary');
    await page.fill('#more [name="count"]', '2');
    await page.click('#more summary');
    await page.click('button.send');
    const cards = page.locator('.slot:has(.media-gallery)');
    await cards.nth(0).waitFor();
    await cards.nth(0).locator('button[data-custom-id$=":u0"]').click();
    await cards.nth(1).waitFor();
    await page.waitForFunction(IMAGES_LOADED);
    // No button under the pointer (a hovered button is lighter).
    await page.mouse.move(0, 0);
    return await page.screenshot();
  } finally {
    await playground.close();
  }
}

async function resultCardShot(page: Page): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'imagine-screenshots-'));
  try {
    const steps = [imagineStep(PROMPT, 1)];
    const written = await runDemo({ outputDir: dir, steps, say: () => undefined, harness: { gateway: { delayMs: 0, imageStyle: 'illustrated' } } });
    await page.goto(pathToFileURL(written.page).href);
    await page.waitForFunction(IMAGES_LOADED);
    return await page.locator('article:has(.media-gallery)').first().screenshot();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: VIEWPORT });
  page.setDefaultTimeout(30_000);
  for (const [name, take] of [
    ['playground.png', playgroundShot],
    ['result-card.png', resultCardShot],
  ] as const) {
    const size = await save(name, await take(page));
    process.stdout.write(`${relative(process.cwd(), join(DOCS, name))}: ${(size / 1024).toFixed(0)} KB\n`);
  }
} finally {
  await browser.close();
}
