/**
 * An ImageGateway scripted per call: each generate/edit takes the next script (a result, an error, or a
 * function of the request and the running call). It records every call. A script reports through the call as the
 * gateway client does (image-stream.ts): `admit` and `buffer` wait for the caller's answer, the rest are events.
 */
import { imageStream, type ImageCall } from '../../src/gateway/image-stream.js';
import type { EditRequest, GatewayModel, GenerateRequest, ImageResult } from '../../src/core/images.js';
import type { GatewayCallOptions, ImageGateway, ImageStream } from '../../src/ports/image-gateway.js';

/** The running call a script sees: the caller's options, and the events it reports with. */
export type ScriptCall = Omit<ImageCall, 'events'> & ImageCall['events'];

export type GatewayScript = (request: GenerateRequest | EditRequest, call: ScriptCall) => Promise<ImageResult>;

export interface GatewayCall {
  kind: 'generate' | 'edit';
  request: GenerateRequest | EditRequest;
  options: GatewayCallOptions;
}

export class FakeGateway implements ImageGateway {
  readonly calls: GatewayCall[] = [];
  models: GatewayModel[] = [
    { id: 'gpt-image-1', image: true },
    { id: 'dall-e-3', image: true },
  ];
  readonly #scripts: GatewayScript[] = [];
  readonly #callWaiters: { count: number; resolve: () => void }[] = [];

  /** The next call resolves with `result`. */
  returns(result: ImageResult): this {
    return this.next(async () => result);
  }

  /** The next call rejects with `error`. */
  fails(error: unknown): this {
    return this.next(async () => {
      throw error;
    });
  }

  /** The next call runs `script`. */
  next(script: GatewayScript): this {
    this.#scripts.push(script);
    return this;
  }

  generate(request: GenerateRequest, options: GatewayCallOptions = {}): ImageStream {
    return this.#call('generate', request, options);
  }

  edit(request: EditRequest, options: GatewayCallOptions = {}): ImageStream {
    return this.#call('edit', request, options);
  }

  async listModels(): Promise<GatewayModel[]> {
    return this.models;
  }

  cachedModels(): GatewayModel[] {
    return this.models;
  }

  /** Resolves once `count` calls have been made. */
  waitForCalls(count: number): Promise<void> {
    if (this.calls.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.#callWaiters.push({ count, resolve }));
  }

  #call(kind: GatewayCall['kind'], request: GenerateRequest | EditRequest, options: GatewayCallOptions): ImageStream {
    this.calls.push({ kind, request, options });
    for (const waiter of this.#callWaiters.filter((w) => this.calls.length >= w.count)) {
      this.#callWaiters.splice(this.#callWaiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    const script = this.#scripts.shift();
    return imageStream(async (events, signal) => {
      if (!script) throw new Error('FakeGateway: no scripted response left');
      return script(request, { ...options, signal, ...events });
    }, options.signal);
  }
}

/** A promise with its resolve and reject exposed. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
