/**
 * `npm run playground` in headless Chromium (issue 31): the playground runs in-process (the real bot against both
 * emulators, the page on a free port) and a person drives the page as they would. /imagine with a prompt shows a result
 * card; U1 posts that image on a card of its own; Vary on it brings a new image. /edit takes a file picked in the page,
 * an app command (Edit image) runs on a message, an autocomplete option lists the bot's choices,
 * Edit opens the bot's modal in a dialog, and switching member and language changes who acts and what the bot says.
 * Every wait is for something in the page (a card, an image loaded, a dialog), never for a time.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlayground, type Playground } from '../../playground/server.js';
import { browserTest, launchChromium } from '../support/chromium.js';

const browser = browserTest('the playground page in headless Chromium');

/** The cards with images, in the channel's order. */
const CARDS = '.slot:has(.media-gallery)';

/** Every image of the channel has loaded (the page's <img> from the emulator's CDN). */
const IMAGES_LOADED = "[...document.querySelectorAll('.media-gallery img')].every((img) => img.complete && img.naturalWidth > 0)";

describe.skipIf(browser.skip)(browser.title, () => {
  let playground: Playground;
  let chromium: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    playground = await startPlayground({ port: 0, harness: { gateway: { delayMs: 0, imageStyle: 'illustrated' } } });
    chromium = await launchChromium();
    page = await chromium.newPage({ viewport: { width: 1000, height: 900 } });
    // Shorter than the test's own timeout, so a wait that fails says what it waited for.
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
    });
    await page.goto(playground.url);
    await page.locator('body[data-ready="true"]').waitFor();
  }, 60_000);

  afterAll(async () => {
    await chromium.close();
    await playground.close();
  });

  /** Picks `name` in the command bar (its required fields appear), fills `fields`, opens More options for the rest, sends. */
  async function run(name: string, fields: Record<string, string>, files: Record<string, { name: string; mimeType: string; buffer: Buffer }> = {}) {
    await page.selectOption('#command', { label: name });
    let optional = false;
    for (const field of [...Object.keys(fields), ...Object.keys(files)]) if ((await page.locator(`#more [name="${field}"]`).count()) > 0) optional = true;
    if (optional && (await page.locator('#more[open]').count()) === 0) await page.click('#more summary');
    for (const [field, value] of Object.entries(fields)) await page.fill(`#command-bar [name="${field}"]`, value);
    for (const [field, file] of Object.entries(files)) await page.setInputFiles(`#command-bar [name="${field}"]`, file);
    // Resolves once the server answered: the interaction is dispatched and tracked by then.
    const answered = page.waitForResponse((response) => response.url().endsWith('/api/command'));
    await page.click('button.send');
    expect((await answered).status()).toBe(200);
  }

  it('builds the command bar from the commands the bot registered', async () => {
    const commands = await page.locator('#command option').allInnerTexts();
    expect(commands).toEqual(expect.arrayContaining(['imagine', 'edit', 'models']));
    expect(await page.locator('#options [name="prompt"]').count()).toBe(1);
    expect(await page.locator('#more [name="count"]').count()).toBe(1);
  });

  it("offers the bot's autocomplete choices for an option as it is typed (the models)", async () => {
    await page.click('#more summary');
    await page.focus('#more [name="model"]');
    const first = page.locator('datalist#suggestions-model option').first();
    await first.waitFor({ state: 'attached' });
    const values = await Promise.all((await page.locator('datalist#suggestions-model option').all()).map((o) => o.getAttribute('value')));
    expect(values).toContain('gpt-image-2');
  });

  it('runs /imagine, U1 and Vary, and shows each new image as it arrives', async () => {
    await run('imagine', { prompt: 'a watercolor fox in a misty forest', count: '2' });
    const first = page.locator(CARDS).nth(0);
    await first.waitFor();
    expect(await first.locator('.media-gallery img').count()).toBe(2);
    expect(await page.locator('.interaction-line').first().innerText()).toMatch(/Member\s+used\s+\/imagine/);

    await first.locator('button[data-custom-id$=":u0"]').click();
    const picked = page.locator(CARDS).nth(1);
    await picked.waitFor();
    expect(await picked.locator('.media-gallery img').count()).toBe(1);

    await picked.locator('button[data-custom-id$=":vs"]').click();
    const varied = page.locator(CARDS).nth(2);
    await varied.waitFor();
    await page.waitForFunction(IMAGES_LOADED);
    const sources = await Promise.all((await page.locator(`${CARDS} .media-gallery img`).all()).map((img) => img.getAttribute('src')));
    expect(sources).toHaveLength(4);
    expect(new Set(sources).size).toBe(4);
    expect(await varied.innerText()).toContain('a watercolor fox in a misty forest');
    expect(problems).toEqual([]);
  });

  it('runs /edit on a file picked in the page', async () => {
    const src = await page.locator(`${CARDS} .media-gallery img`).first().getAttribute('src');
    const image = Buffer.from(await (await fetch(src ?? '')).arrayBuffer());
    await run('edit', { prompt: 'the same scene in deep winter' }, { image: { name: 'fox.png', mimeType: 'image/png', buffer: image } });
    const edited = page.locator(CARDS).nth(3);
    await edited.waitFor();
    await page.waitForFunction(IMAGES_LOADED);
    expect(await edited.innerText()).toContain('the same scene in deep winter');
    expect(await page.locator('.interaction-line').last().innerText()).toMatch(/Member\s+used\s+\/edit/);
  });

  it("opens the bot's modal from Edit, and its submit runs the edit", async () => {
    await page.locator(CARDS).nth(3).locator('button[data-custom-id^="editres:"]').click();
    const dialog = page.locator('dialog#modal[open]');
    await dialog.waitFor();
    await dialog.locator('textarea').fill('now at night');
    await dialog.locator('button.submit').click();
    const result = page.locator(CARDS).nth(4);
    await result.waitFor();
    expect(await result.innerText()).toContain('now at night');
  });

  it("runs an app command on a message: Edit image on a card opens the bot's modal, and its submit edits that card's image", async () => {
    const card = page.locator(CARDS).nth(4);
    await card.hover();
    // The Apps buttons show while the pointer is over the message; a message arriving meanwhile may scroll it away, so
    // the click goes to the button itself (the page handles it by delegation) rather than to a point on the screen.
    await card.locator('.apps button[data-name="Edit image"]').dispatchEvent('click');
    const dialog = page.locator('dialog#modal[open]');
    await dialog.waitFor();
    await dialog.locator('textarea').fill('with northern lights');
    await dialog.locator('button.submit').click();
    const result = page.locator(CARDS).nth(5);
    await result.waitFor();
    expect(await result.innerText()).toContain('with northern lights');
  });

  it('acts as another member, in another language', async () => {
    const member2 = playground.harness.discord.fixtures.users.member2;
    await page.selectOption('#member', member2.id);
    await page.selectOption('#locale', 'de');
    await run('imagine', { prompt: 'ein Fuchs im Schnee' });
    const card = page.locator(CARDS).nth(6);
    await card.waitFor();
    expect(await page.locator('.interaction-line').last().innerText()).toMatch(/Member2\s+used\s+\/imagine/);
    const text = await card.innerText();
    expect(text).toContain('@Member2');
    expect(text).not.toContain('Imagined for');
  });

  it("sends the member's roles as ticked, and their language, with each interaction", async () => {
    const { guild, member } = playground.harness.discord.fixtures;
    await page.selectOption('#member', member.id);
    const ticked = await Promise.all((await page.locator('input.role:checked').all()).map((box) => box.getAttribute('value')));
    expect(ticked).toEqual(['artist']);
    await page.uncheck('input.role[value="artist"]');
    await page.check('input.role[value="vip"]');
    await page.selectOption('#locale', 'ja');
    await run('models', {});
    const sent = playground.interactions().at(-1)!;
    await sent.waitForAck();
    const payload = sent.payload as { locale?: string; member?: { roles?: string[]; user?: { id?: string } } };
    expect(payload.member?.user?.id).toBe(member.id);
    expect(payload.member?.roles).toEqual([guild.roles.vip.id]);
    expect(payload.locale).toBe('ja');
  });

  it("fills a modal's multi-select: Vary (Region) with two cells of the grid brings a new image", async () => {
    const before = await page.locator(CARDS).count();
    await page.locator(CARDS).nth(1).locator('button[data-custom-id$=":rg"]').click();
    const dialog = page.locator('dialog#modal[open]');
    await dialog.waitFor();
    expect(await dialog.locator('select[multiple] option').count()).toBe(9);
    await dialog.locator('select[multiple]').selectOption(['0', '4']);
    await dialog.locator('button.submit').click();
    await page.locator(CARDS).nth(before).waitFor();
    await page.waitForFunction(IMAGES_LOADED);
  });

  /** Acts as `userId` with `roles` ticked, in English. */
  async function actAs(userId: string, roles: string[]) {
    await page.selectOption('#member', userId);
    await page.selectOption('#locale', 'en-US');
    for (const box of await page.locator('input.role').all()) {
      const value = (await box.getAttribute('value')) ?? '';
      if (roles.includes(value)) await box.check();
      else await box.uncheck();
    }
  }

  /** The values the page lists for an autocomplete field once the bot answered (the option, focused). */
  async function suggestions(name: string): Promise<(string | null)[]> {
    await page.focus(`#command-bar [name="${name}"]`);
    const options = page.locator(`datalist#suggestions-${name} option`);
    await options.first().waitFor({ state: 'attached' });
    return Promise.all((await options.all()).map((o) => o.getAttribute('value')));
  }

  /** The newest message of the channel that contains `text`, once it is there. */
  const newest = (text: string) => page.locator('.slot:not([hidden])', { hasText: text }).last();

  it('runs /imagine ratio:16:9 resolution:2K from the page, offering the ratios the model makes; the gateway gets a 16:9 size', async () => {
    const { member } = playground.harness.discord.fixtures;
    await actAs(member.id, ['artist']);
    await page.selectOption('#command', { label: 'imagine' });
    if ((await page.locator('#more[open]').count()) === 0) await page.click('#more summary');
    await page.fill('#command-bar [name="model"]', 'dall-e-3');
    expect(await suggestions('ratio')).toEqual(['1:1', '16:9', '9:16']);
    await page.fill('#command-bar [name="model"]', '');
    const before = await page.locator(CARDS).count();
    const requests = playground.harness.gateway.imageRequests().length;
    await run('imagine', { prompt: 'a harbour at dawn', model: 'gpt-image-2', ratio: '16:9', resolution: '2K' });
    const card = page.locator(CARDS).nth(before);
    await card.waitFor();
    const sent = playground.harness.gateway.imageRequests().slice(requests);
    expect(sent.map((r) => r.json?.['size'])).toEqual(['2048x1152']);
    expect(await card.innerText()).toContain('16:9 · 2048×1152');
    await page.waitForFunction(IMAGES_LOADED);
  });

  it('stars a card from the page: ⭐ answers the member alone, and /history favorites lists it', async () => {
    const card = page.locator(CARDS).last();
    await card.locator('button[data-custom-id$=":fv"]').click();
    const answer = newest('Saved to your favorites here');
    await answer.waitFor();
    expect(await answer.innerText()).toContain('Only you can see this');
    await run('history favorites', {});
    await newest('Your favorites here').waitFor();
    expect(await newest('Your favorites here').innerText()).toContain('a harbour at dawn');
  });

  it("makes an emoji from a card: the bot's modal asks the name, and the emoji is added (as the owner, who may)", async () => {
    const { guild, users } = playground.harness.discord.fixtures;
    const { owner } = users;
    await actAs(owner.id, []);
    await page.locator(CARDS).last().locator('button[data-custom-id$=":em"]').click();
    const dialog = page.locator('dialog#modal[open]');
    await dialog.waitFor();
    expect(await dialog.locator('input[type="text"], input:not([type])').first().inputValue()).toBe('a_harbour_at_dawn');
    await dialog.locator('input').first().fill('harbour');
    await dialog.locator('button.submit').click();
    await newest('to the server as').waitFor();
    expect(await newest('to the server as').innerText()).toContain(':harbour:');
    expect(playground.harness.discord.guildEmojis(guild.id).map((e) => e.name)).toContain('harbour');
  });

  it("runs Use as style on a card from its Apps menu: the modal's prompt makes an image in that style", async () => {
    const { member } = playground.harness.discord.fixtures;
    await actAs(member.id, ['artist']);
    const before = await page.locator(CARDS).count();
    const card = page.locator(CARDS).last();
    await card.hover();
    await card.locator('.apps button[data-name="Use as style"]').dispatchEvent('click');
    const dialog = page.locator('dialog#modal[open]');
    await dialog.waitFor();
    await dialog.locator('textarea, input').first().fill('a lighthouse at night');
    await dialog.locator('button.submit').click();
    const result = page.locator(CARDS).nth(before);
    await result.waitFor();
    expect(await result.innerText()).toContain('a lighthouse at night');
    expect(playground.harness.gateway.imageRequests().at(-1)?.path).toMatch(/\/images\/edits$/);
  });

  it('saves a style from a file picked in the page, offers it as a preset, and /imagine with it sends its image; style_ref takes a file too', async () => {
    const src = await page.locator(`${CARDS} .media-gallery img`).first().getAttribute('src');
    const image = Buffer.from(await (await fetch(src ?? '')).arrayBuffer());
    const file = { name: 'style.png', mimeType: 'image/png', buffer: image };
    await run('styles save', { name: 'harbour ink' }, { image: file });
    await newest('Saved your style').waitFor();
    await page.selectOption('#command', { label: 'imagine' });
    if ((await page.locator('#more[open]').count()) === 0) await page.click('#more summary');
    expect(await suggestions('preset')).toContain('harbour ink');
    let before = await page.locator(CARDS).count();
    await run('imagine', { prompt: 'an owl', preset: 'harbour ink' });
    await page.locator(CARDS).nth(before).waitFor();
    const form = () => playground.harness.gateway.imageRequests().at(-1)?.form;
    expect(form()?.files.filter((f) => f.field === 'image[]')).toHaveLength(1);
    before = await page.locator(CARDS).count();
    await run('imagine', { prompt: 'a heron' }, { style_ref: file });
    await page.locator(CARDS).nth(before).waitFor();
    expect(
      form()
        ?.files.find((f) => f.field === 'image[]')
        ?.bytes.equals(image),
    ).toBe(true);
  });

  it('offers a new random seed for the model with seeds, and /imagine with it sends that seed', async () => {
    await page.selectOption('#command', { label: 'imagine' });
    if ((await page.locator('#more[open]').count()) === 0) await page.click('#more summary');
    await page.fill('#command-bar [name="model"]', 'flux-schnell');
    const [seed] = await suggestions('seed');
    expect(seed).toMatch(/^\d+$/);
    expect(await page.locator('datalist#suggestions-seed option').first().textContent()).toMatch(/^🎲 \d+ \(a new random seed\)$/);
    const before = await page.locator(CARDS).count();
    await run('imagine', { prompt: 'a fox in the snow', model: 'flux-schnell', seed: seed ?? '' });
    await page.locator(CARDS).nth(before).waitFor();
    expect(playground.harness.gateway.imageRequests().at(-1)?.json).toMatchObject({ model: 'flux-schnell', seed: Number(seed) });
  });

  it("shows /usage's chart to an admin, loaded in the page", async () => {
    const { admin } = playground.harness.discord.fixtures;
    await actAs(admin.id, ['admin']);
    await run('usage', {});
    const report = newest('Usage on this server');
    await report.waitFor();
    const chart = report.locator('img');
    await chart.waitFor();
    await page.waitForFunction("[...document.querySelectorAll('.slot img')].every((img) => img.complete && img.naturalWidth > 0)");
    const width =
      "[...document.querySelectorAll('.slot:not([hidden])')].filter((s) => s.textContent.includes('Usage on this server')).at(-1).querySelector('img').naturalWidth";
    expect(await page.evaluate<number>(width)).toBe(1200);
    expect(problems).toEqual([]);
  });

  it('serves the emoji font the page names, so the buttons draw their emoji', async () => {
    const loaded = await page.evaluate<string[]>('document.fonts.load(\'16px "Noto Emoji"\', "🔁").then((faces) => faces.map((f) => f.status))');
    expect(loaded).toEqual(['loaded']);
    expect(readFileSync(new URL('../../playground/public/app.js', import.meta.url), 'utf8')).toContain('/api/events');
  });
});
