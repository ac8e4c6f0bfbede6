/**
 * The gateway dialect settings for config.ts (docs/gateways.md): GATEWAY_DIALECT (openai, openrouter or azure;
 * unset, told from GATEWAY_BASE_URL's host where it can be), AZURE_DEPLOYMENTS (which Azure deployment serves each
 * model) and AZURE_API_VERSION. Parsed and checked here; config.ts reads them from the environment.
 */
import { z } from 'zod';

export const GATEWAY_DIALECTS = ['openai', 'openrouter', 'azure'] as const;
export type GatewayDialectName = (typeof GATEWAY_DIALECTS)[number];

/** Azure's images GA version (2024-10-21); the `/openai/v1/` base takes none. */
export const DEFAULT_AZURE_API_VERSION = '2024-10-21';

/** Azure OpenAI resource hosts: classic, AI services (cognitiveservices) and AI Foundry. */
const AZURE_HOST = /\.(openai\.azure\.com|cognitiveservices\.azure\.com|services\.ai\.azure\.com)$/;

/** The dialect a base URL's host says, or undefined when it says none (any other host: the operator chooses). */
export function detectDialect(baseUrl: string): GatewayDialectName | undefined {
  const host = URL.canParse(baseUrl) ? new URL(baseUrl).hostname.toLowerCase() : '';
  if (host === 'openrouter.ai' || host.endsWith('.openrouter.ai')) return 'openrouter';
  if (AZURE_HOST.test(host)) return 'azure';
  return undefined;
}

/** Azure deployment names: letters, digits, `-`, `_` and `.` (Azure's own rule), 64 at most. */
const DEPLOYMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * AZURE_DEPLOYMENTS: `model=deployment` entries separated by commas; an entry without `=` is a deployment named like
 * its model. Parsed as model → deployment, in the order given.
 */
export const AzureDeployments = z
  .string()
  .transform((text, ctx) => {
    const map = new Map<string, string>();
    for (const entry of text.split(',').map((e) => e.trim())) {
      if (entry === '') continue;
      const [model = '', deployment = model, ...rest] = entry.split('=').map((part) => part.trim());
      if (model === '' || rest.length > 0 || !DEPLOYMENT.test(deployment)) {
        ctx.addIssue({ code: 'custom', message: `expects model=deployment entries separated by commas, such as gpt-image-1=my-images; "${entry}" is not one` });
        return z.NEVER;
      }
      map.set(model, deployment);
    }
    return map;
  })
  .refine((map) => map.size > 0, { error: 'expects at least one model=deployment entry' });

/** The settings' schema entries, spread into config.ts's ConfigSchema. */
export const DIALECT_SETTINGS = {
  /** Which API the gateway speaks; unset, detected from GATEWAY_BASE_URL (openai when the host says nothing). */
  GATEWAY_DIALECT: z.enum(GATEWAY_DIALECTS, { error: 'expects openai, openrouter or azure' }).optional(),
  AZURE_DEPLOYMENTS: AzureDeployments.optional(),
  AZURE_API_VERSION: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}(-preview)?$/, { error: 'expects an Azure API version such as 2024-10-21 or 2025-04-01-preview' })
    .default(DEFAULT_AZURE_API_VERSION),
};

/** What the parsed settings lack together: Azure needs its deployments (the data-plane key cannot list them). */
export function dialectProblems(config: { GATEWAY_DIALECT: GatewayDialectName; AZURE_DEPLOYMENTS?: ReadonlyMap<string, string> | undefined }): string[] {
  if (config.GATEWAY_DIALECT !== 'azure' || config.AZURE_DEPLOYMENTS) return [];
  return ['AZURE_DEPLOYMENTS is required with the azure dialect: name the deployment of each model, such as gpt-image-1=my-images,dall-e-3'];
}
