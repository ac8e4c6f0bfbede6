/**
 * Edits an interaction's original reply, or posts a follow-up, with the image files in a {@link MultipartBody} over the
 * Buffers the bot already holds, where discord.js would copy each file into a Blob (CPU per image; figures in docs/benchmarks.md).
 * discord.js still builds the message JSON and its REST client still sends the request (buckets, retries,
 * DiscordAPIError unchanged); only the multipart body is made differently, in discord.js's order.
 */
import { STATUS_CODES } from 'node:http';
import {
  DefaultRestOptions,
  MessagePayload,
  REST,
  Routes,
  type APIMessage,
  type InteractionEditReplyOptions,
  type RepliableInteraction,
  type ResponseLike,
  type RESTOptions,
} from 'discord.js';
import { restUndici } from './rest-agent.js';
import { MultipartBody } from './multipart-body.js';
import { flagSpoilers } from './spoiler-uploads.js';

const MEDIA_TYPES: Readonly<Record<string, string>> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp' };

/** The media type for a file name's extension. */
export function mediaTypeOf(fileName: string): string {
  return MEDIA_TYPES[fileName.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

/**
 * A REST client for interaction callbacks and interaction webhooks (edits of the reply). Discord does not count
 * those against the bot's global rate limit of 50 requests per second, but discord.js's client applies that limit
 * to every webhook request, so 200 results finishing together would be posted at 50 per second. This client has
 * no global limit of its own; each route's bucket limits (from Discord's headers) still apply. It also sends a
 * {@link MultipartBody} as it grows, where discord.js's own strategy would wait for all of it first.
 */
export function createInteractionWebhookRest(options: Pick<RESTOptions, 'api' | 'agent'> & Partial<Pick<RESTOptions, 'handlerSweepInterval'>>): REST {
  return new REST({ ...options, globalRequestsPerSecond: Number.MAX_SAFE_INTEGER, makeRequest: sendRequest });
}

/** discord.js's default request strategy, except that a MultipartBody is handed to undici as it is (streamed). */
async function sendRequest(url: string, init: Parameters<RESTOptions['makeRequest']>[1]): Promise<ResponseLike> {
  if (!(init.body instanceof MultipartBody)) return DefaultRestOptions.makeRequest(url, init);
  const res = await restUndici().request(url, init);
  const headers = new (restUndici().Headers)();
  for (const [name, value] of Object.entries(res.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  return {
    body: res.body,
    arrayBuffer: () => res.body.arrayBuffer(),
    json: () => res.body.json(),
    text: () => res.body.text(),
    get bodyUsed() {
      return res.body.bodyUsed;
    },
    headers,
    status: res.statusCode,
    statusText: STATUS_CODES[res.statusCode] ?? '',
    ok: res.statusCode >= 200 && res.statusCode < 300,
  };
}

/** The route of an interaction's original reply. */
export function originalReplyRoute(interaction: RepliableInteraction): `/${string}` {
  return Routes.webhookMessage(interaction.applicationId, interaction.token, '@original');
}

/** The route of an interaction's follow-ups (POST creates one; Discord always waits and answers with the message). */
export function followUpRoute(interaction: RepliableInteraction): `/${string}` {
  return Routes.webhook(interaction.applicationId, interaction.token);
}

/**
 * PATCHes the original reply with `options` and returns the edited message as Discord sent it. `files`, if any,
 * are AttachmentBuilders over Buffers named with their image extension.
 */
export function editOriginalReply(rest: REST, interaction: RepliableInteraction, options: InteractionEditReplyOptions): Promise<APIMessage> {
  return sendMessage(rest, 'patch', originalReplyRoute(interaction), interaction, options);
}

/**
 * POSTs a follow-up (a new message under the reply) with `options`, files as for {@link editOriginalReply}; `spoiler`:
 * its files are uploaded as spoilers (spoiler-uploads.ts).
 */
export function postFollowUp(rest: REST, interaction: RepliableInteraction, options: InteractionEditReplyOptions, spoiler = false): Promise<APIMessage> {
  return sendMessage(rest, 'post', followUpRoute(interaction), interaction, options, spoiler);
}

async function sendMessage(
  rest: REST,
  method: 'patch' | 'post',
  route: `/${string}`,
  interaction: RepliableInteraction,
  options: InteractionEditReplyOptions,
  spoiler = false,
): Promise<APIMessage> {
  const { body, files } = await MessagePayload.create(interaction.webhook, options).resolveBody().resolveFiles();
  flagSpoilers(body, spoiler);
  if (!files || files.length === 0) return (await rest[method](route, { body, auth: false })) as APIMessage;
  const form = new MultipartBody();
  files.forEach((file, i) => {
    if (!(file.data instanceof Uint8Array)) throw new TypeError(`file ${i} is not in memory`);
    form.beginFile(file.key ?? `files[${i}]`, file.name, mediaTypeOf(file.name));
    form.writeFile(Buffer.isBuffer(file.data) ? file.data : Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength));
    form.endFile();
  });
  form.field('payload_json', JSON.stringify(body), 'application/json');
  form.close();
  const headers = { 'content-type': form.contentType, 'content-length': String(form.length) };
  return (await rest[method](route, { body: form, passThroughBody: true, headers, auth: false })) as APIMessage;
}
