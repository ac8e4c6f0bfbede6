/**
 * The model catalogue behind autocomplete and `/models`: fetched at most once per TTL (concurrent callers share
 * one fetch), image models first and the configured default first of all. A failed fetch or an unknown shape
 * keeps what we had (or the default alone) and is tried again after a short pause, not on every keystroke.
 */
import type pino from 'pino';
import type { Clock, GatewayModel } from '../service/ports.js';

/** Looks like an image model: gpt-image-*, dall-e-*, chatgpt-image-*, imagen, flux, or "image" in the id. */
const IMAGE_MODEL = /gpt-image|dall-e|chatgpt-image|imagen|flux|stable-diffusion|sdxl|midjourney|seedream|image/i;

/** How long a failed fetch is remembered before the next try. */
const MODELS_FAILURE_TTL_MS = 30_000;

/** Options of a ModelCatalogue. */
export interface ModelCatalogueOptions {
  defaultModel: string;
  ttlMs: number;
  clock: Clock;
  logger: pino.Logger;
  /** Fetches the ids from the gateway; rejects on any failure or unknown shape. */
  fetchIds: (signal?: AbortSignal) => Promise<string[]>;
}

/** True when the id looks like an image model. */
export function isImageModel(id: string): boolean {
  return IMAGE_MODEL.test(id);
}

/** Orders ids: the default first, then image models, then the rest, each group alphabetically, without duplicates. */
function orderModels(ids: readonly string[], defaultModel: string): GatewayModel[] {
  const others = [...new Set(ids)].filter((id) => id !== defaultModel).sort((a, b) => a.localeCompare(b));
  const image = others.filter(isImageModel);
  const rest = others.filter((id) => !isImageModel(id));
  return [{ id: defaultModel, image: true }, ...image.map((id) => ({ id, image: true })), ...rest.map((id) => ({ id, image: false }))];
}

/** A cached, ordered model list. */
export class ModelCatalogue {
  private readonly opts: ModelCatalogueOptions;
  private models: GatewayModel[];
  private expiresAt = 0;
  private inFlight: Promise<GatewayModel[]> | undefined;

  constructor(opts: ModelCatalogueOptions) {
    this.opts = opts;
    this.models = orderModels([], opts.defaultModel);
  }

  /** The cached list, without a network call. */
  cached(): GatewayModel[] {
    return [...this.models];
  }

  /** The list, refreshed when the cache has expired; never rejects. */
  async list(signal?: AbortSignal): Promise<GatewayModel[]> {
    if (this.opts.clock.now() < this.expiresAt) return this.cached();
    this.inFlight ??= this.refresh(signal).finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async refresh(signal?: AbortSignal): Promise<GatewayModel[]> {
    try {
      const ids = await this.opts.fetchIds(signal);
      this.models = orderModels(ids, this.opts.defaultModel);
      this.expiresAt = this.opts.clock.now() + this.opts.ttlMs;
      this.opts.logger.debug({ count: ids.length }, 'model catalogue refreshed');
    } catch (err) {
      this.expiresAt = this.opts.clock.now() + Math.min(this.opts.ttlMs, MODELS_FAILURE_TTL_MS);
      this.opts.logger.warn({ err }, 'model catalogue fetch failed');
    }
    return this.cached();
  }
}
