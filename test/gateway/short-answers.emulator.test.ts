/**
 * Fewer images than asked, through the client over real sockets: every answer form (plain JSON, an event stream, a
 * task) yields the images that came back, neither failing nor waiting for the missing ones; the service charges them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from 'undici';
import { startGatewayEmulator, type GatewayEmulator, type SuccessBehaviour } from '../emulators/gateway/index.js';
import { clientFor } from './fixtures.js';
import { finalResult } from '../support/image-stream.js';

let gw: GatewayEmulator;
let agent: Agent;

afterEach(async () => {
  expect(gw.specViolations).toEqual([]);
  await agent.close();
  await gw.close();
});

async function generateThree(behaviour: SuccessBehaviour, stream = false) {
  gw = await startGatewayEmulator();
  const made = clientFor(gw, { taskPollMs: 1 });
  agent = made.agent;
  gw.enqueue(behaviour);
  return finalResult(made.client.generate({ prompt: 'three lighthouses', n: 3, quality: 'low' }, { stream, partialImages: stream ? 1 : undefined }));
}

describe('fewer images than asked', () => {
  it.each<[string, SuccessBehaviour, boolean]>([
    ['plain JSON', { type: 'success', imageCount: 1 }, false],
    ['an event stream', { type: 'success', imageCount: 1 }, true],
    ['a task', { type: 'success', imageCount: 1, asTask: 'tasks-result', taskPolls: 0 }, false],
  ])('yields the one image of %s answering n=3', async (_name, behaviour, stream) => {
    const result = await generateThree(behaviour, stream);
    expect(result.images).toHaveLength(1);
    expect(gw.imageRequests()).toHaveLength(1);
  });

  it('yields the two images a fan-out relay aggregated when one of its three calls failed, with their summed usage', async () => {
    const result = await generateThree({ type: 'success', fanOut: { failed: 1 } });
    expect(result.images).toHaveLength(2);
    const single = await (async () => {
      const { client, agent: second } = clientFor(gw);
      try {
        return await finalResult(client.generate({ prompt: 'three lighthouses', n: 1, quality: 'low' }));
      } finally {
        await second.close();
      }
    })();
    expect(result.usage?.inputTokens).toBe((single.usage?.inputTokens ?? 0) * 2);
    expect(result.usage?.outputTokens).toBe((single.usage?.outputTokens ?? 0) * 2);
  });
});
