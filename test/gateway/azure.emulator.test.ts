/**
 * The gateway client in the Azure dialect against the emulator's Azure resource over real sockets: deployment paths
 * with api-version (edits raised to the first version that has them), the /openai/v1 base, the api-key header, the
 * configured models as the catalogue, the content filter's refusal as content_rejected, and prompt help on its
 * deployment.
 */
import type { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createAzureDialect } from '../../src/gateway/azure-dialect.js';
import { ChatClient } from '../../src/gateway/chat-client.js';
import type { GatewayClient } from '../../src/gateway/gateway-client.js';
import { startGatewayEmulator, type GatewayEmulator } from '../emulators/gateway/index.js';
import { clientFor, failure, makeImage, silentLogger } from './fixtures.js';
import { finalResult } from '../support/image-stream.js';

let gw: GatewayEmulator;
let agent: Agent;

const DEPLOYMENTS = new Map([
  ['gpt-image-1', 'images-prod'],
  ['gpt-4o-mini', 'chat'],
]);

async function setup(baseSuffix = '', apiVersion = '2024-10-21'): Promise<GatewayClient> {
  gw = await startGatewayEmulator({ dialect: 'azure', azure: { deployments: { 'images-prod': 'gpt-image-1', chat: 'gpt-4o-mini' } } });
  const baseUrl = `${gw.baseUrl}${baseSuffix}`;
  const made = clientFor(gw, { baseUrl, dialect: createAzureDialect({ baseUrl, deployments: DEPLOYMENTS, apiVersion }), defaultModel: 'gpt-image-1' });
  agent = made.agent;
  return made.client;
}

afterEach(async () => {
  expect(gw.specViolations).toEqual([]);
  await agent.close();
  await gw.close();
});

describe('the Azure dialect', () => {
  it('generates on the deployment path with api-version and the api-key header, the model keeping its name', async () => {
    const client = await setup();
    const result = await finalResult(client.generate({ prompt: 'a lighthouse', size: { width: 1024, height: 1024 }, quality: 'low' }));
    expect(result.model).toBe('gpt-image-1');
    expect(result.usage?.outputTokens).toBe(272);
    const [request] = gw.imageRequests();
    expect(request?.path).toBe('/openai/deployments/images-prod/images/generations?api-version=2024-10-21');
    expect(request?.headers['api-key']).toBe(gw.apiKey);
    expect(request?.headers['authorization']).toBeUndefined();
    expect(request?.json?.['model']).toBe('images-prod');
  });

  it('edits with the first api-version that has edits when the configured one predates them, and with a later one as configured', async () => {
    const client = await setup();
    const image = { bytes: await makeImage('png', 64, 64) };
    expect((await finalResult(client.edit({ prompt: 'make it red', images: [image] }))).images).toHaveLength(1);
    expect(gw.imageRequests()[0]?.path).toBe('/openai/deployments/images-prod/images/edits?api-version=2025-04-01-preview');
    const dialect = createAzureDialect({ baseUrl: gw.baseUrl, deployments: DEPLOYMENTS, apiVersion: '2025-06-01-preview' });
    expect(dialect.imagePost('edits', new Map([['model', 'gpt-image-1']]), { prompt: 'p', images: [image] }).path).toBe(
      '/openai/deployments/images-prod/images/edits?api-version=2025-06-01-preview',
    );
  });

  it('uses OpenAI paths with the deployment in model on the /openai/v1 base', async () => {
    const client = await setup('/openai/v1');
    await finalResult(client.generate({ prompt: 'a lighthouse' }));
    expect(gw.imageRequests()[0]?.path).toBe('/openai/v1/images/generations');
    expect(gw.imageRequests()[0]?.json?.['model']).toBe('images-prod');
    expect(await client.probeModels(5_000)).toEqual(['gpt-image-1', 'gpt-4o-mini']);
  });

  it('lists the configured models after proving the key, and fails the probe on a wrong key', async () => {
    const client = await setup();
    expect(await client.probeModels(5_000)).toEqual(['gpt-image-1', 'gpt-4o-mini']);
    expect(gw.requests.at(-1)?.path).toBe('/openai/models?api-version=2024-10-21');
    expect((await client.listModels()).map((m) => [m.id, m.image])).toEqual([
      ['gpt-image-1', true],
      ['gpt-4o-mini', false],
    ]);
    const wrong = createAzureDialect({ baseUrl: gw.baseUrl, deployments: DEPLOYMENTS, apiVersion: '2024-10-21' });
    const { client: refused, agent: other } = clientFor(gw, { apiKey: 'wrong', dialect: wrong });
    expect((await failure(refused.probeModels(5_000))).category).toBe('invalid_key');
    await other.close();
  });

  it("reads the content filter's 400 as a content refusal, and an unknown deployment as an unknown model", async () => {
    const client = await setup();
    const filtered = await failure(finalResult(client.generate({ prompt: 'a scene of gore' })));
    expect(filtered).toMatchObject({ category: 'content_rejected', status: 400, code: 'content_filter' });
    const missing = await failure(finalResult(client.generate({ prompt: 'a lighthouse', model: 'dall-e-3' })));
    expect(missing).toMatchObject({ category: 'unknown_model', status: 404, code: 'DeploymentNotFound' });
    expect(gw.imageRequests()[1]?.path).toBe('/openai/deployments/dall-e-3/images/generations?api-version=2024-10-21');
  });

  it("sends prompt help to the chat model's deployment", async () => {
    await setup();
    const dialect = createAzureDialect({ baseUrl: gw.baseUrl, deployments: DEPLOYMENTS, apiVersion: '2024-10-21' });
    const chat = new ChatClient({ baseUrl: gw.baseUrl, apiKey: gw.apiKey, dispatcher: agent, logger: silentLogger, dialect });
    const answer = await chat.complete({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'a fox' }], maxTokens: 50 });
    expect(answer.text).toContain('a fox');
    expect(gw.requests.at(-1)?.json?.['model']).toBe('chat');
    expect(gw.requests.at(-1)?.path).toBe('/openai/deployments/chat/chat/completions?api-version=2024-10-21');
  });
});
