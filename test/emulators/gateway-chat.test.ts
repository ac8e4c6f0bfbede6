/**
 * The emulator's chat completions: the official spec checks every body (vision parts included), image parts must be
 * data URLs of images, the model must be listed, and scripted answers come plain or streamed (new-api's framing,
 * with the usage chunk and [DONE]).
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specTest } from '../support/openapi.js';
import { startGatewayEmulator, type GatewayEmulator } from './gateway/index.js';

let gateway: GatewayEmulator;

beforeAll(async () => {
  gateway = await startGatewayEmulator();
});

afterAll(async () => {
  await gateway.close();
});

async function chat(body: Record<string, unknown>): Promise<{ status: number; text: string; type: string }> {
  const res = await fetch(`${gateway.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') ?? '' };
}

const user = (content: unknown) => ({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] });

describe('the emulated chat completions', () => {
  it('answers a scripted text plainly, with usage', async () => {
    gateway.enqueueChat({ type: 'success', content: 'hello there' });
    const { status, text } = await chat({ ...user('hi'), max_tokens: 50 });
    expect(status).toBe(200);
    expect(JSON.parse(text)).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { role: 'assistant', content: 'hello there' } }],
      usage: { total_tokens: expect.any(Number) as number },
    });
  });

  it('streams when asked: chunks, a usage chunk and [DONE]', async () => {
    gateway.enqueueChat({ type: 'success', content: 'one two three' });
    const { status, text, type } = await chat({ ...user('hi'), stream: true, stream_options: { include_usage: true } });
    expect(status).toBe(200);
    expect(type).toContain('text/event-stream');
    const chunks = text
      .split('\n')
      .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
      .map((line) => JSON.parse(line.slice(6)) as { choices: { delta?: { content?: string } }[]; usage?: unknown });
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('one two three');
    expect(chunks.at(-1)?.usage).toBeDefined();
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('takes an image as a data URL, and refuses a link or bytes that are not an image', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const image = (url: string) =>
      user([
        { type: 'text', text: 'what is this?' },
        { type: 'image_url', image_url: { url } },
      ]);
    expect((await chat(image(`data:image/png;base64,${png.toString('base64')}`))).status).toBe(200);
    const link = await chat(image('https://cdn.example.test/a.png'));
    expect(link.status).toBe(400);
    expect(link.text).toContain('data URL');
    expect((await chat(image(`data:image/png;base64,${Buffer.from('not an image').toString('base64')}`))).status).toBe(400);
  });

  it('answers an unlisted model with the unknown_model preset, and a missing key with 401', async () => {
    expect((await chat({ ...user('hi'), model: 'no-such-chat-model' })).status).toBe(503);
    const res = await fetch(`${gateway.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(user('hi')),
    });
    expect(res.status).toBe(401);
  });

  const spec = specTest('openai', 'flags a body the official spec refuses, and records it');
  it.skipIf(spec.skip)(spec.title, async () => {
    const before = gateway.specViolations.length;
    const { status, text } = await chat({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }] });
    expect(status).toBe(400);
    expect(text).toContain('Invalid request');
    expect(gateway.specViolations.length).toBeGreaterThan(before);
  });
});
