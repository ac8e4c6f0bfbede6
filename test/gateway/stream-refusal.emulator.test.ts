/**
 * A relay that cannot stream: a 400 naming `stream` or `partial_images` is retried once without streaming, and the
 * model is then asked without streaming for an hour.
 */
import type { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayClient, GatewayClientOptions } from '../../src/gateway/gateway-client.js';
import { startGatewayEmulator, type GatewayEmulator, type GatewayEmulatorOptions } from '../emulators/gateway/index.js';
import { clientFor } from './fixtures.js';
import { finalResult } from '../support/image-stream.js';

let gw: GatewayEmulator;
let agent: Agent;

async function setup(options: GatewayEmulatorOptions = {}, extra: Partial<GatewayClientOptions> = {}): Promise<GatewayClient> {
  gw = await startGatewayEmulator(options);
  const made = clientFor(gw, extra);
  agent = made.agent;
  return made.client;
}

afterEach(async () => {
  expect(gw.specViolations).toEqual([]);
  await agent.close();
  await gw.close();
});

const streamed = { stream: true, partialImages: 1 } as const;
const sentStream = () => gw.imageRequests().map((r) => r.json?.['stream'] ?? false);

describe('a gateway that refuses streaming', () => {
  it('gets the request again without streaming, then asks that model without it for an hour', async () => {
    let now = 0;
    const client = await setup({ unsupportedParams: ['stream'] }, { clock: { now: () => now } });
    const first = await finalResult(client.generate({ prompt: 'p' }, streamed));
    expect(first.images).toHaveLength(1);
    expect(first.droppedParams).toEqual(['stream', 'partial_images']);
    expect(sentStream()).toEqual([true, false]);

    await finalResult(client.generate({ prompt: 'again' }, streamed));
    expect(sentStream()).toEqual([true, false, false]);
    // Another model is still asked to stream.
    await finalResult(client.generate({ prompt: 'other', model: 'gpt-image-2' }, streamed));
    expect(sentStream()).toEqual([true, false, false, true, false]);

    now += 3_600_001;
    await finalResult(client.generate({ prompt: 'an hour later' }, streamed));
    expect(sentStream()).toEqual([true, false, false, true, false, true, false]);
  });

  it('drops streaming on a 400 naming partial_images, whatever its wording', async () => {
    const client = await setup();
    const body = JSON.stringify({
      error: { message: 'Streaming previews are not available here', type: 'invalid_request_error', param: 'partial_images', code: 'invalid_value' },
    });
    gw.enqueue({ type: 'raw', status: 400, headers: { 'content-type': 'application/json' }, body });
    const result = await finalResult(client.generate({ prompt: 'p' }, streamed));
    expect(result.images).toHaveLength(1);
    expect(gw.imageRequests().map((r) => [r.json?.['stream'], r.json?.['partial_images']])).toEqual([
      [true, 1],
      [undefined, undefined],
    ]);
  });
});
