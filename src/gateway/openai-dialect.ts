/**
 * The OpenAI dialect (OpenAI itself, and the one-api/new-api relays): `POST {base}/images/{generations,edits}`,
 * JSON for a generation and multipart for an edit, `Authorization: Bearer`, `GET {base}/models`.
 *
 * @see ../../../shared/docs/image-gateway.md §0.2, §2
 */
import type { EditRequest } from '../core/images.js';
import type { GatewayDialect, ImagePost } from './dialect.js';
import { fetchModels } from './model-ids.js';
import { buildEditForm } from './multipart.js';
import { toJsonBody, type WireParams } from './params.js';

/** An OpenAI-shaped image POST to `path`: the JSON body of a generation, or the multipart form of an edit. */
export function openAiImagePost(path: string, params: WireParams, edit: EditRequest | undefined): ImagePost {
  if (!edit) return { path, contentType: 'application/json', body: toJsonBody(params) };
  const form = buildEditForm(params, edit.images, edit.mask);
  return { path, contentType: form.contentType, length: form.length, body: form.chunks };
}

export const openAiDialect: GatewayDialect = {
  name: 'openai',
  keyHeader: 'authorization',
  imagePost: (endpoint, params, edit) => openAiImagePost(`/images/${endpoint}`, params, edit),
  chatRoute: (model) => ({ path: '/chat/completions', model }),
  fetchModels: (ctx, signal, timeoutMs) => fetchModels(ctx, signal, timeoutMs),
};
