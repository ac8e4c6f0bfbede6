/**
 * The emulator's Azure OpenAI dialect plays the resource as Azure documents it (and as the official AzureOpenAI
 * client of the openai package calls it): deployment paths with api-version, the v1 base, the api-key header, 404s
 * for a missing version and an unknown deployment, the content filter's 400 with its body, and the resource block.
 */
import { AzureOpenAI, toFile } from 'openai';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { startGatewayEmulator, type AzureEmulatorOptions, type GatewayEmulator } from './gateway/index.js';

let gateway: GatewayEmulator;

async function start(azure: AzureEmulatorOptions = { deployments: { 'images-prod': 'gpt-image-1', chat: 'gpt-4o-mini' } }): Promise<GatewayEmulator> {
  gateway = await startGatewayEmulator({ dialect: 'azure', azure });
  return gateway;
}

afterEach(async () => {
  expect(gateway.specViolations).toEqual([]);
  await gateway.close();
});

async function post(path: string, body: Record<string, unknown>, key = gateway.apiKey) {
  const res = await fetch(`${gateway.origin}${path}`, {
    method: 'POST',
    headers: { 'api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as { error?: Record<string, unknown>; data?: { b64_json?: string }[] } };
}

const GENERATIONS = '/openai/deployments/images-prod/images/generations';

describe('gateway emulator: the Azure OpenAI dialect', () => {
  it('serves the official AzureOpenAI client: a deployment path with api-version, the key as api-key', async () => {
    await start();
    const client = new AzureOpenAI({ endpoint: gateway.origin, apiKey: gateway.apiKey, apiVersion: '2024-10-21', deployment: 'images-prod', maxRetries: 0 });
    const result = await client.images.generate({ model: 'images-prod', prompt: 'a lighthouse', size: '1024x1024', quality: 'low' });
    expect(result.data?.[0]?.b64_json).toBeTruthy();
    expect(result.usage?.output_tokens).toBeGreaterThan(0);
    const [request] = gateway.imageRequests();
    expect(request?.path).toBe(`${GENERATIONS}?api-version=2024-10-21`);
    expect(request?.headers['api-key']).toBe(gateway.apiKey);
    expect(request?.headers['authorization']).toBeUndefined();
  });

  it('takes edits from 2025-04-01-preview on, multipart as OpenAI', async () => {
    await start();
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3366aa' } })
      .png()
      .toBuffer();
    const client = new AzureOpenAI({
      endpoint: gateway.origin,
      apiKey: gateway.apiKey,
      apiVersion: '2025-04-01-preview',
      deployment: 'images-prod',
      maxRetries: 0,
    });
    const result = await client.images.edit({ model: 'images-prod', prompt: 'make it red', image: await toFile(png, 'in.png', { type: 'image/png' }) });
    expect(result.data?.[0]?.b64_json).toBeTruthy();
    const old = new AzureOpenAI({ endpoint: gateway.origin, apiKey: gateway.apiKey, apiVersion: '2024-10-21', deployment: 'images-prod', maxRetries: 0 });
    await expect(
      old.images.edit({ model: 'images-prod', prompt: 'make it red', image: await toFile(png, 'in.png', { type: 'image/png' }) }),
    ).rejects.toMatchObject({
      status: 404,
    });
  });

  it('answers the /openai/v1 base on OpenAI paths, the deployment in model, without a version', async () => {
    await start();
    const { status, json } = await post('/openai/v1/images/generations', { model: 'images-prod', prompt: 'a lighthouse' });
    expect(status).toBe(200);
    expect(json.data).toHaveLength(1);
    const models = await fetch(`${gateway.origin}/openai/v1/models`, { headers: { 'api-key': gateway.apiKey } });
    expect(models.status).toBe(200);
  });

  it('refuses a missing version, an unknown version, a wrong key and an unknown deployment as Azure does', async () => {
    await start();
    expect(await post(GENERATIONS, { prompt: 'a lighthouse' })).toEqual({ status: 404, json: { error: { code: '404', message: 'Resource not found' } } });
    expect((await post(`${GENERATIONS}?api-version=2019-01-01`, { prompt: 'a lighthouse' })).json.error).toMatchObject({ code: 'BadRequest' });
    expect((await post(`${GENERATIONS}?api-version=2024-10-21`, { prompt: 'a lighthouse' }, 'wrong')).status).toBe(401);
    const unknown = await post('/openai/deployments/nope/images/generations?api-version=2024-10-21', { prompt: 'a lighthouse' });
    expect(unknown).toMatchObject({ status: 404, json: { error: { code: 'DeploymentNotFound' } } });
    expect(gateway.imageRequests()).toHaveLength(4);
  });

  it("refuses a filtered prompt with Azure's content_filter body, then blocks the resource after enough of them", async () => {
    await start({ deployments: { 'images-prod': 'gpt-image-1' }, blockAfterFilterHits: 2 });
    const filtered = await post(`${GENERATIONS}?api-version=2024-10-21`, { prompt: 'a scene of gore' });
    expect(filtered.status).toBe(400);
    expect(filtered.json.error).toMatchObject({
      code: 'content_filter',
      param: 'prompt',
      status: 400,
      innererror: { code: 'ResponsibleAIPolicyViolation', content_filter_result: { violence: { filtered: true, severity: 'high' } } },
    });
    expect((await post(`${GENERATIONS}?api-version=2024-10-21`, { prompt: 'a lighthouse' })).status).toBe(200);
    expect((await post(`${GENERATIONS}?api-version=2024-10-21`, { prompt: 'a massacre' })).status).toBe(400);
    const blocked = await post(`${GENERATIONS}?api-version=2024-10-21`, { prompt: 'a lighthouse' });
    expect(blocked).toMatchObject({ status: 403, json: { error: { code: 'Forbidden' } } });
  });

  it("runs the deployment's model's own rules and chat completions on its deployment", async () => {
    await start({ deployments: { 'images-prod': 'dall-e-3', chat: 'gpt-4o-mini' } });
    const refused = await post(`${GENERATIONS}?api-version=2024-10-21`, { prompt: 'a lighthouse', n: 2 });
    expect(refused).toMatchObject({ status: 400, json: { error: { param: 'n' } } });
    const client = new AzureOpenAI({ endpoint: gateway.origin, apiKey: gateway.apiKey, apiVersion: '2024-10-21', deployment: 'chat', maxRetries: 0 });
    const chat = await client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: 'a fox' }] });
    expect(chat.choices[0]?.message.content).toContain('a fox');
  });
});
