/**
 * Everything the emulator remembers between requests: settings, recordings, behaviour queues, holds, waiters and
 * the files served for url items.
 */
import { ImageFactory, mimeOf, type OutputFormat } from './images.js';
import type { ModelsShape } from './models.js';
import type { FileStore } from './responses.js';
import type { EmulatedTask } from './tasks.js';
import { performance } from 'node:perf_hooks';
import type { Behaviour, GatewayEmulatorOptions, HeldBody, HeldRequest, ImageStyle, RecordedRequest, RequestIdHeader } from './types.js';
import { setMaxListeners } from 'node:events';
import { OPENROUTER_CHAT_MODELS, OPENROUTER_MODELS, type OpenRouterModelDef } from './dialects/openrouter-models.js';

/** The default accepted key. */
export const DEFAULT_API_KEY = 'sk-emulator-0000000000000000';

/** Cloudflare's proxy read timeout: the origin must send its response headers within 100 s. */
export const CLOUDFLARE_TIMEOUT_MS = 100_000;

/** The default model catalogue. */
export const DEFAULT_MODELS: readonly string[] = ['gpt-image-1', 'gpt-image-1-mini', 'gpt-image-2', 'dall-e-3', 'gpt-4o-mini', 'text-embedding-3-small'];

/** Options with their defaults applied. */
export interface Settings {
  apiKey: string;
  models: readonly string[];
  modelsShape: ModelsShape;
  shutdownDates: Readonly<Record<string, string>>;
  imageStyle: ImageStyle;
  delayMs: number;
  customSizes: boolean;
  unsupportedParams: readonly string[];
  requestIdHeader: RequestIdHeader;
  lang: 'en' | 'zh';
  maxBodyBytes: number;
  /** Behind Cloudflare: its timeout (GatewayEmulatorOptions.cloudflare); undefined without it. */
  cloudflare: { timeoutMs: number } | undefined;
  dialect: 'openai' | 'openrouter' | 'azure';
  azure: {
    /** Deployment → model; undefined: each model deployed under its own name. */
    deployments: Readonly<Record<string, string>> | undefined;
    apiVersions: readonly string[];
    contentFilterTerms: readonly string[];
    blockAfterFilterHits: number;
  };
  openRouter: { models: readonly OpenRouterModelDef[] };
}

/** A pending {@link HeldBody}, as the server sees it. */
export interface BodyHold {
  fraction: number;
  reached(): void;
  /** Resolves with what to do with the rest. */
  decision: Promise<'release' | 'cut'>;
}

interface Hold extends HeldRequest {
  resolveArrived(request: RecordedRequest): void;
  released: Promise<void>;
}

/** The task a GET polls: its kind by route and its id, or undefined for any other request. */
export function taskPollOf(request: Pick<RecordedRequest, 'method' | 'path'>): { kind: EmulatedTask['kind']; id: string } | undefined {
  if (request.method !== 'GET') return undefined;
  const path = request.path.split('?')[0] ?? '';
  const single = /^\/v1\/images\/generations\/([^/]+)$/.exec(path)?.[1];
  if (single) return { kind: 'generation.task', id: decodeURIComponent(single) };
  const listed = /^\/v1\/tasks\/([^/]+)$/.exec(path)?.[1];
  return listed ? { kind: 'tasks-api', id: decodeURIComponent(listed) } : undefined;
}

/** True when a task of `kind` is polled on the route of `route` (`/v1/tasks/{id}` serves both task-API shapes). */
export function polledOn(kind: EmulatedTask['kind'], route: EmulatedTask['kind']): boolean {
  return (kind === 'generation.task') === (route === 'generation.task');
}

/** True for POST /v1/chat/completions. */
export function isChatPost(request: Pick<RecordedRequest, 'method' | 'path'>): boolean {
  return request.method === 'POST' && (request.path.split('?')[0] ?? '') === '/v1/chat/completions';
}

/** An image POST in any dialect: `/v1/images/*`, OpenRouter's `/api/v1/images`, Azure's deployment and v1 paths. */
const IMAGE_POST = /^\/(?:v1\/images\/|api\/v1\/images(?:\?|$)|openai\/(?:v1|deployments\/[^/]+)\/images\/)/;

/** True for an image POST (POST /v1/images/*, or its path in the emulator's dialect). */
export function isImagePost(request: Pick<RecordedRequest, 'method' | 'path'>): boolean {
  return request.method === 'POST' && IMAGE_POST.test(request.path);
}

/** Mutable emulator state shared by the server and the public handle. */
export class EmulatorState implements FileStore {
  readonly settings: Settings;
  readonly requests: RecordedRequest[] = [];
  readonly specViolations: string[] = [];
  readonly imageQueue: Behaviour[] = [];
  readonly modelsQueue: Behaviour[] = [];
  readonly chatQueue: Behaviour[] = [];
  /** Files served under /files/; past `expiresAt` (Date.now() ms) a file answers 403. */
  readonly files = new Map<string, { bytes: Buffer; contentType: string; expiresAt?: number | undefined }>();
  /** Tasks handed out by `asTask` answers, by id. */
  readonly tasks = new Map<string, EmulatedTask>();
  readonly images = new ImageFactory();
  readonly closing = new AbortController();
  origin = '';
  /** Azure: prompts its content filter refused (the resource is blocked past `blockAfterFilterHits`). */
  azureFilterHits = 0;
  /** OpenRouter: the cost charged per completed generation. */
  readonly openRouterCharges: number[] = [];
  private readonly holds: Hold[] = [];
  private readonly chatHolds: Hold[] = [];
  private readonly bodyHolds: BodyHold[] = [];
  private readonly waiters: { count: number; resolve: () => void }[] = [];
  private fileCounter = 0;

  constructor(options: GatewayEmulatorOptions) {
    // Every answer waiting out its delay listens for close: any number may wait at once.
    setMaxListeners(0, this.closing.signal);
    this.settings = {
      apiKey: options.apiKey ?? DEFAULT_API_KEY,
      models: options.models ?? (options.dialect === 'openrouter' ? OPENROUTER_CHAT_MODELS : DEFAULT_MODELS),
      modelsShape: options.modelsShape ?? 'openai',
      shutdownDates: options.shutdownDates ?? {},
      imageStyle: options.imageStyle ?? 'flat',
      delayMs: options.delayMs ?? 0,
      customSizes: options.customSizes ?? true,
      unsupportedParams: options.unsupportedParams ?? [],
      requestIdHeader: options.requestIdHeader ?? (options.dialect === undefined || options.dialect === 'openai' ? 'X-Oneapi-Request-Id' : 'x-request-id'),
      lang: options.lang ?? 'en',
      maxBodyBytes: options.maxBodyBytes ?? 64 * 1024 * 1024,
      cloudflare: options.cloudflare ? { timeoutMs: options.cloudflare.timeoutMs ?? CLOUDFLARE_TIMEOUT_MS } : undefined,
      dialect: options.dialect ?? 'openai',
      azure: {
        deployments: options.azure?.deployments,
        apiVersions: options.azure?.apiVersions ?? ['2024-10-21', '2025-04-01-preview'],
        contentFilterTerms: options.azure?.contentFilterTerms ?? ['gore', 'massacre'],
        blockAfterFilterHits: options.azure?.blockAfterFilterHits ?? 10,
      },
      openRouter: { models: options.openRouter?.models ?? OPENROUTER_MODELS },
    };
  }

  /** Image POSTs received so far. */
  imageRequests(): RecordedRequest[] {
    return this.requests.filter(isImagePost);
  }

  /** Stores a request and wakes the waiters it satisfies. */
  record(request: RecordedRequest): void {
    this.requests.push(request);
    this.specViolations.push(...request.specErrors);
    if (!isImagePost(request)) return;
    const count = this.imageRequests().length;
    for (const waiter of [...this.waiters]) {
      if (count < waiter.count) continue;
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  }

  /** Resolves once `count` image POSTs have arrived. */
  waitForRequests(count: number): Promise<void> {
    if (this.imageRequests().length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  /** Registers a hold for the next image POST that arrives. */
  hold(): HeldRequest {
    return this.register(this.holds);
  }

  /** Registers a hold for the next chat completion POST that passes its checks. */
  holdChat(): HeldRequest {
    return this.register(this.chatHolds);
  }

  /** Applies the oldest pending chat hold to a chat POST; resolves when it is released (at once when none is). */
  async passChatHold(request: RecordedRequest): Promise<void> {
    const hold = this.chatHolds.shift();
    if (!hold) return;
    hold.resolveArrived(request);
    await Promise.race([hold.released, this.closed()]);
  }

  private register(holds: Hold[]): HeldRequest {
    let resolveArrived: (request: RecordedRequest) => void = () => undefined;
    let release: () => void = () => undefined;
    const arrived = new Promise<RecordedRequest>((resolve) => (resolveArrived = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const releaseHold = () => release();
    holds.push({ arrived, released, resolveArrived, release: releaseHold });
    return { arrived, release: releaseHold };
  }

  /** Registers a hold inside the next successful plain-JSON answer's body. */
  holdBody(fraction: number): HeldBody {
    let reached: () => void = () => undefined;
    let decide: (decision: 'release' | 'cut') => void = () => undefined;
    const written = new Promise<void>((resolve) => (reached = resolve));
    const decision = new Promise<'release' | 'cut'>((resolve) => (decide = resolve));
    this.bodyHolds.push({ fraction, reached: () => reached(), decision });
    return { written, release: () => decide('release'), cut: () => decide('cut') };
  }

  /** The oldest pending body hold, taken. */
  takeBodyHold(): BodyHold | undefined {
    return this.bodyHolds.shift();
  }

  /**
   * Applies the oldest pending hold to a just-arrived image POST; resolves when it is released, with the
   * performance.now() of the release (undefined when the request was not held).
   */
  async passHold(request: RecordedRequest): Promise<number | undefined> {
    const hold = this.holds.shift();
    if (!hold) return undefined;
    hold.resolveArrived(request);
    await Promise.race([hold.released, this.closed()]);
    return performance.now();
  }

  /** Waits `ms` milliseconds, or less if the emulator closes. */
  sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    const signal = this.closing.signal;
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      // Removed again when the timer fires, so a long run does not pile listeners onto the signal.
      signal.addEventListener('abort', done, { once: true });
      function done(): void {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
    });
  }

  /** @inheritdoc */
  publish(bytes: Buffer, extension: OutputFormat, broken: boolean, ttlMs?: number): string {
    const name = `img-${++this.fileCounter}.${extension === 'jpeg' ? 'jpg' : extension}`;
    const expiresAt = ttlMs === undefined ? undefined : Date.now() + ttlMs;
    if (!broken) this.files.set(name, { bytes, contentType: mimeOf(extension), expiresAt });
    return `${this.origin}/files/${name}`;
  }

  private closed(): Promise<void> {
    if (this.closing.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => this.closing.signal.addEventListener('abort', () => resolve(), { once: true }));
  }
}
