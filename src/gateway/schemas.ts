/**
 * Zod schemas for what the gateway sends back. Parsed with safeParse at the boundary; optional wherever a
 * one-api/new-api relay is known to leave things out.
 *
 * @see ../../../shared/docs/image-gateway.md §2.4, §2.5, §2.6, §2.8
 */
import { z } from 'zod';

/** `code` is a string, a number or null depending on the relay; `param` may be null or "". */
const loosely = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => (v === null || v === undefined || v === '' ? undefined : String(v)));

/** `{error:{message,type,param,code}}`, with every field optional (one-api omits code and param). */
export const ErrorObject = z.object({
  message: z.string().nullish(),
  type: z.string().nullish(),
  param: loosely,
  code: loosely,
});
export type ErrorObject = z.infer<typeof ErrorObject>;

/** The OpenAI envelope `{error:{…}}`. */
export const ErrorEnvelope = z.object({ error: ErrorObject });
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** The flat shape some proxies use (`{"error":"Not Found","message":"…"}`); read as the message and code. */
export const FlatErrorBody = ErrorObject.extend({ message: z.string() });
export type FlatErrorBody = z.infer<typeof FlatErrorBody>;

/** Token usage; some gateways omit the details, so only the totals are read. */
const Count = z.number().nonnegative().nullish().catch(undefined);
const TokenDetails = z.object({ text_tokens: Count, image_tokens: Count }).nullish().catch(undefined);

/**
 * `usage` in whatever shape the gateway sends (usage.ts normalises it): OpenAI's image tokens with or without
 * `*_details`, the chat shape (`prompt_tokens`/`completion_tokens`), and a reported cost (`cost` in USD, or
 * `cost_in_usd_ticks`, 10⁻¹⁰ USD each). Every field is optional; a field of the wrong type is dropped.
 */
export const ImagesUsage = z.object({
  input_tokens: Count,
  output_tokens: Count,
  total_tokens: Count,
  prompt_tokens: Count,
  completion_tokens: Count,
  input_tokens_details: TokenDetails,
  output_tokens_details: TokenDetails,
  prompt_tokens_details: TokenDetails,
  cost: z.union([z.number(), z.string()]).nullish().catch(undefined),
  cost_in_usd_ticks: Count,
});
export type ImagesUsage = z.infer<typeof ImagesUsage>;

/** One image item: b64_json (GPT image models) or url (dall-e, some relays). */
export const ImageItem = z.object({
  b64_json: z.string().nullish(),
  url: z.string().nullish(),
});
export type ImageItem = z.infer<typeof ImageItem>;

/** ImagesResponse. The spec requires only `created`; we do not even require that. */
export const ImagesResponse = z.object({
  created: z.number().nullish(),
  data: z.array(ImageItem).nullish(),
  output_format: z.string().nullish(),
  // A malformed usage block must not cost the member their image.
  usage: ImagesUsage.nullish().catch(undefined),
  error: z.unknown().optional(),
});
export type ImagesResponse = z.infer<typeof ImagesResponse>;

/** One SSE event of an image stream; dispatched on `type`, never on the SSE `event:` line. */
export const ImageStreamEvent = z.object({
  type: z.string().optional(),
  b64_json: z.string().nullish(),
  url: z.string().nullish(),
  partial_image_index: z.number().int().nonnegative().nullish(),
  output_format: z.string().nullish(),
  usage: ImagesUsage.nullish().catch(undefined),
  error: z.unknown().optional(),
});
export type ImageStreamEvent = z.infer<typeof ImageStreamEvent>;

/** A `shutdown_date` as gateways report it (Unix seconds or an ISO date), as YYYY-MM-DD; anything else is ignored. */
const ShutdownDate = z
  .union([z.number(), z.string()])
  .nullish()
  .transform((value) => {
    if (value === null || value === undefined) return undefined;
    const time = typeof value === 'number' ? value * 1000 : Date.parse(value);
    return Number.isFinite(time) ? new Date(time).toISOString().slice(0, 10) : undefined;
  })
  .catch(undefined);

/**
 * `GET /models`: OpenAI's `{object:"list",data}` or new-api's `{success:true,data}`; `data[].id` and, where the
 * gateway reports it, `data[].shutdown_date` are read.
 */
export const ModelsResponse = z.object({
  data: z.array(z.object({ id: z.string().min(1), shutdown_date: ShutdownDate })),
});
export type ModelsResponse = z.infer<typeof ModelsResponse>;

/** JSON.parse that answers undefined instead of throwing (the result still goes through a schema). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
