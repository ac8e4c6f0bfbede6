/**
 * The image call as the caller sees it (the port's ImageStream): an async iterable of events, as openai-node
 * returns a `Stream` of image events. Inside the gateway the call is still written as one promise that reads the
 * answer and reports what it reads through {@link CallEvents}; this module turns those reports into events, in
 * order, and the two questions the call must have answered (room in the memory budget before an answer is read,
 * the Buffer a JSON answer is decoded into) into request events whose answers the call awaits. So the caller admits
 * every byte before it is allocated, exactly as when it passed callbacks, and the port carries no callbacks.
 *
 * Nothing is sent before the iteration starts. Leaving it early aborts the call and waits for it to settle, so no
 * Buffer the caller handed over is written to after the caller has moved on.
 */
import type { GatewayCallOptions, ImageStream, ImageStreamEvent } from '../ports/image-gateway.js';
import type { ImageResult, PartialImage } from '../core/images.js';

/** What a running call reports, and the answers it waits for (each one an event to the caller). */
export interface CallEvents {
  /** The most bytes that may be read of what is about to be read (`bytes`, when declared). */
  admit: (bytes: number | undefined) => Promise<number>;
  /** The Buffer to decode a JSON answer's images into, or undefined to allocate one. */
  buffer: (bytes: number) => Promise<Buffer | undefined>;
  data: (index: number, bytes: Buffer) => void;
  end: (index: number, bytes: Buffer) => void;
  partial: (image: PartialImage) => void;
  taskStatus: (status: 'queued' | 'generating') => void;
}

/** The call itself: it reports through `events` and stops when `signal` aborts. */
export type ImageCallRun = (events: CallEvents, signal: AbortSignal) => Promise<ImageResult>;

/** The options of one running call, as the gateway's exchanges read them. */
export interface ImageCall extends GatewayCallOptions {
  /** The caller's signal, or leaving the iteration early. */
  signal: AbortSignal;
  events: CallEvents;
}

/** `run` as an ImageStream; `signal` is the caller's (GatewayCallOptions.signal). */
export function imageStream(run: ImageCallRun, signal?: AbortSignal): ImageStream {
  return { [Symbol.asyncIterator]: () => iterate(run, signal) };
}

async function* iterate(run: ImageCallRun, signal: AbortSignal | undefined): AsyncGenerator<ImageStreamEvent, void, undefined> {
  const queue = new EventQueue();
  const left = new AbortController();
  const call = { running: true };
  const settled = run(queue.events, signal ? AbortSignal.any([signal, left.signal]) : left.signal).then(
    (result) => queue.finish({ type: 'completed', result }),
    (err: unknown) => queue.fail(err),
  );
  void settled.then(() => (call.running = false));
  try {
    for (let event = await queue.next(); event; event = await queue.next()) {
      yield event;
      queue.answerTaken();
    }
  } finally {
    // Left early (or done): the call stops, its open questions are let go, and it settles before the caller goes on.
    if (call.running) left.abort();
    queue.close();
    await settled;
  }
}

/** Settles a request once: by the caller's answer or by its default, whichever comes first. */
function answeredOnce(): <A extends unknown[]>(fn: (...args: A) => void) => (...args: A) => void {
  let open = true;
  return (fn) =>
    (...args) => {
      if (!open) return;
      open = false;
      fn(...args);
    };
}

/** Events reported and not yet taken, then the end (or the failure) of the call. */
class EventQueue {
  private readonly pending: ImageStreamEvent[] = [];
  /** The defaults of the request events not yet answered, by event. */
  private readonly defaults = new Map<ImageStreamEvent, () => void>();
  private taken: ImageStreamEvent | undefined;
  private wake: (() => void) | undefined;
  private ended = false;
  private failure: { err: unknown } | undefined;

  readonly events: CallEvents = {
    admit: (bytes) =>
      new Promise<number>((resolve, reject) => {
        const once = answeredOnce();
        const answer = once((room: number | Promise<number>) => void Promise.resolve(room).then(resolve, reject));
        this.ask(
          { type: 'admission', bytes, answer },
          once(() => resolve(Infinity)),
        );
      }),
    buffer: (bytes) =>
      new Promise<Buffer | undefined>((resolve) => {
        const once = answeredOnce();
        this.ask(
          { type: 'buffer', bytes, answer: once(resolve) },
          once(() => resolve(undefined)),
        );
      }),
    data: (index, bytes) => this.push({ type: 'image_data', index, bytes }),
    end: (index, bytes) => this.push({ type: 'image_end', index, bytes }),
    partial: (image) => this.push({ type: 'partial_image', image }),
    taskStatus: (status) => this.push({ type: 'task_status', status }),
  };

  /** The next event; undefined once the call has completed; throws its failure once the events before it are taken. */
  async next(): Promise<ImageStreamEvent | undefined> {
    while (this.pending.length === 0 && !this.ended) await new Promise<void>((resolve) => (this.wake = resolve));
    const event = this.pending.shift();
    this.taken = event;
    if (event) return event;
    if (this.failure) throw this.failure.err;
    return undefined;
  }

  /** The caller moved on: the event it took, if a request it did not answer, gets its default. */
  answerTaken(): void {
    if (this.taken) this.answerByDefault(this.taken);
    this.taken = undefined;
  }

  /** Every request still open gets its default (the call is aborted by then); later reports are dropped. */
  close(): void {
    this.ended = true;
    for (const event of [...this.defaults.keys()]) this.answerByDefault(event);
    this.pending.length = 0;
  }

  finish(completed: ImageStreamEvent): void {
    this.push(completed);
    this.end();
  }

  fail(err: unknown): void {
    this.failure = { err };
    this.end();
  }

  private ask(event: ImageStreamEvent, byDefault: () => void): void {
    if (this.ended) {
      byDefault();
      return;
    }
    this.defaults.set(event, byDefault);
    this.push(event);
  }

  private answerByDefault(event: ImageStreamEvent): void {
    this.defaults.get(event)?.();
    this.defaults.delete(event);
  }

  private push(event: ImageStreamEvent): void {
    if (this.ended) return;
    this.pending.push(event);
    this.wakeUp();
  }

  private end(): void {
    this.ended = true;
    this.wakeUp();
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
