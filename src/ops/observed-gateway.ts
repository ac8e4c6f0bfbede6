/** The image gateway as the service sees it, with each generate and edit call timed and its failures counted by category. */
import type { ImageGateway, ImageStream, ImageStreamEvent } from '../ports/image-gateway.js';
import type { BotMetrics } from './metrics.js';

/** What a failure is counted as: a GatewayError's category, or `other`. */
function categoryOf(err: unknown): string {
  const category = (err as { category?: unknown } | null)?.category;
  return typeof category === 'string' ? category : 'other';
}

/** `gateway`, reporting each image call to `metrics`; listings pass through untouched. */
export function observeGateway(
  gateway: ImageGateway,
  metrics: Pick<BotMetrics, 'gatewayCall'>,
  now: () => number = performance.now.bind(performance),
): ImageGateway {
  // Timed from the start of the iteration (when the request goes out) to its completed event or its failure; the
  // caller's answers to the stream's requests pass through, since the events are the same objects.
  async function* timed(operation: 'generate' | 'edit', stream: ImageStream): AsyncGenerator<ImageStreamEvent, void, undefined> {
    const start = now();
    try {
      for await (const event of stream) {
        if (event.type === 'completed') metrics.gatewayCall(operation, (now() - start) / 1000);
        yield event;
      }
    } catch (err) {
      metrics.gatewayCall(operation, (now() - start) / 1000, categoryOf(err));
      throw err;
    }
  }
  return {
    generate: (request, options) => ({ [Symbol.asyncIterator]: () => timed('generate', gateway.generate(request, options)) }),
    edit: (request, options) => ({ [Symbol.asyncIterator]: () => timed('edit', gateway.edit(request, options)) }),
    listModels: (options) => gateway.listModels(options),
    cachedModels: () => gateway.cachedModels(),
  };
}
