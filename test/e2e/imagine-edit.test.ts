import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { acceptedAcks, ephemeralError, resultPost, settled, textOf, customIds } from './support.js';

async function png(width: number, height: number, color: string, alpha = false): Promise<Buffer> {
  return sharp({ create: { width, height, channels: alpha ? 4 : 3, background: color } })
    .png()
    .toBuffer();
}

describe('/imagine, /edit and Edit image end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { GATEWAY_PARTIAL_IMAGES: '1', PROGRESS_INTERVAL_MS: '50' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  it('delivers images of the requested format and size with a caption naming prompt, model, size and quality', async () => {
    const handle = h.discord.slash(
      'imagine',
      [
        { name: 'prompt', type: 3, value: 'a red fox' },
        { name: 'size', type: 3, value: '1536x1024' },
        { name: 'format', type: 3, value: 'jpeg' },
        { name: 'quality', type: 3, value: 'low' },
        { name: 'count', type: 4, value: 2 },
      ],
      { user: h.discord.fixtures.member },
    );
    await handle.waitFor((x) => resultPost(x) !== undefined);
    const final = resultPost(handle)!;
    expect(final.files).toHaveLength(2);
    for (const file of final.files) {
      const meta = await sharp(file.bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1536, 1024]);
      expect(file.filename).toMatch(/^a-red-fox-\d\.jpe?g$/);
      expect(file.contentType).toBe('image/jpeg');
    }
    // The upload body is built by the bot (reply-upload.ts): each file is declared in payload_json.
    expect(final.payload!.attachments).toMatchObject([
      { id: '0', description: 'a red fox' },
      { id: '1', description: 'a red fox' },
    ]);
    expect(textOf(final.payload)).toContain('a red fox');
    expect(textOf(final.payload)).toContain('gpt-image-2 · 1536×1024 · low quality');
    // Two images: U1 and U2 pick one, then Re-roll, Edit and Delete.
    expect(customIds(final.payload).map((id) => id.split(':')[0])).toEqual(['act', 'act', 'reroll', 'editres', 'delres']);
    expect(acceptedAcks(handle)).toBe(1);
    const sent = h.gateway.imageRequests().at(-1)!.json!;
    expect(sent).toMatchObject({
      model: 'gpt-image-2',
      prompt: 'a red fox',
      size: '1536x1024',
      output_format: 'jpeg',
      quality: 'low',
      n: 2,
      stream: true,
      partial_images: 1,
    });
    expect(sent).not.toHaveProperty('response_format');
  });

  it('shows the streamed partial image as a preview before the result', async () => {
    // A slow stream: the emulator sends its partial image early and the final one at the end of the delay.
    h.gateway.enqueue({ type: 'success', delayMs: 1_500 });
    const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'preview please' }], { user: h.discord.fixtures.users.member2 });
    await handle.waitFor((x) => resultPost(x) !== undefined);
    const preview = handle.edits.find((e) => e.files.some((f) => f.filename.startsWith('preview.')));
    expect(textOf(preview?.payload)).toContain('preview');
    // An embed's image, which an edit may upload (a V2 gallery's may not: discord-api-docs#7529).
    expect(preview!.payload!.embeds?.[0]?.image?.url).toMatch(/^attachment:\/\/preview\./);
    expect(preview!.receivedAt).toBeLessThan(resultPost(handle)!.receivedAt);
  });

  it('sends the exact attachment bytes to the gateway as image[] parts in option order, with the mask', async () => {
    const first = await png(64, 64, '#ff0000');
    const second = await png(32, 48, '#00ff00');
    const mask = await png(64, 64, '#00000000', true);
    const a = h.discord.uploadAttachment(first, 'first.png', 'image/png');
    const b = h.discord.uploadAttachment(second, 'second.png', 'image/png');
    const m = h.discord.uploadAttachment(mask, 'mask.png', 'image/png');
    const handle = h.discord.slash(
      'edit',
      [
        { name: 'prompt', type: 3, value: 'combine them' },
        { name: 'image', type: 11, value: a.id },
        { name: 'image2', type: 11, value: b.id },
        { name: 'mask', type: 11, value: m.id },
        { name: 'fidelity', type: 3, value: 'high' },
      ],
      { user: h.discord.fixtures.users.member3, resolvedAttachments: [a, b, m] },
    );
    await handle.waitFor((x) => resultPost(x) !== undefined);
    const form = h.gateway.imageRequests().at(-1)!.form!;
    const images = form.files.filter((f) => f.field === 'image[]');
    expect(images.map((f) => f.bytes.equals(first) || f.bytes.equals(second))).toEqual([true, true]);
    expect(images[0]!.bytes.equals(first)).toBe(true);
    expect(images[1]!.bytes.equals(second)).toBe(true);
    expect(form.files.find((f) => f.field === 'mask')!.bytes.equals(mask)).toBe(true);
    expect(form.fields).toMatchObject({ prompt: 'combine them', input_fidelity: 'high' });
    expect(textOf(resultPost(handle)!.payload)).toContain('Edited for');
    expect(acceptedAcks(handle)).toBe(1);
  });

  it('edits every image of a message through the context menu, ignoring other attachments and saying so', async () => {
    const user = h.discord.fixtures.members[3]!;
    const images = [await png(40, 40, '#123456'), await png(40, 40, '#654321')];
    const target = h.discord.createUserMessage(h.discord.fixtures.guild.channels.general.id, h.discord.fixtures.users.member2, 'look', [
      h.discord.uploadAttachment(images[0]!, 'one.png', 'image/png'),
      h.discord.uploadAttachment(Buffer.from('just text'), 'notes.txt', 'text/plain'),
      h.discord.uploadAttachment(images[1]!, 'two.webp.png', 'image/png'),
    ]);
    const menu = h.discord.messageCommand('Edit image', target, { user });
    const modal = await menu.waitForAck();
    expect(modal.type).toBe(9);
    expect(JSON.stringify(modal.body)).toContain('1 other attachment ignored');
    const submit = h.discord.modalSubmit(modal.body!.data!.custom_id!, { prompt: 'make it night' }, { user });
    await submit.waitFor((x) => resultPost(x) !== undefined);
    const parts = h.gateway
      .imageRequests()
      .at(-1)!
      .form!.files.filter((f) => f.field === 'image[]');
    expect(parts.map((p) => p.bytes)).toEqual(images);
    expect(acceptedAcks(submit)).toBe(1);
  });

  it('answers a message without images clearly and privately', async () => {
    const user = h.discord.fixtures.members[4]!;
    const target = h.discord.createUserMessage(h.discord.fixtures.guild.channels.general.id, user, 'no pictures here', []);
    const handle = h.discord.messageCommand('Edit image', target, { user });
    await handle.waitFor(settled);
    expect(ephemeralError(handle)).toContain('no PNG, JPEG or WebP images');
  });

  it('lists the image models privately', async () => {
    const handle = h.discord.slash('models', [], { user: h.discord.fixtures.member });
    await handle.waitFor((x) => x.edits.some((e) => e.status === 200));
    expect(handle.acks[0]?.flags).toBe(64);
    const text = String(handle.edits.at(-1)?.payload!.content);
    // Without DEFAULT_IMAGE_MODEL the newest GPT image model of the emulator's list is the default, listed first.
    expect(text.indexOf('`gpt-image-2` (default)')).toBeLessThan(text.indexOf('gpt-image-1'));
    expect(text).not.toContain('text-embedding');
  });

  it('answers model and size autocomplete with at most 25 choices', async () => {
    const model = h.discord.autocomplete(
      'imagine',
      [
        { name: 'prompt', type: 3, value: '' },
        { name: 'model', type: 3, value: 'image', focused: true },
      ],
      { user: h.discord.fixtures.member },
    );
    const modelAck = await model.waitForAck();
    expect(modelAck.type).toBe(8);
    const models = modelAck.body!.data!.choices!.map((c) => c.value);
    expect(models[0]).toBe('gpt-image-2');
    expect(models.length).toBeLessThanOrEqual(25);
    const size = h.discord.autocomplete('imagine', [{ name: 'size', type: 3, value: '2048x1152', focused: true }], { user: h.discord.fixtures.member });
    expect((await size.waitForAck()).body!.data!.choices!.map((c) => c.value)).toEqual(['2048x1152']);
    const bad = h.discord.autocomplete('imagine', [{ name: 'size', type: 3, value: '1000x1000', focused: true }], { user: h.discord.fixtures.member });
    expect((await bad.waitForAck()).body!.data!.choices).toEqual([]);
  });

  it('sent nothing the platforms would reject', () => {
    expect(h.discord.specViolations).toEqual([]);
    expect(h.gateway.specViolations).toEqual([]);
  });
});
