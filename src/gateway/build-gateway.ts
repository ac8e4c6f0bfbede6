/**
 * The gateway room, built from its part of the configuration: the dialect, the two Agents (the gateway's, and the
 * guarded one for `url` image items), the image and chat clients, the models' profiles and the start-up check.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { ModelProfiles } from '../core/model-profiles.js';
import type { Clock } from '../ports/clock.js';
import { createGatewayAgent } from './agent.js';
import { ChatClient } from './chat-client.js';
import { createDialect } from './dialects.js';
import { GatewayClient } from './gateway-client.js';
import { LinkPolicy } from './link-policy.js';
import { GatewayCheck } from './startup-check.js';

/** What the gateway reads of the configuration. */
export type GatewayConfig = Pick<
  Config,
  | 'GATEWAY_BASE_URL'
  | 'GATEWAY_API_KEY'
  | 'GATEWAY_DIALECT'
  | 'AZURE_DEPLOYMENTS'
  | 'AZURE_API_VERSION'
  | 'GATEWAY_URL_HOSTS'
  | 'GATEWAY_TIMEOUT_MS'
  | 'GATEWAY_CONNECT_TIMEOUT_MS'
  | 'GATEWAY_CHECK_INTERVAL_MS'
  | 'GATEWAY_MAX_RETRIES'
  | 'GATEWAY_MAX_RESPONSE_BYTES'
  | 'GATEWAY_TASK_POLL_MS'
  | 'DEFAULT_IMAGE_MODEL'
  | 'MAX_DECODE_PIXELS'
  | 'MODEL_PROFILES_FILE'
  | 'PROMPT_TIMEOUT_MS'
  | 'HTTP_PORT'
>;

/** The built gateway. */
export interface Gateway {
  /** The image gateway (the service's ImageGateway port) and its model catalogue. */
  client: GatewayClient;
  /** The chat models prompt help asks, on the same Agent. */
  chat: ChatClient;
  /** What each model accepts (MODEL_PROFILES_FILE over the built-in profiles). */
  profiles: ModelProfiles;
  /** The Agent gateway requests go out on; downloads from Discord's CDN share it. */
  dispatcher: ReturnType<typeof createGatewayAgent>;
  /** The start-up check of the catalogue (started once the bot is logged in). */
  check: GatewayCheck;
  /** Closes both Agents, or with `cutOff` destroys them, ending requests still open; never rejects. */
  close(cutOff: boolean): Promise<void>;
}

/** Builds the gateway room (nothing is sent until the check starts or a job calls it). */
export function buildGateway(config: GatewayConfig, parts: { clock: Clock; logger: Logger }): Gateway {
  const { clock, logger } = parts;
  const timeouts = {
    connectTimeoutMs: config.GATEWAY_CONNECT_TIMEOUT_MS,
    headersTimeoutMs: config.GATEWAY_TIMEOUT_MS,
    bodyTimeoutMs: config.GATEWAY_TIMEOUT_MS,
  };
  const agent = createGatewayAgent(timeouts);
  // url image items: only from the gateway's host or GATEWAY_URL_HOSTS, over an Agent that refuses internal addresses.
  const links = new LinkPolicy(config.GATEWAY_BASE_URL, config.GATEWAY_URL_HOSTS);
  const linkAgent = createGatewayAgent({ ...timeouts, lookup: links.lookup });
  const profiles = new ModelProfiles(config.MODEL_PROFILES_FILE?.profiles);
  // The API the gateway speaks (docs/gateways.md): one seam behind both clients.
  const dialect = createDialect({
    name: config.GATEWAY_DIALECT,
    baseUrl: config.GATEWAY_BASE_URL,
    deployments: config.AZURE_DEPLOYMENTS,
    apiVersion: config.AZURE_API_VERSION,
  });
  const base = { dialect, baseUrl: config.GATEWAY_BASE_URL, apiKey: config.GATEWAY_API_KEY, dispatcher: agent, logger, clock };
  const client = new GatewayClient({
    ...base,
    profiles,
    links: { policy: links, dispatcher: linkAgent },
    defaultModel: config.DEFAULT_IMAGE_MODEL,
    deadlineMs: config.GATEWAY_TIMEOUT_MS,
    maxRetries: config.GATEWAY_MAX_RETRIES,
    maxResponseBytes: config.GATEWAY_MAX_RESPONSE_BYTES,
    maxDecodePixels: config.MAX_DECODE_PIXELS,
    taskPollMs: config.GATEWAY_TASK_POLL_MS,
  });
  return {
    client,
    chat: new ChatClient({ ...base, deadlineMs: config.PROMPT_TIMEOUT_MS }),
    profiles,
    dispatcher: agent,
    check: startupCheck(config, client, logger),
    close: async (cutOff) => {
      await Promise.allSettled(cutOff ? [agent.destroy(), linkAgent.destroy()] : [agent.close(), linkAgent.close()]);
    },
  };
}

/** The start-up check of the catalogue, and with HTTP_PORT its repeats, which readiness reads. */
function startupCheck(config: GatewayConfig, client: GatewayClient, logger: Logger): GatewayCheck {
  return new GatewayCheck({
    probe: (timeoutMs) => client.probeModels(timeoutMs),
    host: new URL(config.GATEWAY_BASE_URL).host,
    defaultModel: () => client.defaultModel,
    configured: config.DEFAULT_IMAGE_MODEL,
    timeoutMs: config.GATEWAY_CONNECT_TIMEOUT_MS,
    retryIntervalMs: config.GATEWAY_CHECK_INTERVAL_MS,
    // Readiness (served with HTTP_PORT) asks for a catalogue fetched within the last interval, so the check keeps going.
    keepChecking: config.HTTP_PORT !== undefined,
    logger,
  });
}
