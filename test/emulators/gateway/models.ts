/**
 * GET /v1/models bodies in the shapes gateways send (image-gateway.md §2.8, §4.1, §4.2.1).
 */

/**
 * What an OpenAI-compatible gateway lists in 2026-11: the current image models (gpt-image-1 itself is shut down and
 * no longer listed), the dall-e models, and a chat and an embedding model. Pass it as `models`, with
 * {@link REALISTIC_SHUTDOWN_DATES} as `shutdownDates`.
 */
export const REALISTIC_MODELS: readonly string[] = [
  'gpt-image-2',
  'gpt-image-2.5',
  'gpt-image-2.6-sunburst',
  'gpt-image-2.6-flare',
  'gpt-image-1.5',
  'gpt-image-1-mini',
  'chatgpt-image-latest',
  'dall-e-3',
  'dall-e-2',
  'gpt-4o-mini',
  'text-embedding-3-small',
];

/** The announced shutdowns of {@link REALISTIC_MODELS} (YYYY-MM-DD). */
export const REALISTIC_SHUTDOWN_DATES: Readonly<Record<string, string>> = {
  'gpt-image-1.5': '2026-12-01',
  'gpt-image-1-mini': '2026-12-01',
  'chatgpt-image-latest': '2026-12-01',
};

/** Which list shape to answer with. */
export type ModelsShape = 'openai' | 'new-api' | 'broken';

// A fixed creation time keeps bodies stable between runs.
const CREATED = 1_714_000_000;

/** The JSON text of the model list. */
export function modelsBody(models: readonly string[], shape: ModelsShape, shutdownDates: Readonly<Record<string, string>> = {}): string {
  // OpenAI's deprecations, as a gateway passing them on reports them: Unix seconds.
  const shutdown = (id: string) => (shutdownDates[id] === undefined ? {} : { shutdown_date: Date.parse(shutdownDates[id]) / 1000 });
  switch (shape) {
    case 'openai':
      // one-api adds permission/root/parent to OpenAI's {id, object, created, owned_by}.
      return JSON.stringify({
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', created: CREATED, owned_by: ownerOf(id), permission: [], root: id, parent: null, ...shutdown(id) })),
      });
    case 'new-api':
      // Older new-api: no "object":"list" next to success.
      return JSON.stringify({
        success: true,
        data: models.map((id) => ({
          id,
          object: 'model',
          created: CREATED,
          owned_by: ownerOf(id),
          supported_endpoint_types: endpointsOf(id),
          ...shutdown(id),
        })),
      });
    case 'broken':
      return JSON.stringify({ success: true, message: '', data: Object.fromEntries(models.map((id) => [id, true])) });
  }
}

function ownerOf(id: string): string {
  return id.startsWith('gpt') || id.startsWith('chatgpt') || id.startsWith('dall-e') || id.startsWith('text-') ? 'openai' : 'custom';
}

function endpointsOf(id: string): string[] {
  if (id.startsWith('gpt-image') || id.startsWith('chatgpt-image') || id.startsWith('dall-e')) return ['image-generation'];
  if (id.startsWith('text-embedding')) return ['embeddings'];
  return ['openai'];
}
