import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { openBackend } from '/work/main/src/storage/open-backend.js';
import { createStorage } from '/work/main/src/storage/open-storage.js';
import { parseStorageUrl } from '/work/main/src/storage/storage-url.js';
const logger = pino({ level: 'silent' });
const backend = await openBackend(parseStorageUrl('sqlite:///tmp/qlat.sqlite'), { namespace: 'q' + Date.now(), connectTimeoutMs: 5000, logger });
const storage = createStorage(backend, { defaults: { limit: 1_000_000, period: 'day' }, reservationTtlMs: 600_000, logger });
const subject = { guildId: '100000000000000001', userId: '200000000000000001', roleIds: [] };
const r: number[] = [], c: number[] = [];
for (let i = 0; i < 200; i++) {
  const t0 = performance.now();
  await storage.quotas.reserve(subject, `j${i}`, 1);
  const t1 = performance.now();
  await storage.quotas.commit(`j${i}`, 1);
  const t2 = performance.now();
  r.push(t1 - t0); c.push(t2 - t1);
}
const med = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1].toFixed(2);
console.log('reserve p50', med(r), 'commit p50', med(c));
await storage.close();
