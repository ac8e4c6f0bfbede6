/**
 * The undici Agent for gateway traffic, created once in build-gateway.ts and injected into GatewayClient.
 *
 * Node's fetch defaults to 5-minute header and body timeouts whatever the caller wants; image calls take
 * 20–120 s and proxies cut idle sockets around 60–100 s, so set them here, explicitly.
 *
 * @see ../../../shared/docs/image-gateway.md §0.9, §3.3
 * @see https://undici.nodejs.org/#/docs/api/Agent
 */
import type { TcpSocketConnectOpts } from 'node:net';
import { Agent } from 'undici';

/** Socket timeouts of the gateway Agent. */
export interface GatewayAgentOptions {
  /** Time to establish the TCP/TLS connection. */
  connectTimeoutMs: number;
  /** Time from sending the request to the response headers (the whole generation when not streaming). */
  headersTimeoutMs: number;
  /** Longest silence between body chunks. */
  bodyTimeoutMs: number;
  /** How host names are resolved when connecting (the link Agent's guard, LinkPolicy.lookup); Node's by default. */
  lookup?: LinkLookup | undefined;
}

/** A `lookup` as net.connect takes it. */
export type LinkLookup = NonNullable<TcpSocketConnectOpts['lookup']>;

/**
 * Creates the Agent build-gateway.ts passes to GatewayClient as `dispatcher`, and the one for `url` image items (with
 * LinkPolicy.lookup as `lookup`, so a link whose host resolves to an internal address is never connected to).
 */
export function createGatewayAgent(opts: GatewayAgentOptions): Agent {
  return new Agent({
    connect: { timeout: opts.connectTimeoutMs, ...(opts.lookup ? { lookup: opts.lookup } : {}) },
    headersTimeout: opts.headersTimeoutMs,
    bodyTimeout: opts.bodyTimeoutMs,
    // Keep idle sockets briefly: a gateway that closes them first would otherwise fail the next POST mid-send.
    keepAliveTimeout: 4_000,
  });
}
