/**
 * discord.js sends its REST requests with its own copy of undici (6.x), while the bot uses undici 7. Both copies
 * share one process-wide default dispatcher, and whichever loads first installs it; an undici-7 Agent handed an
 * undici-6 multipart body fails ("action is not a function"). So discord.js gets an explicit Agent from its own
 * undici, and requests the bot sends on discord.js's behalf (see original-reply.ts) use that undici's request(),
 * so the bot never depends on module load order.
 */
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import type { ResponseLike, RESTOptions } from 'discord.js';

interface ClosableAgent {
  close(): Promise<void>;
  destroy(): Promise<void>;
}

/** The parts of @discordjs/rest's undici the bot uses; typed here since it is not the bot's own undici. */
export interface RestUndici {
  Agent: new (options?: object) => NonNullable<RESTOptions['agent']> & ClosableAgent;
  /** Its Headers class: the one a discord.js response's `headers` is an instance of (not the global Headers). */
  Headers: new () => ResponseLike['headers'];
  request: (
    url: string,
    options: object,
  ) => Promise<{
    statusCode: number;
    headers: Record<string, string | string[] | undefined>;
    body: Readable & { arrayBuffer(): Promise<ArrayBuffer>; json(): Promise<unknown>; text(): Promise<string>; bodyUsed: boolean };
  }>;
}

/** The undici that @discordjs/rest itself resolves, loaded once with this module (nothing mutable is kept). */
const REST_UNDICI = ((): RestUndici => {
  const fromHere = createRequire(import.meta.url);
  const fromDiscordJs = createRequire(fromHere.resolve('discord.js'));
  const fromRest = createRequire(fromDiscordJs.resolve('@discordjs/rest'));
  return fromRest('undici') as RestUndici;
})();

/** The undici that @discordjs/rest itself resolves. */
export function restUndici(): RestUndici {
  return REST_UNDICI;
}

/** An Agent from the undici that @discordjs/rest itself resolves. */
export function createDiscordRestAgent(): NonNullable<RESTOptions['agent']> & ClosableAgent {
  return new (restUndici().Agent)({ connect: { timeout: 30_000 } });
}
