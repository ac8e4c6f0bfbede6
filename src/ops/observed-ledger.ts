/** The quota ledger with each operation timed and each refused reservation counted. */
import type { QuotaLedger } from '../ports/quota-ledger.js';
import type { BotMetrics } from './metrics.js';

/** `ledger`, reporting to `metrics`: every operation's duration (failed ones included) and refused reservations. */
export function observeLedger(
  ledger: QuotaLedger,
  metrics: Pick<BotMetrics, 'storeOperation' | 'quotaRefused'>,
  now: () => number = performance.now.bind(performance),
): QuotaLedger {
  const timed = async <T>(operation: string, call: () => Promise<T>): Promise<T> => {
    const start = now();
    try {
      return await call();
    } finally {
      metrics.storeOperation(operation, (now() - start) / 1000);
    }
  };
  return {
    async reserve(subject, jobId, count) {
      const outcome = await timed('reserve', () => ledger.reserve(subject, jobId, count));
      if (!outcome.ok) metrics.quotaRefused();
      return outcome;
    },
    renew: (jobId) => timed('renew', () => ledger.renew(jobId)),
    commit: (jobId, delivered) => timed('commit', () => ledger.commit(jobId, delivered)),
    refund: (jobId) => timed('refund', () => ledger.refund(jobId)),
    status: (subject) => timed('status', () => ledger.status(subject)),
    setLimit: (target, limit) => timed('set_limit', () => ledger.setLimit(target, limit)),
    resetUsage: (guildId, userId) => timed('reset_usage', () => ledger.resetUsage(guildId, userId)),
  };
}
