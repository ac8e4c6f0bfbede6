/**
 * The Azure OpenAI dialect. A model is served by a deployment of the operator's (AZURE_DEPLOYMENTS), named in the
 * path with the `api-version` query: `{endpoint}/openai/deployments/{deployment}/images/generations?api-version=…`
 * (edits and chat completions likewise; edits from 2025-04-01-preview, the first version that has them). With the `/openai/v1` base instead the paths are OpenAI's and the
 * deployment goes in `model`. Either way the key is sent as `api-key`, and bodies and answers are OpenAI's. The
 * deployments cannot be listed with that key (the data-plane listing went with 2023-03-15-preview,
 * openai/openai-python#460), so the catalogue is the configured models; it is fetched all the same (`GET
 * /openai/models`, or `/models` on the v1 base), so the start-up check still proves the endpoint and the key.
 *
 * @see https://learn.microsoft.com/en-us/azure/ai-services/openai/how-to/dall-e (the deployment path, api-version)
 * @see https://learn.microsoft.com/en-us/rest/api/azureopenai/models/list (`GET {endpoint}/openai/models?api-version=2024-10-21`, `api-key`)
 */
import { CallScope } from './call-scope.js';
import type { GatewayDialect } from './dialect.js';
import { fetchListing, MODELS_TIMEOUT_MS } from './model-ids.js';
import { openAiImagePost } from './openai-dialect.js';
import { modelOf, withParam } from './params.js';

/** Options of {@link createAzureDialect}. */
export interface AzureDialectOptions {
  /** GATEWAY_BASE_URL: the resource endpoint (`https://NAME.openai.azure.com`) or its `/openai/v1` base. */
  baseUrl: string;
  /** AZURE_DEPLOYMENTS: model → deployment; these models are the catalogue. */
  deployments: ReadonlyMap<string, string>;
  /** AZURE_API_VERSION (deployment paths only). */
  apiVersion: string;
}

/** The first api-version with image edits (gpt-image-1): an older AZURE_API_VERSION is raised to it for edits. */
export const AZURE_EDITS_FROM = '2025-04-01-preview';

/** True for the `/openai/v1` base, where Azure takes OpenAI's own paths. */
export function isAzureV1Base(baseUrl: string): boolean {
  return /\/openai\/v1\/*$/i.test(new URL(baseUrl).pathname);
}

/** See the module comment. */
export function createAzureDialect(options: AzureDialectOptions): GatewayDialect {
  const v1 = isAzureV1Base(options.baseUrl);
  const query = (operation: string): string => {
    const edits = operation === 'images/edits' && options.apiVersion.slice(0, 10) < AZURE_EDITS_FROM.slice(0, 10);
    return `?api-version=${encodeURIComponent(edits ? AZURE_EDITS_FROM : options.apiVersion)}`;
  };
  // A model the map does not name is served by a deployment named like it (Azure's portal suggests that name).
  const deployment = (model: string): string => options.deployments.get(model) ?? model;
  const path = (operation: string, model: string): string =>
    v1 ? `/${operation}` : `/openai/deployments/${encodeURIComponent(deployment(model))}/${operation}${query(operation)}`;
  return {
    name: 'azure',
    keyHeader: 'api-key',
    imagePost(endpoint, params, edit) {
      const model = modelOf(params);
      // The deployment is what Azure knows; the params keep the model's name for the bot's own records and prices.
      return openAiImagePost(path(`images/${endpoint}`, model), withParam(params, 'model', deployment(model)), edit);
    },
    chatRoute: (model) => ({ path: path('chat/completions', model), model: deployment(model) }),
    async fetchModels(ctx, signal, timeoutMs = MODELS_TIMEOUT_MS) {
      const scope = new CallScope(timeoutMs, signal);
      try {
        await fetchListing(ctx, v1 ? '/models' : `/openai/models${query('models')}`, scope);
      } finally {
        scope.dispose();
      }
      return [...options.deployments.keys()].map((id) => ({ id }));
    },
  };
}
