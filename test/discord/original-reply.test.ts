/**
 * The interaction-webhook REST client: Discord does not count interaction webhooks against the bot's global rate
 * limit, so a burst of result edits must not be held back by discord.js's 50-per-second global limiter.
 * Counted through the limiter's own 'rateLimited' events, not timed.
 */
import { REST, RESTEvents, Routes, type RateLimitData } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscordRestAgent } from '../../src/discord/rest-agent.js';
import { createInteractionWebhookRest } from '../../src/discord/original-reply.js';
import { startDiscordEmulator, type DiscordEmulator } from '../emulators/discord/index.js';

let emulator: DiscordEmulator;
const agent = createDiscordRestAgent();

beforeAll(async () => {
  emulator = await startDiscordEmulator({ log: false });
});
afterAll(async () => {
  await (emulator as DiscordEmulator | undefined)?.close();
  await agent.close();
});

/** Sends `count` edits of different interactions' replies at once; returns the global rate-limit events seen. */
async function globalLimitsDuringBurst(rest: REST, count: number): Promise<RateLimitData[]> {
  const limited: RateLimitData[] = [];
  rest.on(RESTEvents.RateLimited, (data) => {
    if (data.global) limited.push(data);
  });
  const edits = Array.from({ length: count }, (_, i) =>
    rest
      .patch(Routes.webhookMessage(emulator.applicationId, `unknown-token-${i}`, '@original'), { body: { content: 'done' }, auth: false })
      .catch(() => undefined),
  );
  await Promise.all(edits);
  rest.clearHashSweeper();
  rest.clearHandlerSweeper();
  return limited;
}

describe('createInteractionWebhookRest', () => {
  it('sends 60 reply edits at once without waiting on a global limit', async () => {
    const rest = createInteractionWebhookRest({ api: emulator.apiUrl, agent });
    expect(await globalLimitsDuringBurst(rest, 60)).toEqual([]);
  });

  it("where discord.js's default client would hold some back (the control)", async () => {
    const rest = new REST({ api: emulator.apiUrl, agent });
    expect((await globalLimitsDuringBurst(rest, 60)).length).toBeGreaterThan(0);
  });
});
