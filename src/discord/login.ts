/**
 * Logging in to Discord within a deadline, with failures that name the service, the URL and what happened
 * (refused, unresolvable, silent, bad token) instead of discord.js's bare "This operation was aborted".
 */
import { Events, RESTEvents, type Client } from 'discord.js';
import { formatDuration } from '../durations.js';

/** Discord could not be reached or refused the bot at start; the message is meant for the operator. */
class DiscordStartupError extends Error {
  override readonly name = 'DiscordStartupError';
}

/** What {@link loginWithin} needs besides the client. */
export interface LoginOptions {
  token: string;
  /** DISCORD_API_URL, named in the messages. */
  apiUrl: string;
  /** Deadline for REST discovery, the WebSocket handshake and READY together. */
  timeoutMs: number;
}

/** Logs in and waits for READY; rejects with a {@link DiscordStartupError} naming what failed. */
export async function loginWithin(client: Client, opts: LoginOptions): Promise<void> {
  let restAnswered = false;
  const onResponse = () => {
    restAnswered = true;
  };
  client.rest.on(RESTEvents.Response, onResponse);
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new DiscordStartupError(silenceMessage(opts, restAnswered))), opts.timeoutMs);
  });
  try {
    // The losing branch of the race is still handled by Promise.race, so a late rejection is not unhandled.
    await Promise.race([client.login(opts.token).then(() => ready), deadline]);
  } catch (err) {
    throw err instanceof DiscordStartupError ? err : new DiscordStartupError(describeLoginFailure(err, opts.apiUrl), { cause: err });
  } finally {
    clearTimeout(timer);
    client.rest.off(RESTEvents.Response, onResponse);
  }
}

function silenceMessage(opts: LoginOptions, restAnswered: boolean): string {
  const within = `within ${formatDuration(opts.timeoutMs)} (DISCORD_LOGIN_TIMEOUT_MS)`;
  return restAnswered
    ? `Discord's WebSocket gateway (discovered through ${opts.apiUrl}) did not send READY ${within}`
    : `Discord API at ${opts.apiUrl} did not answer ${within}`;
}

const NETWORK_FAILURES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'refused the connection (ECONNREFUSED)',
  ECONNRESET: 'closed the connection (ECONNRESET)',
  ENOTFOUND: 'could not be resolved (ENOTFOUND): check DISCORD_API_URL and DNS',
  EAI_AGAIN: 'could not be resolved (EAI_AGAIN): check DNS',
  EHOSTUNREACH: 'is unreachable (EHOSTUNREACH)',
  ENETUNREACH: 'is unreachable (ENETUNREACH)',
  UND_ERR_CONNECT_TIMEOUT: 'did not accept a connection (UND_ERR_CONNECT_TIMEOUT)',
  CERT_HAS_EXPIRED: 'presented an expired TLS certificate',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'presented a self-signed TLS certificate',
};

/** One operator-facing sentence for a failed login. */
function describeLoginFailure(err: unknown, apiUrl: string): string {
  const chain = causeChain(err);
  const codes = chain.map((e): unknown => Reflect.get(e, 'code'));
  if (codes.includes('TokenInvalid') || chain.some((e) => Reflect.get(e, 'status') === 401)) {
    return `Discord at ${apiUrl} refused the bot token: check DISCORD_TOKEN (Bot tab of the developer portal)`;
  }
  if (codes.includes('DisallowedIntents')) return `Discord at ${apiUrl} refused the bot's intents`;
  for (const code of codes) {
    const what = typeof code === 'string' ? NETWORK_FAILURES[code] : undefined;
    if (what) return `Discord API at ${apiUrl} ${what}`;
  }
  if (chain.some((e) => e.name === 'AbortError')) return `Discord API at ${apiUrl} did not answer (every request timed out)`;
  const message = err instanceof Error ? err.message : String(err);
  return `Discord login through ${apiUrl} failed: ${message}`;
}

function causeChain(err: unknown): Error[] {
  const chain: Error[] = [];
  for (let e = err; e instanceof Error && chain.length < 8; e = e.cause) chain.push(e);
  return chain;
}
