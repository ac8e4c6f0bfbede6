/**
 * A gateway dialect: the one seam behind the gateway client where the APIs it speaks differ (docs/gateways.md).
 * The client's retries, recoveries, answer reading, usage and error classification are shared; a dialect says only
 * where a request goes and how its key and body are written (openai-dialect.ts, azure-dialect.ts,
 * openrouter-dialect.ts), and how the model catalogue is read.
 */
import type { Clock } from '../ports/clock.js';
import type { EditRequest } from '../core/images.js';
import type { GatewayHttp } from './http.js';
import type { ListedModel } from './models.js';
import type { WireParams } from './params.js';

/** The image operations. */
export type ImageEndpoint = 'generations' | 'edits';

/** One image POST as the dialect writes it; the client adds the accept and idempotency headers. */
export interface ImagePost {
  /** From the base URL, with any query, e.g. `/images/generations`. */
  path: string;
  contentType: string;
  /** JSON text, or the chunks of a body sent in order without copying them together. */
  body: string | readonly Uint8Array[];
  /** The byte length of a chunked body. */
  length?: number | undefined;
}

/** What reading the catalogue needs. */
export interface CatalogueContext {
  http: GatewayHttp;
  clock: Clock;
}

/** See the module comment. */
export interface GatewayDialect {
  readonly name: 'openai' | 'openrouter' | 'azure';
  /** Where the key goes: `Authorization: Bearer …` or Azure's `api-key`. */
  readonly keyHeader: 'authorization' | 'api-key';
  /** The POST of one image request; `params` name the model as members know it. */
  imagePost(endpoint: ImageEndpoint, params: WireParams, edit: EditRequest | undefined): ImagePost;
  /** Where a chat completion for `model` goes, and the model name the gateway knows it by. */
  chatRoute(model: string): { path: string; model: string };
  /** The catalogue within `timeoutMs` (a default of the dialect's when undefined); rejects with a GatewayError. */
  fetchModels(ctx: CatalogueContext, signal?: AbortSignal, timeoutMs?: number): Promise<ListedModel[]>;
}
