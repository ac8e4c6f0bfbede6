/**
 * The gateway client in the OpenRouter dialect against the emulator's OpenRouter over real sockets: the image
 * catalogue read and turned into profiles, generations and edits on `POST /images` with only what each model takes,
 * the reported cost, streamed previews, and a failed generation retried without a charge.
 */
import type { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayClient } from '../../src/gateway/gateway-client.js';
import { sizeText } from '../../src/core/sizes.js';
import { createOpenRouterDialect } from '../../src/gateway/openrouter-dialect.js';
import { ModelProfiles } from '../../src/core/model-profiles.js';
import type { PartialImage } from '../../src/core/images.js';
import { OPENROUTER_MODELS, openRouterFailure, startGatewayEmulator, type GatewayEmulator, type OpenRouterModelDef } from '../emulators/gateway/index.js';
import { clientFor, failure, makeImage } from './fixtures.js';
import { finalResult } from '../support/image-stream.js';

let gw: GatewayEmulator;
let agent: Agent;
let profiles: ModelProfiles;

const GEMINI = 'google/gemini-3.1-flash-image';

let now = Date.parse('2026-11-20T12:00:00Z');

async function setup(options: { list?: boolean; models?: OpenRouterModelDef[] } = {}): Promise<GatewayClient> {
  gw = await startGatewayEmulator({ dialect: 'openrouter', openRouter: { models: options.models } });
  profiles = new ModelProfiles();
  const clock = { now: () => now };
  const made = clientFor(gw, { dialect: createOpenRouterDialect(), profiles, defaultModel: undefined, maxRetries: 1, clock, modelsTtlMs: 1 });
  agent = made.agent;
  if (options.list !== false) await made.client.probeModels(5_000);
  return made.client;
}

afterEach(async () => {
  await agent.close();
  await gw.close();
});

describe('the OpenRouter dialect', () => {
  it('lists the image catalogue as image models, the default chosen among them by rank, and learns their profiles', async () => {
    const client = await setup();
    expect(gw.requests[0]?.path).toBe('/api/v1/images/models');
    const models = await client.listModels();
    expect(models[0]).toMatchObject({ id: 'openai/gpt-image-2', default: true, image: true });
    expect(models.every((m) => m.image)).toBe(true);
    expect(models.map((m) => m.id)).toContain('black-forest-labs/flux.2-pro');
    expect(profiles.of(GEMINI)).toMatchObject({ source: 'the gateway catalogue', profile: { maxN: 1, edits: { maxImages: 14, mask: false } } });
    expect(profiles.of('black-forest-labs/flux.2-pro').profile.sizes.map(sizeText)).toEqual(['1024x1024', '1536x1024', '1024x1536']);
  });

  it('prices each model from its endpoint records, highest first, fetching them again only after an hour', async () => {
    const client = await setup();
    expect(profiles.of(GEMINI).profile.prices).toEqual({ perImage: 0.156 });
    expect(profiles.of('openai/gpt-image-2').profile.prices).toEqual({ perImage: 0.053 });
    const endpoints = () => gw.requests.filter((r) => r.path.endsWith('/endpoints')).length;
    expect(endpoints()).toBe(OPENROUTER_MODELS.length);
    expect(gw.requests.map((r) => r.path)).toContain(`/api/v1/images/models/${GEMINI}/endpoints`);
    now += 60_000;
    await client.listModels();
    expect(endpoints()).toBe(OPENROUTER_MODELS.length);
    expect(profiles.of(GEMINI).profile.prices).toEqual({ perImage: 0.156 });
    now += 3_600_000;
    await client.listModels();
    expect(endpoints()).toBe(2 * OPENROUTER_MODELS.length);
  });

  it('leaves a model whose endpoint records fail unpriced, and asks again with the next listing', async () => {
    const client = await setup({ list: false, models: [OPENROUTER_MODELS[0]!] });
    gw.enqueueModels({ type: 'success' }, { type: 'error', preset: 'server_error' });
    await client.probeModels(5_000);
    expect(profiles.of(GEMINI).profile.prices).toBeUndefined();
    now += 60_000;
    await client.listModels();
    expect(profiles.of(GEMINI).profile.prices).toEqual({ perImage: 0.156 });
  });

  it('generates on POST /images with the size as a tier and ratio, and records the reported cost', async () => {
    const client = await setup();
    const result = await finalResult(client.generate({ prompt: 'a harbour', model: GEMINI, size: { width: 2736, height: 1536 } }));
    expect(result.images[0]).toMatchObject({ width: 2736, height: 1536, format: 'png' });
    expect(result.usage?.costUsd).toBe(0.078);
    expect(gw.imageRequests()[0]?.json).toEqual({ model: GEMINI, prompt: 'a harbour', resolution: '2K', aspect_ratio: '16:9' });
    expect(gw.charges()).toEqual([0.078]);
  });

  it("sends a size value to a model that lists sizes, and only the model's own fields", async () => {
    const client = await setup();
    await finalResult(
      client.generate({ prompt: 'a harbour', model: 'black-forest-labs/flux.2-pro', size: { width: 1536, height: 1024 }, quality: 'high', n: 1 }),
    );
    expect(gw.imageRequests()[0]?.json).toEqual({ model: 'black-forest-labs/flux.2-pro', prompt: 'a harbour', size: '1536x1024' });
  });

  it('edits with the images as input_references on the same endpoint', async () => {
    const client = await setup();
    const images = [{ bytes: await makeImage('png', 48, 48) }, { bytes: await makeImage('webp', 48, 48) }];
    const result = await finalResult(client.edit({ prompt: 'make it dusk', model: 'bytedance-seed/seedream-4.5', images }));
    expect(result.images).toHaveLength(1);
    const json = gw.imageRequests()[0]?.json;
    expect(gw.imageRequests()[0]?.path).toBe('/api/v1/images');
    expect((json?.['input_references'] as { image_url: { url: string } }[]).map((r) => r.image_url.url.slice(0, 22))).toEqual([
      'data:image/png;base64,',
      'data:image/webp;base64',
    ]);
  });

  it('streams previews from a model that streams, the cost arriving with the last event', async () => {
    const client = await setup();
    const partials: PartialImage[] = [];
    const result = await finalResult(
      client.generate({ prompt: 'a harbour', model: 'openai/gpt-image-2', n: 2, outputFormat: 'webp' }, { stream: true, partialImages: 1 }),
      { partial: (p) => partials.push(p) },
    );
    expect(result.images.map((i) => i.format)).toEqual(['webp', 'webp']);
    expect(partials).toHaveLength(2);
    expect(result.usage?.costUsd).toBe(0.106);
    expect(gw.imageRequests()[0]?.json).toMatchObject({ stream: true, n: 2, output_format: 'webp' });
    expect(gw.imageRequests()[0]?.json?.['partial_images']).toBeUndefined();
  });

  it('retries a failed generation (502, not billed) once and is charged for the one that completed', async () => {
    const client = await setup();
    gw.enqueue(openRouterFailure(), { type: 'success' });
    const result = await finalResult(client.generate({ prompt: 'a harbour', model: GEMINI }));
    expect(result.usage?.costUsd).toBe(0.039);
    expect(gw.imageRequests()).toHaveLength(2);
    expect(gw.charges()).toEqual([0.039]);
    gw.enqueue(openRouterFailure(), openRouterFailure());
    expect((await failure(finalResult(client.generate({ prompt: 'a harbour', model: GEMINI })))).category).toBe('gateway_failure');
    expect(gw.charges()).toEqual([0.039]);
  });

  it('keeps the models of a catalogue with a malformed entry or descriptor, and refuses a catalogue of another shape', async () => {
    const client = await setup({ list: false });
    const data = [
      { id: 'x/good', supported_parameters: { n: { type: 'range', min: 1, max: 2 }, quality: { type: 'enum' }, seed: true }, supports_streaming: 'yes' },
      { name: 'no id' },
    ];
    gw.enqueueModels({ type: 'raw', status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data }) });
    expect(await client.probeModels(5_000)).toEqual(['x/good']);
    expect(profiles.of('x/good').profile).toMatchObject({ maxN: 2, qualities: [], streaming: false });
    gw.enqueueModels({ type: 'raw', status: 200, headers: { 'content-type': 'application/json' }, body: '{"models":[]}' });
    expect((await failure(client.probeModels(5_000))).code).toBe('malformed_response');
  });

  it("reads OpenRouter's error shape, and before the catalogue is known sends the size shorthand", async () => {
    const client = await setup({ list: false });
    const refused = await failure(finalResult(client.generate({ prompt: 'a harbour', model: GEMINI, size: { width: 1024, height: 1024 } })));
    expect(refused).toMatchObject({ status: 400, category: 'bad_parameter', param: 'size' });
    expect(gw.imageRequests()[0]?.json).toEqual({ model: GEMINI, prompt: 'a harbour', size: '1024x1024' });
    expect((await failure(finalResult(client.generate({ prompt: 'a harbour', model: 'vendor/nothing' })))).category).toBe('unknown_model');
  });
});
