import type pino from 'pino';
import { z } from 'zod';
import type { Clock } from '../ports/clock.js';
import type { RecordStore } from '../ports/record-store.js';
import type { KvStore } from './kv-store.js';

/** The envelope every record is stored in: a version, its expiry on the injected clock, and the data. */
const Envelope = z.object({ v: z.literal(1), expiresAt: z.number(), data: z.unknown() });

/** Options of {@link KeyvRecordStore}. */
export interface KeyvRecordStoreOptions<T> {
  kv: KvStore;
  /** Key prefix of this kind of record, e.g. `button` or `pending-job`: `[a-z0-9-]+`. */
  namespace: string;
  /** Validates a record on read: what fails it reads as undefined (logged), never as a bad value. */
  schema: z.ZodType<T>;
  clock: Clock;
  logger: pino.Logger;
}

/**
 * A namespaced {@link RecordStore} over keyv. Records are stored as `rec:{namespace}:{id}` in a versioned
 * envelope; expiry is checked against the injected clock on read, and the backend's TTL removes them later.
 */
export class KeyvRecordStore<T> implements RecordStore<T> {
  readonly #kv: KvStore;
  readonly #prefix: string;
  readonly #schema: z.ZodType<T>;
  readonly #clock: Clock;
  readonly #log: pino.Logger;

  constructor(options: KeyvRecordStoreOptions<T>) {
    if (!/^[a-z0-9-]+$/.test(options.namespace)) throw new RangeError(`invalid record namespace "${options.namespace}"`);
    this.#kv = options.kv;
    this.#prefix = `rec:${options.namespace}:`;
    this.#schema = options.schema;
    this.#clock = options.clock;
    this.#log = options.logger.child({ module: 'record-store', namespace: options.namespace });
  }

  async get(id: string): Promise<T | undefined> {
    const raw = await this.#kv.get(this.#prefix + id);
    if (raw === undefined) return undefined;
    const envelope = Envelope.safeParse(raw);
    if (!envelope.success) {
      this.#log.error({ id }, 'corrupt record ignored');
      return undefined;
    }
    if (envelope.data.expiresAt <= this.#clock.now()) return undefined;
    const value = this.#schema.safeParse(envelope.data.data);
    if (!value.success) {
      this.#log.error({ id, issues: value.error.issues.length }, 'invalid record ignored');
      return undefined;
    }
    return value.data;
  }

  async set(id: string, value: T, ttlMs: number): Promise<void> {
    if (!(ttlMs > 0)) throw new RangeError(`ttlMs must be positive, got ${ttlMs}`);
    const envelope = { v: 1, expiresAt: this.#clock.now() + ttlMs, data: value };
    await this.#kv.set(this.#prefix + id, envelope, ttlMs);
  }

  async delete(id: string): Promise<void> {
    await this.#kv.delete(this.#prefix + id);
  }
}
