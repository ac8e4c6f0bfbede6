/**
 * `GET {base}/models`: the gateway's catalogue (ids, and shutdown dates where it reports them). Accepts OpenAI's `{object:"list",data}` and new-api's
 * `{success:true,data}`; anything else is an error the catalogue absorbs.
 *
 * @see ../../../shared/docs/image-gateway.md §2.8, §4.1, §4.2.1
 */
import { CallScope } from './call-scope.js';
import type { ListedModel } from './models.js';
import { GatewayHttpError, GatewayResponseError } from './errors.js';
import type { ExchangeContext } from './image-exchange.js';
import { findRequestId } from './request-id.js';
import { ModelsResponse, parseJson } from './schemas.js';

/** Autocomplete must answer within 3 s, so the catalogue fetch gets a short budget of its own. */
const MODELS_TIMEOUT_MS = 10_000;
const MODELS_BODY_CAP = 4 * 1024 * 1024;

/** Fetches the models within `timeoutMs`; rejects with a GatewayError on any failure or unknown shape. */
export async function fetchModels(ctx: ExchangeContext, signal?: AbortSignal, timeoutMs = MODELS_TIMEOUT_MS): Promise<ListedModel[]> {
  const scope = new CallScope(timeoutMs, signal);
  try {
    const res = await ctx.http.send({ method: 'GET', path: '/models', headers: { accept: 'application/json' } }, scope);
    const requestId = findRequestId(res.headers);
    const text = (await ctx.http.readCapped(res, MODELS_BODY_CAP, scope, requestId)).toString('utf8');
    if (res.statusCode >= 400) throw GatewayHttpError.fromResponse(res.statusCode, text, res.headers, ctx.clock.now());
    const parsed = ModelsResponse.safeParse(parseJson(text));
    if (!parsed.success)
      throw new GatewayResponseError('gateway model list has an unknown shape', { category: 'gateway_failure', code: 'malformed_response', requestId });
    return parsed.data.data.map((model) => ({ id: model.id, shutdownDate: model.shutdown_date }));
  } finally {
    scope.dispose();
  }
}
