/**
 * Test helper: a real discord.js Client logged in to an emulator, with a swappable interaction handler so one client
 * can serve many tests. Handler errors are kept for the test to rethrow.
 */
import { Client, Events, GatewayIntentBits, type Interaction } from 'discord.js';
import type { DiscordEmulator } from './index.js';

export interface HarnessedClient {
  readonly client: Client<true>;
  /** Sets what the client does with the next interactions. */
  onInteraction(handler: (interaction: Interaction) => Promise<unknown>): void;
  /** Errors the handler threw, in order (each also logged). */
  readonly handlerErrors: unknown[];
  destroy(): Promise<void>;
}

/** Logs a real discord.js client in to the emulator and waits for clientReady. */
export async function connectClient(emulator: DiscordEmulator): Promise<HarnessedClient> {
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: emulator.apiUrl } });
  const handlerErrors: unknown[] = [];
  let handler: (interaction: Interaction) => Promise<unknown> = async () => undefined;
  client.on(Events.InteractionCreate, (interaction) => {
    handler(interaction).catch((err: unknown) => handlerErrors.push(err));
  });
  const ready = new Promise<Client<true>>((resolve) => client.once(Events.ClientReady, resolve));
  await client.login(emulator.token);
  const readyClient = await ready;
  return {
    client: readyClient,
    onInteraction: (next) => {
      handler = next;
    },
    handlerErrors,
    destroy: () => client.destroy(),
  };
}
