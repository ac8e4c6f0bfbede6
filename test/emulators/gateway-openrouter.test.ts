/**
 * The emulator's OpenRouter dialect plays OpenRouter's image API as it documents it: `POST /api/v1/images` held to
 * the model's catalogue entry (a field it does not list refused, Gemini's n ≤ 1, `size` never with `resolution` or
 * `aspect_ratio`), `data[].b64_json` with `media_type`, `usage.cost` charged per completed generation and not for
 * a failed one, the streamed events, and the catalogues.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectFormat, openRouterFailure, startGatewayEmulator, type GatewayEmulator } from './gateway/index.js';

let gateway: GatewayEmulator;

beforeAll(async () => {
  gateway = await startGatewayEmulator({ dialect: 'openrouter' });
});

afterAll(async () => {
  await gateway.close();
});

interface Answer {
  data?: { b64_json: string; media_type: string }[];
  usage?: { cost: number };
  error?: { code: number; message: string };
}

async function images(body: Record<string, unknown>): Promise<{ status: number; json: Answer }> {
  const res = await fetch(`${gateway.baseUrl}/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'a lighthouse', ...body }),
  });
  return { status: res.status, json: (await res.json()) as Answer };
}

const GEMINI = 'google/gemini-3.1-flash-image';

describe('gateway emulator: the OpenRouter dialect', () => {
  it('answers data[].b64_json with media_type and usage.cost, sized by the resolution tier and aspect ratio, and charges it', async () => {
    const before = gateway.charges().length;
    const { status, json } = await images({ model: GEMINI, resolution: '2K', aspect_ratio: '16:9' });
    expect(status).toBe(200);
    expect(json.data?.[0]?.media_type).toBe('image/png');
    const meta = await sharp(Buffer.from(json.data?.[0]?.b64_json ?? '', 'base64')).metadata();
    expect([meta.width, meta.height]).toEqual([2736, 1536]);
    expect(json.usage?.cost).toBe(0.078);
    expect(gateway.charges().slice(before)).toEqual([0.078]);
  });

  it('refuses what the model does not list, n over its range, size with resolution, and a bad reference', async () => {
    expect((await images({ model: GEMINI, quality: 'high' })).json.error).toEqual({ code: 400, message: `'quality' is not supported by ${GEMINI}` });
    expect((await images({ model: GEMINI, n: 2 })).json.error?.message).toBe(`n must be between 1 and 1 for ${GEMINI}`);
    expect((await images({ model: 'black-forest-labs/flux.2-pro', size: '1024x1024', resolution: '1K' })).json.error?.message).toContain("'resolution'");
    expect((await images({ model: GEMINI, size: '1024x1024', aspect_ratio: '1:1' })).json.error?.message).toContain("'size' is not supported");
    const gptImage = await images({ model: 'openai/gpt-image-2', size: '1536x1024', aspect_ratio: '3:2' });
    expect(gptImage.json.error?.message).toContain("'size' is not supported");
    const bad = await images({ model: GEMINI, input_references: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] });
    expect(bad.status).toBe(400);
    expect((await images({ model: 'nobody/nothing' })).json.error?.message).toBe('nobody/nothing is not a valid model ID');
  });

  it('takes an integer seed where the model lists seed, and refuses it elsewhere or when not an integer', async () => {
    expect((await images({ model: 'bytedance-seed/seedream-4.5', seed: 42 })).status).toBe(200);
    expect((await images({ model: GEMINI, seed: 42 })).json.error).toEqual({ code: 400, message: `'seed' is not supported by ${GEMINI}` });
    expect((await images({ model: 'bytedance-seed/seedream-4.5', seed: 'x' })).json.error?.message).toBe(
      'seed must be a non-negative integer for bytedance-seed/seedream-4.5',
    );
  });

  it('refuses size together with resolution or aspect_ratio for a model listing all three', async () => {
    const all = await startGatewayEmulator({
      dialect: 'openrouter',
      openRouter: {
        models: [
          {
            id: 'x/all',
            name: 'All',
            provider: 'X',
            supports_streaming: false,
            pricePerImage: { default: 0.01 },
            supported_parameters: {
              size: { type: 'enum', values: ['1024x1024'] },
              resolution: { type: 'enum', values: ['1K'] },
              aspect_ratio: { type: 'enum', values: ['1:1'] },
            },
          },
        ],
      },
    });
    const res = await fetch(`${all.baseUrl}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${all.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'x/all', prompt: 'p', size: '1024x1024', aspect_ratio: '1:1' }),
    });
    await all.close();
    expect(res.status).toBe(400);
    expect(((await res.json()) as Answer).error?.message).toBe('size cannot be combined with resolution or aspect_ratio');
  });

  it('takes data-URL references, and answers a failed generation with 502, not charged', async () => {
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#208040' } })
      .png()
      .toBuffer();
    const reference = { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } };
    expect((await images({ model: GEMINI, input_references: [reference] })).status).toBe(200);
    const charged = gateway.charges().length;
    gateway.enqueue(openRouterFailure());
    const failed = await images({ model: GEMINI });
    expect(failed).toMatchObject({ status: 502, json: { error: { code: 502, message: 'Provider returned error' } } });
    expect(gateway.charges()).toHaveLength(charged);
  });

  it('streams image_generation.partial_image and .completed events for a model that streams, and refuses it for one that does not', async () => {
    const res = await fetch(`${gateway.baseUrl}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-image-2', prompt: 'p', stream: true, output_format: 'webp' }),
    });
    const text = await res.text();
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = [...text.matchAll(/^data: (.+)$/gm)].map((m) => JSON.parse(m[1] ?? '{}') as { type: string; b64_json: string; usage?: { cost: number } });
    expect(events.map((e) => e.type)).toEqual(['image_generation.partial_image', 'image_generation.completed']);
    expect(detectFormat(Buffer.from(events[1]?.b64_json ?? '', 'base64'))).toBe('webp');
    expect(events[1]?.usage?.cost).toBe(0.053);
    expect((await images({ model: GEMINI, stream: true })).json.error?.message).toBe(`${GEMINI} does not support streaming`);
  });

  it('lists its image models with their descriptors, their endpoints, and keeps them out of /models unless asked', async () => {
    const auth = { headers: { authorization: `Bearer ${gateway.apiKey}` } };
    const list = (await (await fetch(`${gateway.baseUrl}/images/models`, auth)).json()) as { data: { id: string; supported_parameters: object }[] };
    expect(list.data.map((m) => m.id)).toContain(GEMINI);
    expect(list.data.find((m) => m.id === GEMINI)?.supported_parameters).toMatchObject({ n: { type: 'range', min: 1, max: 1 } });
    const endpoints = (await (await fetch(`${gateway.baseUrl}/images/models/${GEMINI}/endpoints`, auth)).json()) as {
      data: { endpoints: { pricing: object[] }[] };
    };
    expect(endpoints.data.endpoints[0]?.pricing).toContainEqual({ billable: 'output_image', unit: 'image', variant: '1k', cost_usd: 0.039 });
    const ids = async (query: string) =>
      ((await (await fetch(`${gateway.baseUrl}/models${query}`, auth)).json()) as { data: { id: string }[] }).data.map((m) => m.id);
    expect(await ids('')).not.toContain(GEMINI);
    expect(await ids('?output_modalities=image')).toContain(GEMINI);
  });

  it('refuses a missing or wrong key with its 401', async () => {
    const res = await fetch(`${gateway.baseUrl}/images`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(401);
    expect(((await res.json()) as Answer).error).toEqual({ code: 401, message: 'No auth credentials found' });
  });
});
