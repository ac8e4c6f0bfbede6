/**
 * The chat client against the gateway emulator over real sockets: plain and streamed answers, a vision input as a
 * data URL (validated against the official spec), the error presets classified like the image endpoints, one
 * retry on busy and none on anything else, the deadline, and nothing secret or private in its logs.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from 'undici';
import { createGatewayAgent } from '../../src/gateway/agent.js';
import { ChatClient, type ChatClientOptions } from '../../src/gateway/chat-client.js';
import type { ChatCompletionRequest } from '../../src/ports/prompt-model.js';
import { startGatewayEmulator, type GatewayEmulator } from '../emulators/gateway/index.js';
import { failure, makeImage, recordingSleep, silentLogger } from './fixtures.js';
import { specTest } from '../support/openapi.js';

let gw: GatewayEmulator;
let agent: Agent;

beforeEach(async () => {
  gw = await startGatewayEmulator();
  agent = createGatewayAgent({ connectTimeoutMs: 2_000, headersTimeoutMs: 20_000, bodyTimeoutMs: 20_000 });
});

afterEach(async () => {
  await agent.close();
  await gw.close();
});

function chat(extra: Partial<ChatClientOptions> = {}): { client: ChatClient; waits: number[] } {
  const { sleep, waits } = recordingSleep();
  const client = new ChatClient({ baseUrl: gw.baseUrl, apiKey: gw.apiKey, dispatcher: agent, logger: silentLogger, sleep, random: () => 0, ...extra });
  return { client, waits };
}

const request = (prompt = 'a cat'): ChatCompletionRequest => ({
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'Rewrite the prompt.' },
    { role: 'user', content: prompt },
  ],
  maxTokens: 200,
});

describe('ChatClient against the emulator', () => {
  it('sends a spec-valid chat request with max_tokens and reads a plain answer with its usage', async () => {
    gw.enqueueChat({ type: 'success', content: 'a fluffy cat at dawn' });
    const answer = await chat().client.complete(request());
    expect(answer.text).toBe('a fluffy cat at dawn');
    expect(answer.model).toBe('gpt-4o-mini');
    expect(answer.usage?.outputTokens).toBeGreaterThan(0);
    expect(answer.requestId).toMatch(/\w/);
    const [sent] = gw.chatRequests();
    expect(sent?.json).toMatchObject({ model: 'gpt-4o-mini', max_tokens: 200, messages: [{ role: 'system' }, { role: 'user', content: 'a cat' }] });
    expect(sent?.headers['authorization']).toBe(`Bearer ${gw.apiKey}`);
    expect(gw.specViolations).toEqual([]);
  });

  it('reads a streamed answer, its deltas joined and its usage chunk', async () => {
    gw.enqueueChat({ type: 'success', content: 'a cat in a hat, oil painting' });
    const answer = await chat({ stream: true }).client.complete(request());
    expect(answer.text).toBe('a cat in a hat, oil painting');
    expect(answer.usage?.totalTokens).toBeGreaterThan(0);
    expect(gw.chatRequests()[0]?.json).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(gw.specViolations).toEqual([]);
  });

  it('reads a stream the gateway sends though none was asked', async () => {
    gw.enqueueChat({ type: 'success', content: 'streamed anyway', forceStream: true });
    expect((await chat().client.complete(request())).text).toBe('streamed anyway');
  });

  it('sends an image as a data URL that the official spec accepts', async () => {
    const png = await makeImage('png');
    const url = `data:image/png;base64,${png.toString('base64')}`;
    const answer = await chat().client.complete({
      model: 'gpt-4o-mini',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Describe it' },
            { type: 'image_url', image_url: { url } },
          ],
        },
      ],
      maxTokens: 300,
    });
    expect(answer.text).toContain('description');
    expect(gw.specViolations).toEqual([]);
  });

  // The emulator refuses such a body only when it validates against the official spec (absent in a bare clone).
  const spec = specTest('openai', 'is refused by the emulator for a body the spec does not accept');
  it.skipIf(spec.skip)(spec.title, async () => {
    const bad = { ...request(), messages: [] };
    const err = await failure(chat().client.complete(bad));
    expect(err.category).toBe('bad_parameter');
    expect(gw.specViolations.join('\n')).toMatch(/messages/);
  });

  it('retries once when the gateway is busy, then answers', async () => {
    gw.enqueueChat({ type: 'error', preset: 'rate_limited', retryAfter: '1' }, { type: 'success', content: 'after the wait' });
    const { client, waits } = chat();
    expect((await client.complete(request())).text).toBe('after the wait');
    expect(waits).toEqual([1_000]);
    expect(gw.chatRequests()).toHaveLength(2);
    const keys = gw.chatRequests().map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toBe(keys[1]);
  });

  it('retries busy only once', async () => {
    gw.enqueueChat({ type: 'error', preset: 'saturated' }, { type: 'error', preset: 'saturated' }, { type: 'success' });
    const err = await failure(chat().client.complete(request()));
    expect(err.category).toBe('busy');
    expect(gw.chatRequests()).toHaveLength(2);
  });

  it.each([
    ['balance', 'balance_exhausted'],
    ['invalid_key', 'invalid_key'],
    ['moderation', 'content_rejected'],
    ['gateway_timeout_504', 'timed_out'],
    ['server_error', 'gateway_failure'],
  ] as const)('classifies the %s preset as %s and does not retry it', async (preset, category) => {
    gw.enqueueChat({ type: 'error', preset });
    const err = await failure(chat().client.complete(request()));
    expect(err.category).toBe(category);
    expect(err.requestId).toMatch(/\w/);
    expect(gw.chatRequests()).toHaveLength(1);
  });

  it('fails on an unknown model, a stream error event, a malformed body and a reset', async () => {
    expect((await failure(chat().client.complete({ ...request(), model: 'no-such-model' }))).category).toBe('unknown_model');
    gw.enqueueChat({ type: 'stream-error', sseFraming: 'bare' }, { type: 'malformed' }, { type: 'reset' });
    expect((await failure(chat({ stream: true }).client.complete(request()))).category).toBe('gateway_failure');
    expect((await failure(chat().client.complete(request()))).category).toBe('gateway_failure');
    expect((await failure(chat({ maxRetries: 0 }).client.complete(request()))).category).toBe('gateway_failure');
  });

  it('gives up at its deadline', async () => {
    gw.enqueueChat({ type: 'success', delayMs: 5_000 });
    const err = await failure(chat({ deadlineMs: 200 }).client.complete(request()));
    expect(err.category).toBe('timed_out');
  });

  it('logs neither the key nor the messages', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = pino({ level: 'debug' }, sink);
    gw.enqueueChat({ type: 'success', content: 'secret answer text' }, { type: 'error', preset: 'invalid_key' });
    const { client } = chat({ logger });
    await client.complete(request('my private prompt'));
    await failure(client.complete(request('my private prompt')));
    const log = lines.join('');
    expect(log).toContain('chat completion done');
    expect(log).toContain('chat request failed');
    expect(log).not.toContain(gw.apiKey);
    expect(log).not.toContain('my private prompt');
    expect(log).not.toContain('secret answer text');
  });
});
