/**
 * Which model a command without one uses. DEFAULT_IMAGE_MODEL when the gateway lists it; otherwise (unset, or not
 * listed) the best model the gateway lists, by a documented preference order: GPT image models newest first (the
 * plain one before its variants, `-mini` last), then `chatgpt-image-*`, then dall-e-3 and dall-e-2, then other
 * image models by name. A model whose shutdown date has passed is never chosen, and one with a date to come only
 * when nothing without one is listed. Chosen again at start and on every catalogue refresh; each change of choice,
 * and a shutdown date of the model in use (once a day), is logged.
 */
import type pino from 'pino';
import type { Clock } from '../ports/clock.js';
import { listsImages, type ListedModel } from './models.js';

/** The default before the gateway has listed anything, when DEFAULT_IMAGE_MODEL is unset. */
export const FALLBACK_DEFAULT_MODEL = 'gpt-image-2';

const GPT_IMAGE = /^gpt-image-(\d+(?:\.\d+)?)(?:-(.+))?$/;
const DAY_MS = 86_400_000;

/** Sort key of an image model id: lower first. A relay's provider prefix (`openai/gpt-image-2`) does not change the model. */
function rank(id: string): [number, number, number, string] {
  const bare = id.slice(id.lastIndexOf('/') + 1);
  const gpt = GPT_IMAGE.exec(bare);
  if (gpt) {
    const variant = gpt[2] === undefined ? 0 : gpt[2] === 'mini' ? 2 : 1;
    return [0, -Number(gpt[1]), variant, id];
  }
  if (bare.startsWith('chatgpt-image')) return [1, 0, 0, id];
  if (bare === 'dall-e-3') return [2, 0, 0, id];
  if (bare === 'dall-e-2') return [3, 0, 0, id];
  return [4, 0, 0, id];
}

function compareRanks(a: string, b: string): number {
  const [x, y] = [rank(a), rank(b)];
  for (let i = 0; i < 3; i += 1) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x[3].localeCompare(y[3]);
}

/** The image models of `models` that may be chosen on `today` (YYYY-MM-DD), best first. */
export function preferredModels(models: readonly ListedModel[], today: string): string[] {
  const live = models.filter((m) => listsImages(m) && !(m.shutdownDate !== undefined && m.shutdownDate <= today));
  const lasting = live.filter((m) => m.shutdownDate === undefined).map((m) => m.id);
  const ending = live.filter((m) => m.shutdownDate !== undefined).map((m) => m.id);
  return [...new Set([...lasting.sort(compareRanks), ...ending.sort(compareRanks)])];
}

/** Options of {@link DefaultModel}. */
export interface DefaultModelOptions {
  /** DEFAULT_IMAGE_MODEL, when set. */
  configured?: string | undefined;
  /** host[:port] of the gateway, named in the log. */
  host: string;
  clock: Clock;
  logger: pino.Logger;
}

/** The model in use by default, chosen again from each listing. */
export class DefaultModel {
  private readonly opts: DefaultModelOptions;
  private readonly log: pino.Logger;
  private chosen: string;
  /** The last warning or choice logged, so each is logged once. */
  private lastNotice = '';
  /** Model → the day its shutdown was last logged. */
  private readonly shutdownLogged = new Map<string, string>();

  constructor(opts: DefaultModelOptions) {
    this.opts = opts;
    this.log = opts.logger.child({ module: 'models' });
    this.chosen = opts.configured ?? FALLBACK_DEFAULT_MODEL;
  }

  /** The model a command without one uses now. */
  get current(): string {
    return this.chosen;
  }

  /** Chooses again from the gateway's listing; a listing without image models changes nothing. */
  update(models: readonly ListedModel[]): void {
    const today = new Date(this.opts.clock.now()).toISOString().slice(0, 10);
    const preferred = preferredModels(models, today);
    const { configured, host } = this.opts;
    const best = preferred[0];
    if (configured !== undefined && preferred.includes(configured)) this.chosen = configured;
    else if (best !== undefined) {
      this.chosen = best;
      const ended = models.find((m) => m.id === configured)?.shutdownDate;
      const why = ended === undefined ? `is not listed by the gateway at ${host}` : `shut down on ${ended} (says the gateway at ${host})`;
      const notice =
        configured === undefined
          ? `default image model: ${best}, the best the gateway at ${host} lists (set DEFAULT_IMAGE_MODEL to choose one)`
          : `DEFAULT_IMAGE_MODEL ${configured} ${why} (image models: ${listOf(preferred)}): using ${best} instead`;
      if (notice !== this.lastNotice) {
        if (configured === undefined) this.log.info({ host, defaultModel: best }, notice);
        else this.log.warn({ host, configured, defaultModel: best }, notice);
        this.lastNotice = notice;
      }
    }
    this.logShutdown(models, today);
  }

  /** Once a day per model: the gateway says the model in use shuts down. */
  private logShutdown(models: readonly ListedModel[], today: string): void {
    const date = models.find((m) => m.id === this.chosen)?.shutdownDate;
    if (date === undefined || this.shutdownLogged.get(this.chosen) === today) return;
    this.shutdownLogged.set(this.chosen, today);
    const days = Math.round((Date.parse(date) - Date.parse(today)) / DAY_MS);
    this.log.warn(
      { host: this.opts.host, defaultModel: this.chosen, shutdownDate: date },
      `default image model ${this.chosen} shuts down on ${date} (in ${days} day${days === 1 ? '' : 's'}, says the gateway at ${this.opts.host})${this.opts.configured === undefined ? '' : ': set DEFAULT_IMAGE_MODEL to another model'}`,
    );
  }
}

function listOf(ids: readonly string[]): string {
  if (ids.length === 0) return 'none';
  return ids.length <= 8 ? ids.join(', ') : `${ids.slice(0, 8).join(', ')} and ${ids.length - 8} more`;
}
