/**
 * What `npm run demo` shows (DEMO_STEPS, run in-process against a gateway with no delay): besides the first steps,
 * every feature issue 32 added is on the transcript page and in the saved images, so a newcomer sees it: Use as style
 * from the message menu, a 16:9 image at 2K, a style saved from a result and used as a preset, a draft at the cheapest
 * quality once the admin turned drafts on and its HD remake, Make emoji through its modal, ⭐ posting the result to
 * the showcase channel the admin set, and the admin's /usage with its chart.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STEPS } from '../../demo/demo-steps.js';
import { runDemo } from '../../demo/run-demo.js';

describe('the demo’s steps', () => {
  let dir: string;
  let html: string;
  let images: string[];
  const said: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'imagine-demo-'));
    const written = await runDemo({
      outputDir: dir,
      steps: DEMO_STEPS,
      say: (line) => said.push(line),
      harness: { gateway: { delayMs: 0, imageStyle: 'illustrated' } },
    });
    html = readFileSync(written.page, 'utf8');
    images = written.images.map((path) => basename(path));
  }, 90_000);

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** The transcript's messages (their `<article>`s) that contain every one of `texts`. */
  const articles = (...texts: string[]) => html.split('<article').filter((article) => texts.every((text) => article.includes(text)));
  const image = (step: string) => {
    const name = images.find((n) => n.startsWith(`${step}-`));
    if (!name) throw new Error(`the ${step} step saved no image`);
    return join(dir, name);
  };

  it('saves an image for every step that makes one, in order', () => {
    expect(images.map((name) => name.split('-')[0])).toEqual([
      'imagine',
      'imagine',
      'pick',
      'vary',
      'zoom',
      'edit',
      'style',
      'wide',
      'styled',
      'draft',
      'hd',
      'star',
      'usage',
    ]);
  });

  it('runs Use as style from the message menu: the member submits its form and gets the image', () => {
    expect(said).toContain('\nmember: Apps → Use as style on the last result; the form asks for a prompt: "a lighthouse on a cliff at night"');
    expect(articles('Member</span> submitted a form: <span class="form">Use as style · prompt: a lighthouse on a cliff at night</span>')).toHaveLength(1);
    expect(articles('<strong>a lighthouse on a cliff at night</strong>', 'gallery-image')).toHaveLength(1);
  });

  it('makes a 16:9 image at 2K, and its card says so', async () => {
    expect(await sharp(image('wide')).metadata()).toMatchObject({ width: 2048, height: 1152 });
    expect(articles('<strong>a harbour at dawn, wide view</strong>', '16:9 · 2048×1152')).toHaveLength(1);
  });

  it('saves the fox as a style, and a new prompt made with that preset carries its suffix', () => {
    expect(articles('Member</span> used <span class="command">/styles</span>', 'Saved your style <strong>fox watercolor</strong>')).toHaveLength(1);
    expect(articles('<strong>an owl on a branch soft watercolor washes</strong>', 'gallery-image')).toHaveLength(1);
  });

  it('drafts at the cheapest quality once the admin turned drafts on, and HD remakes the draft at high quality', () => {
    expect(articles('Admin</span> used <span class="command">/settings</span>', 'Drafts: requests without a quality are made at the cheapest')).not.toEqual([]);
    const draft = articles('<strong>a paper boat on a pond</strong>', 'low quality');
    expect(draft).toHaveLength(1);
    expect(draft[0]).toContain('<span class="label">HD</span>');
    expect(articles('Made in HD for', 'high quality', 'gallery-image')).toHaveLength(1);
  });

  it('makes an emoji from the HD card through its modal', () => {
    expect(said).toContain('\nmember clicks Make emoji; the form asks for its name: "paper_boat"');
    expect(
      articles(
        'Member</span> submitted a form: <span class="form">Make an emoji · name: paper_boat</span>',
        'Added <span class="emoji">:paper_boat:</span> to the server',
      ),
    ).toHaveLength(1);
  });

  it('stars the HD result, which the showcase channel the admin set shows, crediting its author', () => {
    expect(articles('Showcase channel: <span class="mention">#nsfw-art</span>')).not.toEqual([]);
    expect(articles('Saved to your favorites here', 'Posted to the showcase')).toHaveLength(1);
    const showcase = html.split('<section').find((section) => section.includes('<h2><span class="hash">#</span>nsfw-art</h2>'));
    expect(showcase).toContain('starred by <span class="mention">@Member</span>');
    expect(showcase).toContain('gallery-image');
  });

  it('shows the admin’s /usage with its chart, a 1200×600 PNG', async () => {
    const usage = articles('Admin</span> used <span class="command">/usage</span>');
    expect(usage).toHaveLength(1);
    expect(usage[0]).toContain('Usage on this server this month');
    expect(usage[0]).toMatch(/<img class="attachment-image" src="transcript-files\/\d+-usage-month-[\d-]+\.png" alt="Chart of images and cost per day/);
    expect(await sharp(image('usage')).metadata()).toMatchObject({ format: 'png', width: 1200, height: 600 });
  });
});
