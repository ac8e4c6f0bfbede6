/**
 * Request ids: every gateway family names its header differently, and one-api/new-api also append the id to
 * error messages. Keep whichever we find on every error and log line.
 *
 * @see ../../../shared/docs/image-gateway.md §0.7, §4.2.3
 */

/**
 * Response headers that carry a request id, most specific first. Cloudflare's Ray id comes last: it is the only id
 * on the answers Cloudflare writes itself (52x), and the one its support asks for.
 */
const REQUEST_ID_HEADERS = ['x-request-id', 'x-oneapi-request-id', 'x-api-request-id', 'cf-ray'] as const;

/** Headers as undici's request() returns them. */
export type ResponseHeaders = Record<string, string | string[] | undefined>;

const MESSAGE_SUFFIX = /\s*[(（]\s*request id:\s*([^)）\s]+)\s*[)）]\s*$/i;

/** Reads a header case-insensitively; the first value when repeated. */
export function headerValue(headers: ResponseHeaders, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined && first !== '') return first;
  }
  return undefined;
}

/** The request id from the headers, else from a `(request id: …)` suffix of the message. */
export function findRequestId(headers: ResponseHeaders, message?: string): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const value = headerValue(headers, name);
    if (value) return value;
  }
  return message ? MESSAGE_SUFFIX.exec(message)?.[1] : undefined;
}

/** The message without its `(request id: …)` suffix, for matching and display. */
export function stripRequestId(message: string): string {
  return message.replace(MESSAGE_SUFFIX, '');
}
