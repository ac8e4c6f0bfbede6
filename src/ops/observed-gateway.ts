/** The image gateway as the service sees it, with each generate and edit call timed and its failures counted by category. */
import type { ImageGateway } from '../ports/image-gateway.js';
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
  const timed = async <T>(operation: 'generate' | 'edit', call: () => Promise<T>): Promise<T> => {
    const start = now();
    try {
      const result = await call();
      metrics.gatewayCall(operation, (now() - start) / 1000);
      return result;
    } catch (err) {
      metrics.gatewayCall(operation, (now() - start) / 1000, categoryOf(err));
      throw err;
    }
  };
  return {
    generate: (request, options) => timed('generate', () => gateway.generate(request, options)),
    edit: (request, options) => timed('edit', () => gateway.edit(request, options)),
    listModels: (options) => gateway.listModels(options),
    cachedModels: () => gateway.cachedModels(),
  };
}
