/**
 * Edits an interaction's original reply with image files in one request body built up front.
 *
 * discord.js would copy every file into a Blob and undici would stream it back out in small asynchronous reads:
 * about 4 ms of CPU per 2 MB image on a 2-core machine, on the path between the gateway's answer and the member
 * seeing the images. Here discord.js still builds the message JSON (MessagePayload) and its own REST client
 * still sends the request (rate limits, retries, DiscordAPIError unchanged); only the multipart body is made
 * differently: the form-data library frames the parts around the Buffers the bot already holds, and they are
 * gathered into one Buffer (one copy, as the Blob was), which also makes a retried request resend the same body.
 */
import { MessagePayload, Routes, type APIMessage, type InteractionEditReplyOptions, type RepliableInteraction } from 'discord.js';
import FormData from 'form-data';

const MEDIA_TYPES: Readonly<Record<string, string>> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp' };

/**
 * PATCHes the original reply with `options`, whose `files` are AttachmentBuilders over Buffers named with their
 * image extension, and returns the edited message as Discord sent it.
 */
export async function editReplyWithFiles(interaction: RepliableInteraction, options: InteractionEditReplyOptions): Promise<APIMessage> {
  const { body, files } = await MessagePayload.create(interaction.webhook, options).resolveBody().resolveFiles();
  const form = new FormData();
  form.append('payload_json', JSON.stringify(body), { contentType: 'application/json' });
  (files ?? []).forEach((file, i) => {
    if (!(file.data instanceof Uint8Array)) throw new TypeError(`file ${i} is not in memory`);
    const bytes = Buffer.isBuffer(file.data) ? file.data : Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength);
    const contentType = MEDIA_TYPES[file.name.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
    form.append(file.key ?? `files[${i}]`, bytes, { filename: file.name, contentType });
  });
  const route = Routes.webhookMessage(interaction.applicationId, interaction.token, '@original');
  return (await interaction.client.rest.patch(route, { body: await gather(form), passThroughBody: true, headers: form.getHeaders(), auth: false })) as APIMessage;
}

/** The whole multipart body as one Buffer (form-data is a classic stream: its parts arrive as data events). */
function gather(form: FormData): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    form.on('data', (chunk: Buffer | string) => chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
    form.on('end', () => resolve(Buffer.concat(chunks)));
    form.on('error', reject);
    form.resume();
  });
}
