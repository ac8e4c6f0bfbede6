/**
 * Usage in every shape gateways send, read from real answers (JSON and streams) and normalised.
 */
import type { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayClient } from '../../src/gateway/gateway-client.js';
import { startGatewayEmulator, type GatewayEmulator, type SuccessBehaviour } from '../emulators/gateway/index.js';
import { clientFor } from './fixtures.js';
import { finalResult } from '../support/image-stream.js';

let gw: GatewayEmulator;
let agent: Agent;

async function setup(): Promise<GatewayClient> {
  gw = await startGatewayEmulator();
  const made = clientFor(gw);
  agent = made.agent;
  return made.client;
}

afterEach(async () => {
  expect(gw.specViolations).toEqual([]);
  await agent.close();
  await gw.close();
});

// The emulator's usage for a 1024x1024 low-quality image from a 1-word prompt: 1 text token in, 272 out.
const TOKENS = { inputTokens: 1, outputTokens: 272, totalTokens: 273 };

describe('usage in every shape', () => {
  it.each<[string, Partial<SuccessBehaviour>, Record<string, number>]>([
    ['OpenAI with input_tokens_details', { usageShape: 'details' }, { ...TOKENS, inputTextTokens: 1, inputImageTokens: 0 }],
    ['OpenAI without details', { usageShape: 'plain' }, TOKENS],
    ['the chat shape', { usageShape: 'chat' }, { ...TOKENS, inputTextTokens: 1, inputImageTokens: 0 }],
    ['usage.cost in USD', { usageShape: 'cost' }, { ...TOKENS, inputTextTokens: 1, inputImageTokens: 0, costUsd: 0.0421 }],
    ['usage.cost_in_usd_ticks', { usageShape: 'ticks' }, { ...TOKENS, inputTextTokens: 1, inputImageTokens: 0, costUsd: 0.0421 }],
    ['the x-litellm-response-cost header', { usageShape: 'plain', headers: { 'x-litellm-response-cost': '0.0375' } }, { ...TOKENS, costUsd: 0.0375 }],
  ])('normalises %s', async (_name, behaviour, expected) => {
    const client = await setup();
    for (const stream of [false, true]) {
      gw.enqueue({ type: 'success', ...behaviour });
      const result = await finalResult(
        client.generate({ prompt: 'p', size: { width: 1024, height: 1024 }, quality: 'low' }, { stream, partialImages: stream ? 1 : undefined }),
      );
      expect(result.usage).toEqual(expected);
    }
  });

  it('reports no usage when the answer has none', async () => {
    const client = await setup();
    gw.enqueue({ type: 'success', omitUsage: true });
    expect((await finalResult(client.generate({ prompt: 'p' }))).usage).toBeUndefined();
  });
});
