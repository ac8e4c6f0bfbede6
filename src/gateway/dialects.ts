/**
 * The dialect GATEWAY_DIALECT names (docs/gateways.md), built for the composition root.
 */
import { createAzureDialect } from './azure-dialect.js';
import type { GatewayDialect } from './dialect.js';
import { openAiDialect } from './openai-dialect.js';
import { createOpenRouterDialect } from './openrouter-dialect.js';

/** What choosing a dialect needs from the configuration. */
export interface DialectChoice {
  name: GatewayDialect['name'];
  baseUrl: string;
  /** AZURE_DEPLOYMENTS (azure only; required there by config.ts). */
  deployments?: ReadonlyMap<string, string> | undefined;
  /** AZURE_API_VERSION (azure only). */
  apiVersion: string;
}

/** One dialect instance, shared by the image and chat clients. */
export function createDialect(choice: DialectChoice): GatewayDialect {
  switch (choice.name) {
    case 'openai':
      return openAiDialect;
    case 'openrouter':
      return createOpenRouterDialect();
    case 'azure':
      return createAzureDialect({ baseUrl: choice.baseUrl, deployments: choice.deployments ?? new Map(), apiVersion: choice.apiVersion });
  }
}
