/**
 * discord.js sends its REST requests with its own copy of undici (6.x), while the bot uses undici 7. Both copies
 * share one process-wide default dispatcher, and whichever loads first installs it; an undici-7 Agent handed an
 * undici-6 multipart body fails ("action is not a function"). So discord.js gets an explicit Agent from its own
 * undici, and the bot never depends on module load order.
 */
import { createRequire } from 'node:module';
import type { RESTOptions } from 'discord.js';

interface ClosableAgent {
  close(): Promise<void>;
}

/** An Agent from the undici that @discordjs/rest itself resolves. */
export function createDiscordRestAgent(): NonNullable<RESTOptions['agent']> & ClosableAgent {
  const fromHere = createRequire(import.meta.url);
  const fromDiscordJs = createRequire(fromHere.resolve('discord.js'));
  const fromRest = createRequire(fromDiscordJs.resolve('@discordjs/rest'));
  const { Agent } = fromRest('undici') as { Agent: new (options?: object) => NonNullable<RESTOptions['agent']> & ClosableAgent };
  return new Agent({ connect: { timeout: 30_000 } });
}
