/**
 * `GET {base}/models`: the gateway's catalogue (ids, and shutdown dates where it reports them). Accepts OpenAI's `{object:"list",data}` and new-api's
 * `{success:true,data}`; anything else is an error the catalogue absorbs. {@link fetchListing} is the GET every
 * dialect's catalogue reads through.
 *
 * @see ../../../shared/docs/image-gateway.md §2.8, §4.1, §4.2.1
 */
import { CallScope } from './call-scope.js';
import type { ListedModel } from './models.js';
import type { CatalogueContext } from './dialect.js';
import { GatewayHttpError, GatewayResponseError } from './errors.js';
import { findRequestId } from './request-id.js';
import { ModelsResponse, parseJson } from './schemas.js';

/** Autocomplete must answer within 3 s, so the catalogue fetch gets a short budget of its own. */
export const MODELS_TIMEOUT_MS = 10_000;
const MODELS_BODY_CAP = 4 * 1024 * 1024;

/** A catalogue answer as read: its JSON (undefined when it is not JSON) and request id. */
export interface Listing {
  json: unknown;
  requestId: string | undefined;
}

/** One GET of `path` within `scope`; an error status rejects with the classified GatewayHttpError. */
export async function fetchListing(ctx: CatalogueContext, path: string, scope: CallScope): Promise<Listing> {
  const res = await ctx.http.send({ method: 'GET', path, headers: { accept: 'application/json' } }, scope);
  const requestId = findRequestId(res.headers);
  const text = (await ctx.http.readCapped(res, MODELS_BODY_CAP, scope, requestId)).toString('utf8');
  if (res.statusCode >= 400) throw GatewayHttpError.fromResponse(res.statusCode, text, res.headers, ctx.clock.now());
  return { json: parseJson(text), requestId };
}

/** The error for a catalogue of a shape the dialect does not know. */
export function unknownListing(requestId: string | undefined): GatewayResponseError {
  return new GatewayResponseError('gateway model list has an unknown shape', { category: 'gateway_failure', code: 'malformed_response', requestId });
}

/** Fetches the models within `timeoutMs`; rejects with a GatewayError on any failure or unknown shape. */
export async function fetchModels(ctx: CatalogueContext, signal?: AbortSignal, timeoutMs = MODELS_TIMEOUT_MS): Promise<ListedModel[]> {
  const scope = new CallScope(timeoutMs, signal);
  try {
    const { json, requestId } = await fetchListing(ctx, '/models', scope);
    const parsed = ModelsResponse.safeParse(json);
    if (!parsed.success) throw unknownListing(requestId);
    return parsed.data.data.map((model) => ({ id: model.id, shutdownDate: model.shutdown_date }));
  } finally {
    scope.dispose();
  }
}
