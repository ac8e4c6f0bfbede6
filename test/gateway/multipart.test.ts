/**
 * The edit form: its image parts are the service's own Buffers (no copy per image), its declared length is exact,
 * and its parts come in order: fields, images, mask. (The gateway emulator parses it with busboy and validates it
 * against the official spec in the emulator tests.)
 */
import { describe, expect, it } from 'vitest';
import { buildEditForm } from '../../src/gateway/multipart.js';
import { makeImage } from './fixtures.js';

describe('buildEditForm', () => {
  it('sends each image as the very Buffer it was given, with an exact length, and parses as a form', async () => {
    const [first, second, mask] = await Promise.all([makeImage('png'), makeImage('webp'), makeImage('png')]);
    const params = new Map<string, string | number | boolean>([
      ['prompt', 'make it blue'],
      ['n', 2],
    ]);
    const form = buildEditForm(params, [{ bytes: first, filename: 'a photo.png' }, { bytes: second }], { bytes: mask, filename: 'm.png' });

    expect(form.chunks.filter((chunk) => chunk === first || chunk === second || chunk === mask)).toHaveLength(3);
    const body = Buffer.concat(form.chunks);
    expect(form.length).toBe(body.length);

    const text = body.toString('latin1');
    const boundary = form.contentType.replace(/^multipart\/form-data; boundary=/, '');
    expect(text.startsWith(`--${boundary}\r\nContent-Disposition: form-data; name="prompt"\r\n\r\nmake it blue\r\n`)).toBe(true);
    expect(text).toContain('name="n"\r\n\r\n2\r\n');
    expect(text).toContain('name="image[]"; filename="a_photo.png"\r\nContent-Type: image/png\r\n');
    expect(text).toContain('name="image[]"; filename="image-2.webp"\r\nContent-Type: image/webp\r\n');
    expect(text).toContain('name="mask"; filename="m.png"\r\nContent-Type: image/png\r\n');
    expect(text.endsWith(`--${boundary}--\r\n`)).toBe(true);
  });
});
