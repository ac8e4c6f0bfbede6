/**
 * GatewayClient on an undici MockAgent injected as its dispatcher (STYLE §10), plus what it writes to the log.
 * The over-the-socket behaviour is proved against the emulator in the *.emulator.test.ts files.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MockAgent } from 'undici';
import { GatewayClient, type GatewayClientOptions } from '../../src/gateway/gateway-client.js';
import { makeImage, recordingSleep, silentLogger, failure } from './fixtures.js';
import { finalResult } from '../support/image-stream.js';

const ORIGIN = 'https://gateway.test';
const KEY = 'sk-secret-key-1234567890';
let mock: MockAgent;
let waits: number[];

function client(extra: Partial<GatewayClientOptions> = {}): GatewayClient {
  const sleep = recordingSleep();
  waits = sleep.waits;
  return new GatewayClient({
    baseUrl: `${ORIGIN}/v1/`,
    apiKey: KEY,
    dispatcher: mock,
    defaultModel: 'gpt-image-1',
    logger: silentLogger,
    sleep: sleep.sleep,
    random: () => 0,
    ...extra,
  });
}

beforeEach(() => {
  mock = new MockAgent();
  mock.disableNetConnect();
});

afterEach(async () => {
  mock.assertNoPendingInterceptors();
  await mock.close();
});

const json = { 'content-type': 'application/json' };

describe('GatewayClient over MockAgent', () => {
  it('sends the key and an idempotency key and decodes b64_json', async () => {
    const png = await makeImage('png', 20, 10);
    let seen: Record<string, string> = {};
    mock
      .get(ORIGIN)
      .intercept({ path: '/v1/images/generations', method: 'POST' })
      .reply((opts) => {
        seen = opts.headers as Record<string, string>;
        return {
          statusCode: 200,
          data: JSON.stringify({ created: 1, data: [{ b64_json: png.toString('base64') }] }),
          responseOptions: { headers: { ...json, 'x-request-id': 'req_abc' } },
        };
      });
    const result = await finalResult(client().generate({ prompt: 'p' }));
    expect(seen['authorization']).toBe(`Bearer ${KEY}`);
    expect(seen['idempotency-key']).toBeTruthy();
    expect(result).toMatchObject({ requestId: 'req_abc', model: 'gpt-image-1', droppedParams: [] });
    expect(result.images[0]).toMatchObject({ format: 'png', width: 20, height: 10 });
    expect(result.images[0]?.bytes.equals(png)).toBe(true);
  });

  it('classifies a 400 content-policy answer', async () => {
    mock
      .get(ORIGIN)
      .intercept({ path: '/v1/images/generations', method: 'POST' })
      .reply(
        400,
        {
          error: {
            message: 'Your request was rejected as a result of our safety system.',
            type: 'invalid_request_error',
            param: null,
            code: 'content_policy_violation',
          },
        },
        { headers: json },
      );
    expect(await failure(finalResult(client().generate({ prompt: 'p' })))).toMatchObject({
      category: 'content_rejected',
      status: 400,
      code: 'content_policy_violation',
    });
  });

  it('waits out a 429 with Retry-After, then succeeds', async () => {
    const png = await makeImage('png');
    const pool = mock.get(ORIGIN);
    pool.intercept({ path: '/v1/images/generations', method: 'POST' }).reply(429, '', { headers: { 'retry-after': '2' } });
    pool
      .intercept({ path: '/v1/images/generations', method: 'POST' })
      .reply(200, { created: 1, data: [{ b64_json: png.toString('base64') }] }, { headers: json });
    await finalResult(client().generate({ prompt: 'p' }));
    expect(waits).toEqual([2000]);
  });

  it('retries a 503, then succeeds', async () => {
    const png = await makeImage('png');
    const pool = mock.get(ORIGIN);
    pool
      .intercept({ path: '/v1/images/generations', method: 'POST' })
      .reply(503, { error: { message: 'overloaded', type: 'server_error' } }, { headers: json });
    pool
      .intercept({ path: '/v1/images/generations', method: 'POST' })
      .reply(200, { created: 1, data: [{ b64_json: png.toString('base64') }] }, { headers: json });
    expect((await finalResult(client().generate({ prompt: 'p' }))).images).toHaveLength(1);
    expect(waits).toEqual([500]);
  });

  it('retries a refused connection', async () => {
    const png = await makeImage('png');
    const pool = mock.get(ORIGIN);
    pool
      .intercept({ path: '/v1/images/generations', method: 'POST' })
      .replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    pool
      .intercept({ path: '/v1/images/generations', method: 'POST' })
      .reply(200, { created: 1, data: [{ b64_json: png.toString('base64') }] }, { headers: json });
    await finalResult(client().generate({ prompt: 'p' }));
    expect(waits).toEqual([500]);
  });

  it('does not retry a reset after sending', async () => {
    mock
      .get(ORIGIN)
      .intercept({ path: '/v1/images/generations', method: 'POST' })
      .replyWithError(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }));
    expect(await failure(finalResult(client().generate({ prompt: 'p' })))).toMatchObject({ category: 'gateway_failure', code: 'UND_ERR_SOCKET' });
    expect(waits).toEqual([]);
  });

  it('times out at the deadline', async () => {
    mock.get(ORIGIN).intercept({ path: '/v1/images/generations', method: 'POST' }).reply(200, {}).delay(5_000);
    expect((await failure(finalResult(client({ deadlineMs: 50 }).generate({ prompt: 'p' })))).category).toBe('timed_out');
  });
});

describe('logging', () => {
  it('logs request ids and statuses, never the key or image bytes', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = pino({ level: 'debug' }, sink);
    const png = await makeImage('png');
    const b64 = png.toString('base64');
    const pool = mock.get(ORIGIN);
    pool.intercept({ path: '/v1/images/generations', method: 'POST' }).reply(429, '', { headers: { 'x-oneapi-request-id': 'rid-1' } });
    pool
      .intercept({ path: '/v1/images/generations', method: 'POST' })
      .reply(200, { created: 1, data: [{ b64_json: b64 }] }, { headers: { ...json, 'x-oneapi-request-id': 'rid-2' } });
    pool
      .intercept({ path: '/v1/images/generations', method: 'POST' })
      .reply(
        401,
        { error: { message: `Incorrect API key provided: ${KEY}`, code: 'invalid_api_key' } },
        { headers: { ...json, 'x-oneapi-request-id': 'rid-3' } },
      );
    const c = client({ logger });
    await finalResult(c.generate({ prompt: 'p' }));
    await failure(finalResult(c.generate({ prompt: 'p' })));
    const text = lines.join('');
    expect(text).toContain('rid-1');
    expect(text).toContain('rid-2');
    expect(text).toContain('rid-3');
    expect(text).not.toContain(b64.slice(0, 40));
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(
      expect.arrayContaining(['gateway responded', 'gateway request retried', 'image request completed', 'image request failed']),
    );
    // The gateway echoed the key in its message; it must not reach the log verbatim.
    expect(text).not.toContain(KEY);
  });
});
