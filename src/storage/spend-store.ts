import type { MoneyLimit, QuotaLimit, QuotaStatus, QuotaSubject, QuotaTarget, SpendOutcome, SpendStatus } from '../core/quota.js';
import type { SpendLedger } from '../ports/spend-ledger.js';
import { QuotaStore, type QuotaStoreOptions } from './quota-store.js';
import { SPEND } from './quota-records.js';

/** The ledger counts whole millionths of a dollar. */
const MICROS = 1_000_000;

/** Where no money limit is set, the ledger's default: never reached, and never stored (SPEND is optional). */
const NO_LIMIT: QuotaLimit = { limit: Number.MAX_SAFE_INTEGER, period: 'month' };

/**
 * The money limits (issue 17) over the quota ledger's own rules: a {@link QuotaStore} on the SPEND meter, which
 * counts millionths of a dollar under its own keys, holds nothing for members without a money limit and lets a
 * commit charge an actual cost above its estimate. Estimates are held rounded up, costs charged rounded to the
 * nearest millionth.
 */
export class SpendStore implements SpendLedger {
  readonly #store: QuotaStore;

  constructor(options: Omit<QuotaStoreOptions, 'meter' | 'defaults'>) {
    this.#store = new QuotaStore({ ...options, meter: SPEND, defaults: NO_LIMIT });
  }

  async reserve(subject: QuotaSubject, jobId: string, usd: number): Promise<SpendOutcome> {
    const outcome = await this.#store.reserve(subject, jobId, Math.max(1, Math.ceil(usd * MICROS - 1e-6)));
    const status = spendOf(outcome.status);
    if (outcome.ok || !status) return { ok: true, held: status !== undefined };
    return { ok: false, status };
  }

  renew(jobId: string): Promise<void> {
    return this.#store.renew(jobId);
  }

  commit(jobId: string, usd: number): Promise<void> {
    return this.#store.commit(jobId, Math.max(0, Math.round(usd * MICROS)));
  }

  refund(jobId: string): Promise<void> {
    return this.#store.refund(jobId);
  }

  async status(subject: QuotaSubject): Promise<SpendStatus | undefined> {
    return spendOf(await this.#store.status(subject));
  }

  async setLimit(target: QuotaTarget, limit: MoneyLimit | undefined): Promise<{ before: MoneyLimit | undefined; after: MoneyLimit | undefined }> {
    if (limit === undefined) {
      const { before } = await this.#store.clearLimit(target);
      return { before: before && moneyOf(before), after: undefined };
    }
    if (!(limit.usd >= 0) || !Number.isFinite(limit.usd)) throw new RangeError(`usd must be a non-negative number, got ${limit.usd}`);
    const { before, after } = await this.#store.setLimit(target, { limit: Math.round(limit.usd * MICROS), period: limit.period });
    return { before: before && moneyOf(before), after: moneyOf(after) };
  }
}

const usdOf = (micros: number): number => micros / MICROS;

function moneyOf(limit: QuotaLimit): MoneyLimit {
  return { usd: usdOf(limit.limit), period: limit.period };
}

function spendOf(status: QuotaStatus): SpendStatus | undefined {
  if (status.source === 'default') return undefined;
  return {
    usd: usdOf(status.limit),
    period: status.period,
    spent: usdOf(status.used),
    reserved: usdOf(status.reserved),
    remaining: usdOf(status.remaining),
    resetsAt: status.resetsAt,
    source: status.source,
  };
}
