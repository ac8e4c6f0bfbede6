/**
 * Reading an ImageStream in tests as the produce step does: each handler answers or takes its events; without one,
 * a request event gets its default (no memory budget, a Buffer the gateway allocates) and the rest are dropped.
 * Resolves with the completed event's result; rejects with the call's failure.
 */
import type { ImageResult, PartialImage } from '../../src/core/images.js';
import type { ImageStream } from '../../src/ports/image-gateway.js';

export interface StreamHandlers {
  admit?: ((bytes: number | undefined) => number | Promise<number>) | undefined;
  buffer?: ((bytes: number) => Buffer) | undefined;
  data?: ((index: number, bytes: Buffer) => void) | undefined;
  end?: ((index: number, bytes: Buffer) => void) | undefined;
  partial?: ((image: PartialImage) => void) | undefined;
  taskStatus?: ((status: 'queued' | 'generating') => void) | undefined;
}

export async function finalResult(stream: ImageStream, handlers: StreamHandlers = {}): Promise<ImageResult> {
  for await (const event of stream) {
    switch (event.type) {
      case 'admission':
        if (handlers.admit) event.answer(handlers.admit(event.bytes));
        break;
      case 'buffer':
        if (handlers.buffer) event.answer(handlers.buffer(event.bytes));
        break;
      case 'image_data':
        handlers.data?.(event.index, event.bytes);
        break;
      case 'image_end':
        handlers.end?.(event.index, event.bytes);
        break;
      case 'partial_image':
        handlers.partial?.(event.image);
        break;
      case 'task_status':
        handlers.taskStatus?.(event.status);
        break;
      case 'completed':
        return event.result;
    }
  }
  throw new Error('the image stream ended without a completed event');
}
