/**
 * The fidelity tests' common setup: a fresh gateway emulator per test and the official openai SDK pointed at it.
 */
import OpenAI from 'openai';
import { afterEach, beforeEach } from 'vitest';
import { startGatewayEmulator } from './index.js';
import type { GatewayEmulator } from './types.js';

/** Registers before/after hooks that start and close an emulator; `use` receives each test's pair. */
export function useEmulatorWithSdk(use: (gateway: GatewayEmulator, client: OpenAI) => void): void {
  let gateway: GatewayEmulator | undefined;
  beforeEach(async () => {
    gateway = await startGatewayEmulator();
    use(gateway, new OpenAI({ apiKey: gateway.apiKey, baseURL: gateway.baseUrl, maxRetries: 0 }));
  });
  afterEach(async () => {
    await gateway?.close();
  });
}
