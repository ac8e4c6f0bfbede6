/**
 * Style and subject references and saved styles (issue 32), end to end: `style_ref` and `subject_ref` on /imagine go
 * to the gateway's edits endpoint as image[] parts in that order, with a prompt that says which image is which, and a
 * model that takes no edits is refused before anything is sent; /styles save keeps small copies of its images, and a
 * preset used on /imagine or /edit adds them as references in order after the member's own, with its suffix; server
 * styles are saved by managers only and used by everyone.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserFixture } from '../emulators/discord/index.js';
import { startHarness, type Harness } from './harness.js';
import { customIds, ephemeralError, lastText, resultPost, settled, textOf } from './support.js';

async function png(color: string, width = 64, height = 64): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
}

/** The mean colour of an image, as [r, g, b] rounded. */
async function meanColour(bytes: Buffer): Promise<number[]> {
  const { channels } = await sharp(bytes).stats();
  return channels.slice(0, 3).map((c) => Math.round(c.mean));
}

const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - (b[i] ?? 0)) <= 6);

describe('style and subject references, and saved styles', () => {
  let h: Harness;
  beforeAll(async () => {
    // Debug logs: 'interaction handled' tells when a job's bookkeeping (its buttons' record) is done.
    h = await startHarness({ env: { LOG_LEVEL: 'debug' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  /** The image[] parts and the prompt of the last image request. */
  function sent() {
    const form = h.gateway.imageRequests().at(-1)?.form;
    if (!form) throw new Error('no multipart image request was sent');
    return { images: form.files.filter((f) => f.field === 'image[]').map((f) => f.bytes), prompt: String(form.fields['prompt']) };
  }

  function upload(bytes: Buffer, name: string) {
    return h.discord.uploadAttachment(bytes, name, 'image/png');
  }

  /** Runs /styles `sub` as `user` and returns what they were told. */
  async function styles(
    user: UserFixture,
    sub: string,
    options: { name: string; type: number; value: string }[],
    attachments: ReturnType<typeof upload>[] = [],
  ) {
    const handle = h.discord.slash('styles', [{ name: sub, type: 1, options }], { user, resolvedAttachments: attachments });
    await handle.waitFor((x) => x.edits.some((e) => e.status === 200));
    return lastText(handle);
  }

  it('sends style_ref then subject_ref to the edits endpoint, with a prompt saying which is which', async () => {
    const [style, subject] = [await png('#ff0000'), await png('#0000ff', 48, 64)];
    const [a, b] = [upload(style, 'style.png'), upload(subject, 'subject.png')];
    const before = h.gateway.imageRequests().length;
    const handle = h.discord.slash(
      'imagine',
      [
        { name: 'prompt', type: 3, value: 'a cat reading' },
        { name: 'subject_ref', type: 11, value: b.id },
        { name: 'style_ref', type: 11, value: a.id },
      ],
      { user: h.discord.fixtures.users.member, resolvedAttachments: [a, b] },
    );
    await handle.waitFor((x) => resultPost(x) !== undefined);
    expect(h.gateway.imageRequests().length).toBe(before + 1);
    expect(h.gateway.imageRequests().at(-1)?.path).toMatch(/\/images\/edits$/);
    const { images, prompt } = sent();
    expect(images).toEqual([style, subject]);
    expect(prompt).toMatch(/^Image 1 is the style reference[^\n]*Image 2 is the subject reference[^\n]*\na cat reading$/);
    // The card shows the member's prompt, not what the model was told about the images.
    const card = textOf(resultPost(handle)?.payload);
    expect(card).toContain('a cat reading');
    expect(card).not.toContain('Image 1 is');

    // Re-roll (once the job is settled and remembered) sends the same references with the same words about them.
    await h.waitForLog((e) => e['interactionId'] === handle.id && e.msg === 'interaction handled');
    const message = handle.lastMessage();
    const rerollId = customIds(message).find((id) => id.startsWith('reroll:'));
    if (!message || !rerollId) throw new Error('the card has no Re-roll');
    const reroll = h.discord.button(message, rerollId, { user: h.discord.fixtures.users.member });
    await reroll.waitFor((x) => resultPost(x) !== undefined);
    expect(sent()).toEqual({ images: [style, subject], prompt });
  });

  it('refuses references on a model that takes no edits, naming why, and sends nothing', async () => {
    const a = upload(await png('#00ff00'), 'style.png');
    const before = h.gateway.imageRequests().length;
    const handle = h.discord.slash(
      'imagine',
      [
        { name: 'prompt', type: 3, value: 'a dog' },
        { name: 'model', type: 3, value: 'dall-e-3' },
        { name: 'style_ref', type: 11, value: a.id },
      ],
      { user: h.discord.fixtures.users.member2, resolvedAttachments: [a] },
    );
    await handle.waitFor(settled);
    expect(ephemeralError(handle)).toContain("dall-e-3 can't take reference images");
    expect(h.gateway.imageRequests().length).toBe(before);
  });

  it("adds a saved style's images after the member's own, in order, and its suffix to the prompt", async () => {
    const user = h.discord.fixtures.users.member3;
    const [first, second, own, subject] = [await png('#ff8800'), await png('#00aa88', 900, 600), await png('#222222'), await png('#eeeeee')];
    const [a, b] = [upload(first, 'a.png'), upload(second, 'b.png')];
    const saved = await styles(
      user,
      'save',
      [
        { name: 'name', type: 3, value: 'Ink Wash' },
        { name: 'image', type: 11, value: a.id },
        { name: 'image2', type: 11, value: b.id },
        { name: 'suffix', type: 3, value: 'in ink wash, *bold* strokes' },
      ],
      [a, b],
    );
    expect(saved).toContain('**ink wash**');
    expect(saved).toContain('2 images');
    expect(await styles(user, 'list', [])).toContain('in ink wash, \\*bold\\* strokes');

    // /imagine: the subject reference, then the style's two images (small WebP copies of them, in order).
    const c = upload(subject, 'subject.png');
    const imagine = h.discord.slash(
      'imagine',
      [
        { name: 'prompt', type: 3, value: 'a lighthouse' },
        { name: 'preset', type: 3, value: 'ink wash' },
        { name: 'subject_ref', type: 11, value: c.id },
      ],
      { user, resolvedAttachments: [c] },
    );
    await imagine.waitFor((x) => resultPost(x) !== undefined);
    const made = sent();
    expect(made.images).toHaveLength(3);
    expect(made.images[0]).toEqual(subject);
    for (const [i, original] of [first, second].entries()) {
      const copy = made.images[i + 1];
      if (!copy) throw new Error('a style image is missing');
      const meta = await sharp(copy).metadata();
      expect(meta.format).toBe('webp');
      expect(Math.max(meta.width, meta.height)).toBeLessThanOrEqual(512);
      expect(near(await meanColour(copy), await meanColour(original))).toBe(true);
    }
    expect(made.prompt).toMatch(
      /^Image 1 is the subject reference[^\n]*Images 2 to 3 are style references[^\n]*\na lighthouse\nin ink wash, \*bold\* strokes$/,
    );

    // /edit: the member's own image first, then the style's.
    const d = upload(own, 'own.png');
    const edit = h.discord.slash(
      'edit',
      [
        { name: 'prompt', type: 3, value: 'restyle it' },
        { name: 'image', type: 11, value: d.id },
        { name: 'preset', type: 3, value: 'ink wash' },
      ],
      { user, resolvedAttachments: [d] },
    );
    await edit.waitFor((x) => resultPost(x) !== undefined);
    const edited = sent();
    expect(edited.images).toHaveLength(3);
    expect(edited.images[0]).toEqual(own);
    expect(near(await meanColour(edited.images[1]!), await meanColour(first))).toBe(true);
    expect(near(await meanColour(edited.images[2]!), await meanColour(second))).toBe(true);
    expect(edited.prompt).toMatch(/^Images 2 to 3 are style references[^\n]*\nrestyle it\nin ink wash/);

    // Deleted, it is gone: using it is refused and nothing is sent.
    expect(await styles(user, 'delete', [{ name: 'name', type: 3, value: 'ink wash' }])).toContain('ink wash');
    const before = h.gateway.imageRequests().length;
    const gone = h.discord.slash(
      'imagine',
      [
        { name: 'prompt', type: 3, value: 'x' },
        { name: 'preset', type: 3, value: 'ink wash' },
      ],
      { user },
    );
    await gone.waitFor(settled);
    expect(ephemeralError(gone)).toContain('ink wash');
    expect(h.gateway.imageRequests().length).toBe(before);
  });

  it("keeps server styles for managers to save and everyone to use; a member's own style of that name wins", async () => {
    const { admin, member2 } = h.discord.fixtures.users;
    const red = await png('#cc0000');
    const a = upload(red, 'red.png');
    const refused = await styles(member2, 'save', [
      { name: 'name', type: 3, value: 'house' },
      { name: 'suffix', type: 3, value: 'house style' },
      { name: 'scope', type: 3, value: 'server' },
    ]);
    expect(refused).toContain('Manage Server');
    const saved = await styles(
      admin,
      'save',
      [
        { name: 'name', type: 3, value: 'house' },
        { name: 'image', type: 11, value: a.id },
        { name: 'scope', type: 3, value: 'server' },
      ],
      [a],
    );
    expect(saved).toContain('Everyone here');
    expect(await styles(member2, 'list', [])).toContain('**house**');
    // The preset option suggests the member's styles and the server's.
    const suggested = h.discord.autocomplete(
      'imagine',
      [
        { name: 'prompt', type: 3, value: '' },
        { name: 'preset', type: 3, value: 'ho', focused: true },
      ],
      { user: member2 },
    );
    expect((await suggested.waitForAck()).body?.data?.choices?.map((c) => c.value)).toEqual(['house']);

    const handle = h.discord.slash(
      'imagine',
      [
        { name: 'prompt', type: 3, value: 'a barn' },
        { name: 'preset', type: 3, value: 'house' },
      ],
      { user: member2 },
    );
    await handle.waitFor((x) => resultPost(x) !== undefined);
    const used = sent();
    expect(used.images).toHaveLength(1);
    expect(near(await meanColour(used.images[0]!), await meanColour(red))).toBe(true);
    expect(used.prompt).toMatch(/^Image 1 is a style reference[^\n]*\na barn$/);

    // A member's own style of the same name is theirs to use instead.
    expect(
      await styles(member2, 'save', [
        { name: 'name', type: 3, value: 'house' },
        { name: 'suffix', type: 3, value: 'my own house style' },
      ]),
    ).toContain('house');
    const own = h.discord.slash(
      'imagine',
      [
        { name: 'prompt', type: 3, value: 'a shed' },
        { name: 'preset', type: 3, value: 'house' },
      ],
      { user: member2 },
    );
    await own.waitFor((x) => resultPost(x) !== undefined);
    expect(h.gateway.imageRequests().at(-1)?.json).toMatchObject({ prompt: 'a shed\nmy own house style' });
  });

  it('refuses a bad name and a save without images or suffix, before anything is downloaded', async () => {
    const user = h.discord.fixtures.users.vip;
    expect(
      await styles(user, 'save', [
        { name: 'name', type: 3, value: 'no/slashes' },
        { name: 'suffix', type: 3, value: 'x' },
      ]),
    ).toContain('1 to 32');
    expect(await styles(user, 'save', [{ name: 'name', type: 3, value: 'empty' }])).toContain('at least one image');
  });
});
