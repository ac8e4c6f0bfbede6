/**
 * OpenRouter's image catalogue, `GET {base}/images/models`: every image model with the union of what its endpoints
 * accept (`supported_parameters`) and whether any streams (`supports_streaming`). `GET {base}/models` is not read:
 * it omits image models unless asked for `?output_modalities=image`, and says nothing of their parameters. Each
 * model becomes a listed image model with its profile (openrouter-profile.ts) and prices (openrouter-prices.ts); its
 * descriptors are kept for the request bodies (openrouter-dialect.ts).
 *
 * @see https://openrouter.ai/docs/client-sdks/typescript/models/imagemodellistitem
 * @see https://openrouter.ai/docs/guides/overview/multimodal/image-generation ("Model Discovery")
 */
import { z } from 'zod';
import type { ModelPrices } from '../core/cost.js';
import { CallScope } from './call-scope.js';
import type { CatalogueContext } from './dialect.js';
import { fetchListing, MODELS_TIMEOUT_MS, unknownListing } from './model-ids.js';
import type { ListedModel } from './models.js';
import { Descriptor, profileOf, type Descriptors } from './openrouter-profile.js';

/** A descriptor that does not parse is left out: the parameter is then not offered, never sent. */
const Descriptors = z.record(z.string(), z.unknown()).transform((record) => {
  const out: Record<string, Descriptor> = {};
  for (const [name, value] of Object.entries(record)) {
    const parsed = Descriptor.safeParse(value);
    if (parsed.success) out[name] = parsed.data;
  }
  return out;
});

/** One ImageModelListItem (the fields read). */
const ImageModel = z.object({
  id: z.string().min(1),
  supported_parameters: Descriptors.catch({}),
  supports_streaming: z.boolean().catch(false).default(false),
});

const ImageModelList = z.object({ data: z.array(z.unknown()) });

/** An OpenRouter image model as the dialect keeps it. */
export interface OpenRouterModel {
  id: string;
  params: Descriptors;
  streaming: boolean;
}

/** Fetches the image catalogue within `timeoutMs`; rejects with a GatewayError on any failure or unknown shape. */
export async function fetchImageModels(ctx: CatalogueContext, signal?: AbortSignal, timeoutMs = MODELS_TIMEOUT_MS): Promise<OpenRouterModel[]> {
  const scope = new CallScope(timeoutMs, signal);
  try {
    const { json, requestId } = await fetchListing(ctx, '/images/models', scope);
    const list = ImageModelList.safeParse(json);
    if (!list.success) throw unknownListing(requestId);
    // One malformed entry costs that model only.
    return list.data.data.flatMap((entry) => {
      const model = ImageModel.safeParse(entry);
      return model.success ? [{ id: model.data.id, params: model.data.supported_parameters, streaming: model.data.supports_streaming }] : [];
    });
  } finally {
    scope.dispose();
  }
}

/** A catalogue model as the bot lists it: an image model, with the profile its descriptors give (and its prices, when known). */
export function listed(model: OpenRouterModel, prices: ModelPrices | undefined): ListedModel {
  return { id: model.id, image: true, profile: { ...profileOf(model.params, model.streaming), ...(prices ? { prices } : {}) } };
}
