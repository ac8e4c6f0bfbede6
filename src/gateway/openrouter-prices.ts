/**
 * What OpenRouter's image models cost, for the estimates money limits and cost confirmations need before a job
 * (cost-estimate.ts); what a job is charged is the cost OpenRouter reports with it (usage.ts). Read from each
 * model's endpoint records, `GET {base}/images/models/{id}/endpoints`, whose `pricing` rows are `{billable, unit,
 * cost_usd, variant?}`: per output image, or per token of input text, input image or output image. The highest row
 * of each kind across endpoints and variants (a 4K image's price for every size) is taken, so an estimate errs high
 * and a money limit is not overrun. Fetched for the listed models at most once an hour, four at a time; a model
 * whose records do not answer has no estimate (a money limit then refuses it, as any unpriced model).
 *
 * @see https://openrouter.ai/docs/client-sdks/typescript/models/imagemodelendpointsresponse
 */
import { z } from 'zod';
import type { ModelPrices } from '../core/cost.js';
import { CallScope } from './call-scope.js';
import type { CatalogueContext } from './dialect.js';
import { fetchListing, MODELS_TIMEOUT_MS } from './model-ids.js';

const PricingRow = z.object({ billable: z.string(), unit: z.string(), cost_usd: z.coerce.number().nonnegative() });
const Endpoints = z.object({ endpoints: z.array(z.object({ pricing: z.array(z.unknown()).catch([]) })) });
/** The records, bare (the SDK's ImageModelEndpointsResponse) or under `data` as OpenRouter's listings are. */
const EndpointsAnswer = z.union([z.object({ data: Endpoints }).transform((answer) => answer.data), Endpoints]);

const REFRESH_MS = 3_600_000;
const CONCURRENCY = 4;

/** The prices the rows give (see the module comment), or undefined when they give none the bot can use. */
export function pricesOf(rows: readonly unknown[]): ModelPrices | undefined {
  const parsed = rows.flatMap((row) => {
    const result = PricingRow.safeParse(row);
    return result.success ? [result.data] : [];
  });
  const highest = (billable: string, unit: string, scale = 1): number | undefined => {
    const costs = parsed.filter((row) => row.billable === billable && row.unit === unit).map((row) => row.cost_usd * scale);
    return costs.length > 0 ? Math.max(...costs) : undefined;
  };
  const prices: ModelPrices = {
    perImage: highest('output_image', 'image'),
    outputPerMillion: highest('output_image', 'token', 1e6),
    inputTextPerMillion: highest('input_text', 'token', 1e6),
    inputImagePerMillion: highest('input_image', 'token', 1e6),
  };
  const known = Object.fromEntries(Object.entries(prices).filter(([, usd]) => usd !== undefined)) as ModelPrices;
  return known.perImage === undefined && known.outputPerMillion === undefined ? undefined : known;
}

/** The prices of OpenRouter's image models, kept between listings. */
export class OpenRouterPrices {
  private readonly known = new Map<string, { prices: ModelPrices | undefined; at: number }>();

  /** A model's prices, when its records gave some. */
  of(id: string): ModelPrices | undefined {
    return this.known.get(id)?.prices;
  }

  /** Fetches the records of the models not priced within the hour (never rejects: a failure leaves a model unpriced). */
  async update(ctx: CatalogueContext, ids: readonly string[], signal?: AbortSignal, timeoutMs = MODELS_TIMEOUT_MS): Promise<void> {
    const now = ctx.clock.now();
    const due = ids.filter((id) => now - (this.known.get(id)?.at ?? Number.NEGATIVE_INFINITY) >= REFRESH_MS);
    const scope = new CallScope(timeoutMs, signal);
    try {
      const work = async (): Promise<void> => {
        for (let id = due.shift(); id !== undefined; id = due.shift()) await this.fetchOne(ctx, id, scope, now);
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, work));
    } finally {
      scope.dispose();
    }
  }

  private async fetchOne(ctx: CatalogueContext, id: string, scope: CallScope, now: number): Promise<void> {
    const path = `/images/models/${id.split('/').map(encodeURIComponent).join('/')}/endpoints`;
    const listing = await fetchListing(ctx, path, scope).catch(() => undefined);
    const answer = EndpointsAnswer.safeParse(listing?.json);
    if (!answer.success) return;
    this.known.set(id, { prices: pricesOf(answer.data.endpoints.flatMap((endpoint) => endpoint.pricing)), at: now });
  }
}
