/**
 * The emulator plays the real models: each family refuses what the model refuses, with OpenAI's 400 shape, takes
 * what it takes, and the stored spec's gaps (newer values, `complexity`) pass only for the families that have them.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specTest } from '../support/openapi.js';
import { REALISTIC_MODELS, REALISTIC_SHUTDOWN_DATES, startGatewayEmulator, type GatewayEmulator } from './gateway/index.js';

// The realistic list plus a gpt-image-1, the family wildcards, a snapshot, a flux model and a model of no known family.
const MODELS = [...REALISTIC_MODELS, 'gpt-image-1', 'gpt-image-2.5-pro', 'gpt-image-2.6', 'gpt-image-2-2026-04-21', 'flux-schnell', 'imagen-4'];

interface ErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

let gateway: GatewayEmulator;

beforeAll(async () => {
  gateway = await startGatewayEmulator({ models: MODELS, shutdownDates: REALISTIC_SHUTDOWN_DATES });
});

afterAll(async () => {
  await gateway.close();
});

async function generate(body: Record<string, unknown>): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${gateway.baseUrl}/images/generations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'a lighthouse', ...body }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function refusal(body: Record<string, unknown>): Promise<ErrorBody['error']> {
  const { status, json } = await generate(body);
  expect(status).toBe(400);
  return (json as unknown as ErrorBody).error;
}

describe('gateway emulator: the realistic model list', () => {
  it('lists the 2026-11 models, with shutdown_date on the three retiring ones and no gpt-image-1', async () => {
    const realistic = await startGatewayEmulator({ models: REALISTIC_MODELS, shutdownDates: REALISTIC_SHUTDOWN_DATES });
    const res = await fetch(`${realistic.baseUrl}/models`, { headers: { authorization: `Bearer ${realistic.apiKey}` } });
    const { data } = (await res.json()) as { data: { id: string; shutdown_date?: number }[] };
    await realistic.close();
    expect(data.map((m) => m.id)).toEqual([...REALISTIC_MODELS]);
    expect(data.map((m) => m.id)).not.toContain('gpt-image-1');
    const retiring = data.filter((m) => m.shutdown_date !== undefined);
    expect(retiring.map((m) => [m.id, new Date((m.shutdown_date ?? 0) * 1000).toISOString().slice(0, 10)])).toEqual([
      ['gpt-image-1.5', '2026-12-01'],
      ['gpt-image-1-mini', '2026-12-01'],
      ['chatgpt-image-latest', '2026-12-01'],
    ]);
    expect(data.map((m) => m.id)).toEqual(expect.arrayContaining(['gpt-4o-mini', 'text-embedding-3-small', 'dall-e-3', 'dall-e-2']));
  });
});

describe('gateway emulator: what each model refuses', () => {
  it.each([
    ['gpt-image-1', { response_format: 'b64_json' }, 'response_format', 'unknown_parameter', "Unknown parameter: 'response_format'."],
    ['gpt-image-1.5', { quality: 'hd' }, 'quality', 'invalid_value', "Invalid value: 'hd'. Supported values are: 'auto', 'low', 'medium', and 'high'."],
    ['chatgpt-image-latest', { background: 'transparent', output_format: 'jpeg' }, 'background', 'invalid_value', "not supported for the 'jpeg'"],
    ['gpt-image-2', { background: 'transparent' }, 'background', 'invalid_value', "Transparent background is not supported for model 'gpt-image-2'."],
    ['gpt-image-2-2026-04-21', { background: 'transparent' }, 'background', 'invalid_value', 'Transparent background is not supported'],
    ['gpt-image-2', { size: '1024x3088' }, 'size', 'invalid_value', 'aspect ratio'],
    [
      'gpt-image-2.6-flare',
      { output_format: 'gif', output_compression: 50 },
      'output_compression',
      'invalid_value',
      "only supported for the 'jpeg' and 'webp'",
    ],
    ['gpt-image-2.6-sunburst', { complexity: 'extreme' }, 'complexity', 'invalid_value', "Supported values are: 'low', 'medium', and 'high'."],
    ['dall-e-3', { n: 2 }, 'n', 'invalid_value', 'You must provide n=1 for this model.'],
    ['dall-e-3', { size: 'auto' }, 'size', 'invalid_value', "Invalid value: 'auto'. Supported values are: '1024x1024', '1792x1024', and '1024x1792'."],
    ['dall-e-3', { quality: 'high' }, 'quality', 'invalid_value', "Invalid value: 'high'. Supported values are: 'standard' and 'hd'."],
    ['dall-e-3', { quality: 'auto' }, 'quality', 'invalid_value', "Supported values are: 'standard' and 'hd'."],
    ['dall-e-3', { stream: true }, 'stream', 'invalid_value', "Streaming is not supported for model 'dall-e-3'."],
    ['dall-e-3', { output_format: 'png' }, 'output_format', 'unknown_parameter', "Unknown parameter: 'output_format'."],
    ['dall-e-3', { output_compression: 80 }, 'output_compression', 'unknown_parameter', "Unknown parameter: 'output_compression'."],
    ['dall-e-3', { background: 'opaque' }, 'background', 'unknown_parameter', "Unknown parameter: 'background'."],
    ['dall-e-3', { moderation: 'low' }, 'moderation', 'unknown_parameter', "Unknown parameter: 'moderation'."],
    ['dall-e-3', { input_fidelity: 'high' }, 'input_fidelity', 'unknown_parameter', "Unknown parameter: 'input_fidelity'."],
    ['dall-e-2', { size: '1024x1536' }, 'size', 'invalid_value', "Supported values are: '256x256', '512x512', and '1024x1024'."],
    ['dall-e-2', { quality: 'hd' }, 'quality', 'invalid_value', "Invalid value: 'hd'. Supported values are: 'standard'."],
    ['dall-e-2', { style: 'natural' }, 'style', 'unknown_parameter', "Unknown parameter: 'style'."],
    ['dall-e-2', { background: 'auto' }, 'background', 'unknown_parameter', "Unknown parameter: 'background'."],
    ['dall-e-2', { stream: true }, 'stream', 'invalid_value', "Streaming is not supported for model 'dall-e-2'."],
  ] as const)('%s refuses %j: param %s, code %s', async (model, extra, param, code, text) => {
    const error = await refusal({ model, ...extra });
    expect(error).toMatchObject({ type: 'invalid_request_error', param, code });
    expect(error.message).toContain(text);
  });

  it('refuses a prompt over the dall-e limits and takes one at the limit', async () => {
    for (const [model, limit] of [
      ['dall-e-3', 4000],
      ['dall-e-2', 1000],
    ] as const) {
      expect((await refusal({ model, prompt: 'x'.repeat(limit + 1) })).code).toBe('prompt_too_long');
      expect((await generate({ model, prompt: 'x'.repeat(limit) })).status).toBe(200);
    }
  });

  it('refuses the newer values and complexity to the models without them (spec or model rules alike)', async () => {
    for (const [model, extra, param] of [
      ['gpt-image-2', { quality: 'xhigh' }, 'quality'],
      ['gpt-image-1.5', { quality: 'max' }, 'quality'],
      ['gpt-image-2.5', { output_format: 'svg' }, 'output_format'],
      ['gpt-image-1-mini', { output_format: 'gif' }, 'output_format'],
      ['gpt-image-2.5', { complexity: 'low' }, 'complexity'],
      ['dall-e-3', { complexity: 'low' }, 'complexity'],
    ] as const) {
      expect(await refusal({ model, ...extra }), `${model} ${JSON.stringify(extra)}`).toMatchObject({ type: 'invalid_request_error', param });
    }
  });
});

describe('gateway emulator: seeds', () => {
  it.each(['gpt-image-1', 'gpt-image-2.6-flare', 'dall-e-3', 'dall-e-2', 'imagen-4'])('%s, which has no seeds, refuses seed as unknown', async (model) => {
    expect(await refusal({ model, seed: 42 })).toMatchObject({ type: 'invalid_request_error', param: 'seed', code: 'unknown_parameter' });
  });

  it('a flux model takes an integer seed and refuses anything else', async () => {
    expect((await generate({ model: 'flux-schnell', seed: 0 })).status).toBe(200);
    expect((await generate({ model: 'flux-schnell', seed: 4_294_967_295 })).status).toBe(200);
    for (const seed of [-1, 4_294_967_296, 1.5, 'abc'])
      expect(await refusal({ model: 'flux-schnell', seed }), String(seed)).toMatchObject({ param: 'seed', code: 'invalid_value' });
  });
});

describe('gateway emulator: what each model takes', () => {
  it.each([
    ['gpt-image-1', { quality: 'high', moderation: 'low', size: '1536x1024' }, 1536, 1024],
    ['gpt-image-1-mini', { quality: 'low', background: 'transparent', output_format: 'webp' }, 1024, 1024],
    ['gpt-image-2', { size: '3840x2160', quality: 'auto' }, 3840, 2160],
    ['gpt-image-2', { size: '1024x3072' }, 1024, 3072],
    ['gpt-image-2.5', { quality: 'xhigh', background: 'transparent', size: '2560x1440' }, 2560, 1440],
    ['gpt-image-2.5-pro', { quality: 'max' }, 1024, 1024],
    ['gpt-image-2.6', { complexity: 'high', quality: 'max', output_format: 'jpeg', output_compression: 60 }, 1024, 1024],
    ['dall-e-3', { quality: 'hd', style: 'natural', size: '1792x1024', response_format: 'b64_json' }, 1792, 1024],
    ['dall-e-2', { quality: 'standard', size: '256x256', n: 2, response_format: 'b64_json' }, 256, 256],
    ['flux-schnell', { response_format: 'b64_json', size: '1280x720' }, 1280, 720],
  ] as const)('%s takes %j', async (model, extra, width, height) => {
    const { status, json } = await generate({ model, ...extra });
    expect(status).toBe(200);
    const data = json['data'] as { b64_json: string }[];
    expect(data).toHaveLength('n' in extra ? extra.n : 1);
    const meta = await sharp(Buffer.from(data[0]?.b64_json ?? '', 'base64')).metadata();
    expect(meta).toMatchObject({ width, height });
    if ('quality' in extra && model.startsWith('gpt-image-2.5')) expect(json['quality']).toBe(extra.quality);
  });
});

describe('gateway emulator: the stored spec predates the 2.5 and 2.6 families', () => {
  const spec = specTest('openai', 'tolerates xhigh/max, gif/svg and complexity for their families only, and flags them for the rest');
  it.skipIf(spec.skip)(spec.title, async () => {
    const tolerated = await startGatewayEmulator({ models: MODELS });
    const send = (body: Record<string, unknown>) =>
      fetch(`${tolerated.baseUrl}/images/generations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tolerated.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'p', ...body }),
      });
    for (const body of [
      { model: 'gpt-image-2.5', quality: 'xhigh' },
      { model: 'gpt-image-2.5-pro', quality: 'max' },
      { model: 'gpt-image-2.6-flare', quality: 'max', output_format: 'svg', complexity: 'low' },
      { model: 'gpt-image-2.6-sunburst', output_format: 'gif' },
    ]) {
      expect((await send(body)).status, JSON.stringify(body)).toBe(200);
    }
    expect(tolerated.specViolations).toEqual([]);
    const flagged: [Record<string, unknown>, string][] = [
      [{ model: 'gpt-image-2', quality: 'xhigh' }, '/quality'],
      [{ model: 'gpt-image-2.5', output_format: 'gif' }, '/output_format'],
      [{ model: 'gpt-image-2.5', complexity: 'low' }, '/complexity'],
      [{ model: 'flux-schnell', complexity: 'low' }, '/complexity'],
    ];
    for (const [body, path] of flagged) {
      const before = tolerated.specViolations.length;
      expect((await send(body)).status).toBe(400);
      expect(tolerated.specViolations.slice(before).join('\n'), JSON.stringify(body)).toContain(path);
    }
    await tolerated.close();
  });
});
