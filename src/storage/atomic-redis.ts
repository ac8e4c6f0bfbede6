import { type AtomicStore, type AtomicWrite, checkIncrements, type Decide, type Increment, type Update } from './atomic-store.js';
import { OptimisticUpdater, type SwapOutcome } from './optimistic-update.js';
import type { RedisClient } from './redis-client.js';

/**
 * Compare-and-set in one server-side step: only if KEYS[1] still holds ARGV[1] ('' standing for a missing key;
 * records are JSON, never empty), writes every KEYS[i] with the text ARGV[2i] and a PX of ARGV[2i+1]. Returns 1
 * when it wrote, and what KEYS[1] holds ('' when missing) when another writer got in first.
 */
const COMPARE_AND_SET = `
local current = redis.call('GET', KEYS[1])
if current == false then current = '' end
if current ~= ARGV[1] then return current end
for i = 1, #KEYS do
  redis.call('SET', KEYS[i], ARGV[2 * i], 'PX', ARGV[2 * i + 1])
end
return 1
`;

/**
 * {@link AtomicStore} on Redis through a client of its own, under `{namespace}:ledger:` keys. An update is
 * optimistic (optimistic-update.ts): decide in TypeScript on the record as last known or read, then write it with a
 * Lua compare-and-set that fails when the record changed meanwhile, and start again. A Lua script runs atomically on the server and needs no connection of
 * its own, unlike WATCH/MULTI, so the one pipelined client serves every concurrent update.
 */
export class RedisAtomicStore implements AtomicStore {
  readonly #client: RedisClient;
  readonly #prefix: string;
  readonly #updater: OptimisticUpdater;
  #closing: Promise<void> | undefined;

  constructor(client: RedisClient, namespace: string) {
    this.#client = client;
    this.#prefix = `${namespace}:ledger:`;
    this.#updater = new OptimisticUpdater({ read: (key) => this.get(key), swap: (key, expected, update) => this.#swap(key, expected, update) });
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.#client.get(this.#prefix + key)) ?? undefined;
  }

  async set(key: string, { text, ttlMs }: AtomicWrite): Promise<void> {
    this.#updater.forget(key);
    await this.#client.set(this.#prefix + key, text, { expiration: { type: 'PX', value: ttlMs } });
  }

  update(key: string, decide: Decide): Promise<void> {
    return this.#updater.update(key, decide);
  }

  async delete(key: string): Promise<void> {
    this.#updater.forget(key);
    await this.#client.del(this.#prefix + key);
  }

  /** HINCRBY of every field and a PEXPIRE of the hash in one MULTI: atomic, and O(1) per field however big the hash. */
  async addCounters(key: string, increments: readonly Increment[], ttlMs: number): Promise<number[]> {
    checkIncrements(increments);
    const hash = this.#prefix + key;
    const multi = this.#client.multi();
    for (const [field, by] of increments) multi.hIncrBy(hash, field, by);
    multi.pExpire(hash, ttlMs);
    const replies = await multi.exec();
    return replies.slice(0, increments.length).map((reply) => Number(reply));
  }

  async readCounters(key: string): Promise<Map<string, number>> {
    const fields = await this.#client.hGetAll(this.#prefix + key);
    return new Map(Object.entries(fields).map(([field, value]) => [field, Number(value)]));
  }

  async clear(): Promise<void> {
    const match = `${this.#prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
    for await (const keys of this.#client.scanIterator({ MATCH: match, COUNT: 500 })) {
      if (keys.length > 0) await this.#client.del(keys);
    }
  }

  close(): Promise<void> {
    this.#closing ??= this.#client.close().catch(() => {
      if (this.#client.isOpen) this.#client.destroy();
    });
    return this.#closing;
  }

  async #swap(key: string, expected: string | undefined, update: Update): Promise<SwapOutcome> {
    const writes = [{ key, text: update.text, ttlMs: update.ttlMs }, ...(update.beside ?? [])];
    const reply = await this.#client.eval(COMPARE_AND_SET, {
      keys: writes.map((write) => this.#prefix + write.key),
      arguments: [expected ?? '', ...writes.flatMap((write) => [write.text, String(write.ttlMs)])],
    });
    if (reply === 1) return { swapped: true };
    if (typeof reply !== 'string') throw new Error('unexpected reply from the compare-and-set script');
    return { swapped: false, current: reply === '' ? undefined : reply };
  }
}
