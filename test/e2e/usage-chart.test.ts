/**
 * /usage's chart end to end (issue 32): after a few jobs, /usage's reply carries a PNG of the chart's fixed size, as
 * Discord stores it (fetched from the emulated CDN), with its alt text (the attachment's `description`) in the admin's
 * language; a period with nothing to draw has no chart. The CSV, when asked, comes beside it.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InteractionHandle, SlashOption, UserFixture } from '../emulators/discord/index.js';
import { startHarness, type Harness } from './harness.js';
import { lastText, settled } from './support.js';

describe('/usage’s chart, end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { QUOTA_DEFAULT_LIMIT: '10', LOG_LEVEL: 'debug' } });
    const { member, member2 } = h.discord.fixtures.users;
    await imagine(member, [{ name: 'count', type: 4, value: 2 }]);
    await imagine(member2, [{ name: 'model', type: 3, value: 'gpt-image-1' }]);
  }, 60_000);
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  async function imagine(user: UserFixture, options: SlashOption[] = []): Promise<void> {
    const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'a lighthouse' }, ...options], { user });
    await handle.waitFor(settled);
    // The job is counted after its reply: wait until the bot is done with the interaction.
    await h.waitForLog((entry) => entry['interactionId'] === handle.id && (entry.msg === 'interaction handled' || entry.msg === 'user-facing error'));
  }

  async function usage(options: SlashOption[], locale = 'en-US'): Promise<InteractionHandle> {
    const handle = h.discord.slash('usage', options, { user: h.discord.fixtures.admin, locale });
    await handle.waitFor((x) => x.edits.some((e) => e.status === 200));
    return handle;
  }

  /** The reply's attachments as Discord keeps them: name, description (the alt text) and the bytes its CDN serves. */
  async function attachments(handle: InteractionHandle) {
    const stored = handle.originalMessage()?.attachments ?? [];
    return Promise.all(
      stored.map(async (a) => ({ filename: a.filename, description: a.description, bytes: Buffer.from(await (await fetch(a.url)).arrayBuffer()) })),
    );
  }

  it('attaches the chart as a PNG of 1200×600 with alt text that sums the period up', async () => {
    const handle = await usage([]);
    const [chart, ...others] = await attachments(handle);
    expect(others).toEqual([]);
    expect(chart?.filename).toMatch(/^usage-month-\d{4}-\d{2}-01\.png$/);
    const meta = await sharp(chart?.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1200, 600]);
    expect(chart?.description).toMatch(
      /^Chart of images and cost per day by model and by top members, .+: 3 images, \$\d+\.\d{2,3}; busiest day [A-Z][a-z]+ \d{1,2} \(3 images\)\.$/,
    );
    expect(lastText(handle)).toContain('Images: 3 from 2 requests');
  });

  it('writes the alt text in the admin’s language, and attaches the CSV beside the chart', async () => {
    const handle = await usage([{ name: 'format', type: 3, value: 'csv' }], 'de');
    const files = await attachments(handle);
    expect(files.map((f) => f.filename.split('.').at(-1))).toEqual(['png', 'csv']);
    expect(files[0]?.description).toMatch(/^Diagramm der Bilder und Kosten pro Tag nach Modell und nach Top-Mitglied, .+: 3 Bilder, /);
    expect((await sharp(files[0]?.bytes).metadata()).format).toBe('png');
  });

  it('has no chart when the period has nothing to draw', async () => {
    const handle = await usage([{ name: 'user', type: 6, value: h.discord.fixtures.users.member3.id }]);
    expect(await attachments(handle)).toEqual([]);
    expect(lastText(handle)).toContain('Images: 0 from 0 requests');
  });
});

describe('/usage without room for its chart, end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    // A memory budget smaller than a chart's 1200×600 drawing: every chart is left out.
    const MIB = 1024 * 1024;
    h = await startHarness({
      env: { LOG_LEVEL: 'debug', MEMORY_BUDGET_BYTES: String(6 * MIB), GATEWAY_MAX_RESPONSE_BYTES: String(4 * MIB), DESCRIBE_MEMORY_BYTES: String(MIB) },
    });
    const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'a lighthouse' }], { user: h.discord.fixtures.users.member });
    await handle.waitFor(settled);
    await h.waitForLog((entry) => entry['interactionId'] === handle.id && (entry.msg === 'interaction handled' || entry.msg === 'user-facing error'));
  }, 60_000);
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  it('still answers with the figures and the CSV, says the chart is missing, and logs why', async () => {
    const handle = h.discord.slash('usage', [{ name: 'format', type: 3, value: 'csv' }], { user: h.discord.fixtures.admin });
    await handle.waitFor((x) => x.edits.some((e) => e.status === 200));
    const text = lastText(handle);
    expect(text).toContain('Images: 1 from 1 request');
    expect(text).toContain('-# No chart this time: it could not be drawn. The figures above are complete.');
    expect(handle.originalMessage()?.attachments.map((a) => a.filename)).toEqual([expect.stringMatching(/\.csv$/)]);
    await h.waitForLog('usage chart left out: the memory budget is full');
  });
});
