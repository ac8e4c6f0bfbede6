/** What went wrong, in terms a member can be told. `cancelled` means the caller aborted. */
export type GatewayErrorCategory =
  | 'invalid_key'
  | 'balance_exhausted'
  | 'unknown_model'
  | 'bad_parameter'
  | 'content_rejected'
  | 'busy'
  | 'timed_out'
  | 'gateway_failure'
  | 'endpoint_missing'
  | 'cancelled';

/** Fields of a GatewayError besides the message. */
export interface GatewayErrorDetails {
  category: GatewayErrorCategory;
  status?: number | undefined;
  code?: string | undefined;
  param?: string | undefined;
  requestId?: string | undefined;
  /** True when the request cannot have reached the gateway (refused, unresolvable, unroutable). */
  beforeSend?: boolean | undefined;
  /**
   * The proxy in front of the gateway whose headers the answer carries: `cloudflare` when it has both `cf-ray` and
   * `server: cloudflare` (a 524 then is Cloudflare cutting a call that ran past its 100 s, not the gateway failing).
   */
  proxy?: 'cloudflare' | undefined;
  /** An image refused for its declared size (code `image_too_large`): its width and height, and the most pixels allowed. */
  pixels?: DeclaredPixels | undefined;
  cause?: unknown;
}

/** An image's declared width and height, and the most pixels (width x height) a decode allows. */
export interface DeclaredPixels {
  width: number;
  height: number;
  max: number;
}

/** Any failure of a gateway call: the ImageGateway port's error contract (the adapter throws subclasses). */
export class GatewayError extends Error {
  override name = 'GatewayError';
  readonly category: GatewayErrorCategory;
  readonly status?: number | undefined;
  readonly code?: string | undefined;
  readonly param?: string | undefined;
  readonly requestId?: string | undefined;
  /** True when the request cannot have reached the gateway: it is down, not this request at fault. */
  readonly beforeSend: boolean;
  /** The proxy in front of the gateway whose headers the answer carried (see GatewayErrorDetails.proxy). */
  readonly proxy?: 'cloudflare' | undefined;
  /** See GatewayErrorDetails.pixels. */
  readonly pixels?: DeclaredPixels | undefined;

  constructor(message: string, details: GatewayErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.category = details.category;
    this.status = details.status;
    this.code = details.code;
    this.param = details.param;
    this.requestId = details.requestId;
    this.beforeSend = details.beforeSend ?? false;
    this.proxy = details.proxy;
    this.pixels = details.pixels;
  }
}
