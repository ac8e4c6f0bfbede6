/**
 * The model catalogue behind autocomplete and `/models`: fetched at most once per TTL (concurrent callers share
 * one fetch), image models first and the default in use first of all; each listing also chooses that default. A failed fetch or an unknown shape
 * keeps what we had (or the default alone) and is tried again after a short pause, not on every keystroke.
 */
import type pino from 'pino';
import type { Clock } from '../ports/clock.js';
import type { GatewayModel } from '../core/images.js';
import type { ModelProfile } from '../core/model-profiles.js';

/** Looks like an image model: gpt-image-*, dall-e-*, chatgpt-image-*, imagen, flux, or "image" in the id. */
const IMAGE_MODEL = /gpt-image|dall-e|chatgpt-image|imagen|flux|stable-diffusion|sdxl|midjourney|seedream|image/i;

/** A model as the gateway lists it. */
export interface ListedModel {
  id: string;
  /** YYYY-MM-DD, when the gateway reports one. */
  shutdownDate?: string | undefined;
  /** Whether it is an image model, when the catalogue says so (OpenRouter's lists only those); else told by its id. */
  image?: boolean | undefined;
  /** What it accepts, when the catalogue says so (OpenRouter's descriptors); over the built-in profile, under the operator's file. */
  profile?: ModelProfile | undefined;
}

/** How long a failed fetch is remembered before the next try. */
const MODELS_FAILURE_TTL_MS = 30_000;

/** Options of a ModelCatalogue. */
export interface ModelCatalogueOptions {
  /** The model in use by default now (default-model.ts). */
  defaultModel: () => string;
  /** Called with every listing fetched, before it is ordered (the default is chosen from it). */
  onListed: (models: readonly ListedModel[]) => void;
  ttlMs: number;
  clock: Clock;
  logger: pino.Logger;
  /** Fetches the models from the gateway; rejects on any failure or unknown shape. */
  fetchModels: (signal?: AbortSignal) => Promise<ListedModel[]>;
}

/** True when the id looks like an image model. */
export function isImageModel(id: string): boolean {
  return IMAGE_MODEL.test(id);
}

/** True for an image model: as the catalogue says, else by its id. */
export function listsImages(model: ListedModel): boolean {
  return model.image ?? isImageModel(model.id);
}

/** Orders models: the default first, then image models, then the rest, each group alphabetically, without duplicates. */
function orderModels(models: readonly ListedModel[], defaultModel: string): GatewayModel[] {
  const byId = new Map(models.map((m) => [m.id, m]));
  const others = [...byId.keys()].filter((id) => id !== defaultModel).sort((a, b) => a.localeCompare(b));
  const image = (id: string) => listsImages(byId.get(id) ?? { id });
  const entry = (id: string, image: boolean): GatewayModel => {
    const shutdownDate = byId.get(id)?.shutdownDate;
    return { id, image, ...(id === defaultModel ? { default: true } : {}), ...(shutdownDate === undefined ? {} : { shutdownDate }) };
  };
  return [entry(defaultModel, true), ...others.filter(image).map((id) => entry(id, true)), ...others.filter((id) => !image(id)).map((id) => entry(id, false))];
}

/** A cached, ordered model list. */
export class ModelCatalogue {
  private readonly opts: ModelCatalogueOptions;
  private listed: readonly ListedModel[] = [];
  private expiresAt = 0;
  private inFlight: Promise<GatewayModel[]> | undefined;
  private lastFetchedAt: number | undefined;

  constructor(opts: ModelCatalogueOptions) {
    this.opts = opts;
  }

  /** The cached list, without a network call (ordered with the default in use now). */
  cached(): GatewayModel[] {
    return orderModels(this.listed, this.opts.defaultModel());
  }

  /** When the last listing was fetched (clock time), undefined before the first. */
  get fetchedAt(): number | undefined {
    return this.lastFetchedAt;
  }

  /** Takes a listing fetched elsewhere (the start-up check) as the latest one. */
  accept(models: readonly ListedModel[]): void {
    this.opts.onListed(models);
    this.listed = models;
    this.lastFetchedAt = this.opts.clock.now();
    this.expiresAt = this.opts.clock.now() + this.opts.ttlMs;
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
      const models = await this.opts.fetchModels(signal);
      this.accept(models);
      this.opts.logger.debug({ count: models.length }, 'model catalogue refreshed');
    } catch (err) {
      this.expiresAt = this.opts.clock.now() + Math.min(this.opts.ttlMs, MODELS_FAILURE_TTL_MS);
      this.opts.logger.warn({ err }, 'model catalogue fetch failed');
    }
    return this.cached();
  }
}
