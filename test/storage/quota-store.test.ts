import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe } from 'vitest';
import { openBackend } from '../../src/storage/open-backend.js';
import { parseStorageUrl } from '../../src/storage/storage-url.js';
import { type OpenBackend, describeQuotaStoreContract } from './quota-store-contract.js';
import { silentLogger } from './helpers.js';

const REDIS_URL = process.env['REDIS_URL'];
const POSTGRES_URL = process.env['POSTGRES_URL'];

/** A backend at `url` under a namespace of its own, cleared and closed afterwards (shared servers, parallel runs). */
function networkBackend(url: string): OpenBackend {
  return async () => {
    const namespace = `imagine-bot-test-${randomUUID()}`;
    const backend = await openBackend(parseStorageUrl(url), { namespace, connectTimeoutMs: 3_000, logger: silentLogger });
    return {
      backend,
      cleanup: async () => {
        await backend.kv.clear();
        await backend.close();
      },
    };
  };
}

describeQuotaStoreContract('memory', async () => {
  const backend = await openBackend(parseStorageUrl('memory://'), { namespace: 'imagine-bot', connectTimeoutMs: 1_000, logger: silentLogger });
  return { backend, cleanup: () => backend.close() };
});

describeQuotaStoreContract('SQLite', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'imagine-bot-storage-'));
  const location = parseStorageUrl(`sqlite://${path.join(dir, 'nested', 'bot.sqlite')}`);
  const backend = await openBackend(location, { namespace: 'imagine-bot', connectTimeoutMs: 3_000, logger: silentLogger });
  return {
    backend,
    cleanup: async () => {
      await backend.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

describe.skipIf(!REDIS_URL)(REDIS_URL ? 'Redis' : 'Redis: skipped because REDIS_URL is not set', () => {
  describeQuotaStoreContract('Redis', networkBackend(REDIS_URL ?? ''));
});

describe.skipIf(!POSTGRES_URL)(POSTGRES_URL ? 'PostgreSQL' : 'PostgreSQL: skipped because POSTGRES_URL is not set', () => {
  describeQuotaStoreContract('PostgreSQL', networkBackend(POSTGRES_URL ?? ''));
});
