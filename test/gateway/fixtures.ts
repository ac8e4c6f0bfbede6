/**
 * Shared fixtures for the gateway client tests: real images made with sharp, a silent logger, a recording sleep,
 * and a client wired to an emulator over a real undici Agent.
 */
import pino from 'pino';
import sharp from 'sharp';
import type { Agent } from 'undici';
import { createGatewayAgent } from '../../src/gateway/agent.js';
import { LinkPolicy } from '../../src/gateway/link-policy.js';
import { GatewayClient, type GatewayClientOptions } from '../../src/gateway/gateway-client.js';
import type { ImageFormat } from '../../src/core/images.js';
import type { GatewayEmulator } from '../emulators/gateway/index.js';
import { GatewayError } from '../../src/gateway/errors.js';

export const silentLogger = pino({ level: 'silent' });

/** A small real image of the given format. */
export async function makeImage(format: ImageFormat, width = 32, height = 32, alpha = false): Promise<Buffer> {
  const img = sharp({ create: { width, height, channels: alpha ? 4 : 3, background: alpha ? { r: 0, g: 0, b: 0, alpha: 0 } : { r: 10, g: 120, b: 200 } } });
  return img.toFormat(format).toBuffer();
}

/** A sleep that records what it was asked to wait and returns at once (but honours abort). */
export function recordingSleep(): { sleep: (ms: number, signal?: AbortSignal) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms, signal) => {
      waits.push(ms);
      signal?.throwIfAborted();
    },
  };
}

/** A client on a real Agent against the emulator; the caller closes the agent. */
export function clientFor(gw: GatewayEmulator, extra: Partial<GatewayClientOptions> = {}): { client: GatewayClient; agent: Agent; waits: number[] } {
  const agent = createGatewayAgent({ connectTimeoutMs: 2_000, headersTimeoutMs: 20_000, bodyTimeoutMs: 20_000 });
  const { sleep, waits } = recordingSleep();
  const client = new GatewayClient({
    // The emulator serves url items from its own loopback address, so it is listed (as GATEWAY_URL_HOSTS would).
    links: { policy: new LinkPolicy(gw.baseUrl, [new URL(gw.baseUrl).host]), dispatcher: agent },
    baseUrl: gw.baseUrl,
    apiKey: gw.apiKey,
    dispatcher: agent,
    defaultModel: 'gpt-image-1',
    logger: silentLogger,
    sleep,
    random: () => 0,
    ...extra,
  });
  return { client, agent, waits };
}

/** The GatewayError a promise rejects with (fails the test when it resolves or rejects with anything else). */
export async function failure(promise: Promise<unknown>): Promise<GatewayError> {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (err instanceof GatewayError) return err;
  throw new Error(`expected a GatewayError, got ${String(err)}`);
}
