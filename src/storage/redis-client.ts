import { createClient } from '@keyv/redis';
import { withTimeout } from './with-timeout.js';

/** A node-redis client as {@link connectRedis} opens it. */
export type RedisClient = ReturnType<typeof newClient>;

/**
 * Opens a node-redis client at `url` that fails closed: while disconnected a command is refused at once (no offline
 * queue), it reconnects with capped backoff once it has connected, and its 'error' events are absorbed (they reach
 * callers as rejected commands), so a dropped connection never crashes the process. Open fails on the first
 * failure, and within `connectTimeoutMs` even against a server that accepts but never answers.
 */
export async function connectRedis(url: string, options: { connectTimeoutMs: number; name: string }): Promise<RedisClient> {
  const { connectTimeoutMs } = options;
  let connected = false;
  const client = newClient(url, options, () => connected);
  client.on('error', () => undefined);
  try {
    // connectTimeout covers the TCP connect only; a server that accepts but never answers needs this deadline.
    await withTimeout(client.connect(), connectTimeoutMs);
  } catch (error) {
    if (client.isOpen) client.destroy();
    throw error;
  }
  connected = true;
  return client;
}

function newClient(url: string, options: { connectTimeoutMs: number; name: string }, connected: () => boolean) {
  return createClient({
    url,
    // CLIENT SETNAME, so an operator (or a test) can tell the bot's connections apart in CLIENT LIST.
    name: options.name,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: options.connectTimeoutMs,
      // Give up on the first failure at start (open must fail fast); reconnect with capped backoff later.
      reconnectStrategy: (retries: number, cause: Error) => (connected() ? Math.min(2 ** retries * 100, 3_000) : cause),
    },
  });
}
