import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe } from 'vitest';
import { type Backend, openBackend } from '../../src/storage/open-backend.js';
import { parseStorageUrl } from '../../src/storage/storage-url.js';
import { describeQuotaLedgerContract } from './quota-ledger-contract.js';
import { type OpenBackend, describeQuotaStoreContract } from './quota-store-contract.js';
import { silentLogger } from './helpers.js';

const REDIS_URL = process.env['REDIS_URL'];
const POSTGRES_URL = process.env['POSTGRES_URL'];

/** Opens `url` under `namespace`; every backend opened is closed by the returned `closeAll`. */
function opener(url: string, namespace: string) {
  const opened: Pick<Backend, 'close'>[] = [];
  const options = { namespace, connectTimeoutMs: 3_000, logger: silentLogger };
  return {
    open: async () => {
      const backend = await openBackend(parseStorageUrl(url), options);
      opened.push(backend);
      return backend;
    },
    closeAll: () => Promise.all(opened.map((backend) => backend.close())),
  };
}

/** A backend at `url` under a namespace of its own, cleared and closed afterwards (shared servers, parallel runs). */
function networkBackend(url: string): OpenBackend {
  return async () => {
    const namespace = `imagine-bot-test-${randomUUID()}`;
    const { open, closeAll } = opener(url, namespace);
    const backend = await open();
    return {
      backend,
      twin: open,
      shared: { url, namespace },
      cleanup: async () => {
        await Promise.all([backend.kv.clear(), backend.ledger.clear()]);
        await closeAll();
      },
    };
  };
}

const memory: OpenBackend = async () => {
  const backend = await openBackend(parseStorageUrl('memory://'), { namespace: 'imagine-bot', connectTimeoutMs: 1_000, logger: silentLogger });
  return { backend, twin: () => Promise.resolve(backend), cleanup: () => backend.close() };
};

const sqlite: OpenBackend = async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'imagine-bot-storage-'));
  const url = `sqlite://${path.join(dir, 'nested', 'bot.sqlite')}`;
  const { open, closeAll } = opener(url, 'imagine-bot');
  return {
    backend: await open(),
    twin: open,
    shared: { url, namespace: 'imagine-bot' },
    cleanup: async () => {
      await closeAll();
      await rm(dir, { recursive: true, force: true });
    },
  };
};

describeQuotaStoreContract('memory', memory);
describeQuotaLedgerContract('memory', memory, { sharedByProcesses: false });

describeQuotaStoreContract('SQLite', sqlite);
describeQuotaLedgerContract('SQLite', sqlite, { sharedByProcesses: true });

describe.skipIf(!REDIS_URL)(REDIS_URL ? 'Redis' : 'Redis: skipped because REDIS_URL is not set', () => {
  describeQuotaStoreContract('Redis', networkBackend(REDIS_URL ?? ''));
  describeQuotaLedgerContract('Redis', networkBackend(REDIS_URL ?? ''), { sharedByProcesses: true });
});

describe.skipIf(!POSTGRES_URL)(POSTGRES_URL ? 'PostgreSQL' : 'PostgreSQL: skipped because POSTGRES_URL is not set', () => {
  describeQuotaStoreContract('PostgreSQL', networkBackend(POSTGRES_URL ?? ''));
  describeQuotaLedgerContract('PostgreSQL', networkBackend(POSTGRES_URL ?? ''), { sharedByProcesses: true });
});
