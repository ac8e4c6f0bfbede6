/**
 * Offline emulator of the OpenAI-compatible image gateway (one-api/new-api in front of OpenAI), on 127.0.0.1.
 *
 * @example
 * const gateway = await startGatewayEmulator();
 * const client = new OpenAI({ apiKey: gateway.apiKey, baseURL: gateway.baseUrl, maxRetries: 0 });
 * gateway.enqueue({ type: 'error', preset: 'rate_limited', retryAfter: '1' });
 * @see /work/shared/docs/image-gateway.md
 */
import type { AddressInfo } from 'node:net';
import { specStatus } from '../../support/openapi.js';
import { createGatewayServer } from './server.js';
import { EmulatorState, isChatPost, taskPollOf } from './state.js';
import type { GatewayEmulator, GatewayEmulatorOptions } from './types.js';

export { ERROR_PRESETS, renderPreset, type ErrorPresetDefinition, type GatewayErrorObject } from './error-presets.js';
export { DEFAULT_API_KEY, DEFAULT_MODELS } from './state.js';
export { detectFormat, type OutputFormat } from './images.js';
export { REALISTIC_MODELS, REALISTIC_SHUTDOWN_DATES, type ModelsShape } from './models.js';
export { rulesFor, type ModelFamily, type ModelRules } from './model-rules.js';
export type * from './types.js';
export { openRouterFailure } from './dialects/openrouter.js';
export { OPENROUTER_MODELS, OPENROUTER_CHAT_MODELS, type OpenRouterModelDef, type Descriptor } from './dialects/openrouter-models.js';
export type { AzureEmulatorOptions } from './dialects/azure.js';

/**
 * Starts an emulator on 127.0.0.1 with an ephemeral port.
 * @throws when the OpenAI spec is absent and OPENAPI_SPEC_REQUIRED=true (test/support/openapi.ts)
 */
export async function startGatewayEmulator(options: GatewayEmulatorOptions = {}): Promise<GatewayEmulator> {
  specStatus('openai');
  const state = new EmulatorState(options);
  const server = createGatewayServer(state);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  state.origin = `http://127.0.0.1:${port}`;
  let closing: Promise<void> | undefined;

  const bases = { openai: `${state.origin}/v1`, openrouter: `${state.origin}/api/v1`, azure: state.origin };
  return {
    baseUrl: bases[state.settings.dialect],
    origin: state.origin,
    charges: () => [...state.openRouterCharges],
    apiKey: state.settings.apiKey,
    requests: state.requests,
    specViolations: state.specViolations,
    imageRequests: () => state.imageRequests(),
    taskPolls: () => state.requests.filter((r) => taskPollOf(r) !== undefined),
    enqueue: (...behaviours) => void state.imageQueue.push(...behaviours),
    enqueueModels: (...behaviours) => void state.modelsQueue.push(...behaviours),
    enqueueChat: (...behaviours) => void state.chatQueue.push(...behaviours),
    chatRequests: () => state.requests.filter(isChatPost),
    hold: () => state.hold(),
    holdBody: (fraction) => state.holdBody(fraction),
    holdChat: () => state.holdChat(),
    waitForRequests: (count) => state.waitForRequests(count),
    close() {
      closing ??= new Promise<void>((resolve) => {
        state.closing.abort();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
