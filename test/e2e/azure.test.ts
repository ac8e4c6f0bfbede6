/**
 * Azure OpenAI as the gateway, end to end (issue 27): the real bot in the Azure dialect against the emulator's Azure
 * resource. /imagine and /edit go to the deployments AZURE_DEPLOYMENTS names, with api-version and the api-key
 * header, and are delivered, their usage priced by the model's prices; /models lists the configured models; a
 * prompt Azure's content filter refuses is shown to the member as a moderation refusal and costs nothing; a resource
 * Azure has blocked for repeated refusals is an account problem for the operator.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InteractionHandle, SlashOption } from '../emulators/discord/index.js';
import { startHarness, type Harness } from './harness.js';
import { ephemeralError, resultPost, lastText, quotaText, settled, textOf } from './support.js';

const option = (name: string, value: string | number): SlashOption => ({ name, type: typeof value === 'number' ? 4 : 3, value });

describe('Azure OpenAI as the gateway, end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      gateway: { dialect: 'azure', azure: { deployments: { 'images-prod': 'gpt-image-1', 'dalle-prod': 'dall-e-3' }, blockAfterFilterHits: 2 } },
      env: { GATEWAY_DIALECT: 'azure', AZURE_DEPLOYMENTS: 'gpt-image-1=images-prod,dall-e-3=dalle-prod', QUOTA_DEFAULT_LIMIT: '20', LOG_LEVEL: 'debug' },
    });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  /** Settled, and done with by the bot (a job's totals are written after its reply). */
  const done = async (handle: InteractionHandle): Promise<InteractionHandle> => {
    await handle.waitFor(settled);
    await h.waitForLog((e) => e['interactionId'] === handle.id && (e.msg === 'interaction handled' || e.msg === 'user-facing error'));
    return handle;
  };
  const usageOf = async (userId: string): Promise<string> => {
    const usage = h.discord.slash('usage', [{ name: 'user', type: 6, value: userId }], { user: h.discord.fixtures.admin });
    await usage.waitFor((x) => x.edits.some((e) => e.status === 200));
    return lastText(usage);
  };

  it('lists the configured models, the default first', async () => {
    const models = h.discord.slash('models', [], { user: h.discord.fixtures.member });
    await models.waitFor((x) => x.edits.some((e) => e.status === 200));
    expect(lastText(models)).toMatch(/`gpt-image-1`[^\n]*default[\s\S]*`dall-e-3`/);
    expect(h.gateway.requests[0]?.path).toBe('/openai/models?api-version=2024-10-21');
  });

  it("delivers /imagine from the model's deployment, its usage priced by gpt-image-1's prices", async () => {
    const user = h.discord.fixtures.member;
    const handle = await done(h.discord.slash('imagine', [option('prompt', 'a lighthouse'), option('size', '1024x1024'), option('quality', 'low')], { user }));
    const final = resultPost(handle)!;
    expect(final.files).toHaveLength(1);
    expect(textOf(final.payload)).toContain('gpt-image-1 · 1024×1024 · low quality');
    const sent = h.gateway.imageRequests().at(-1)!;
    expect(sent.path).toBe('/openai/deployments/images-prod/images/generations?api-version=2024-10-21');
    expect(sent.headers['api-key']).toBe(h.gateway.apiKey);
    expect(sent.json).toMatchObject({ model: 'images-prod', prompt: 'a lighthouse', size: '1024x1024', quality: 'low' });
    // 3 text tokens at $5 and 272 output tokens at $40 per million.
    expect(await usageOf(user.id)).toContain('Images: 1 from 1 request · cost: $0.0109');
  });

  it('delivers /edit on the edits path of the first api-version that has edits, priced likewise', async () => {
    const user = h.discord.fixtures.users.member2;
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3355aa' } })
      .png()
      .toBuffer();
    const image = h.discord.uploadAttachment(png, 'photo.png', 'image/png');
    const options = [option('prompt', 'at night'), option('quality', 'low'), option('size', '1024x1024'), { name: 'image', type: 11, value: image.id }];
    const handle = await done(h.discord.slash('edit', options, { user, resolvedAttachments: [image] }));
    expect(resultPost(handle)?.files).toHaveLength(1);
    const sent = h.gateway.imageRequests().at(-1)!;
    expect(sent.path).toBe('/openai/deployments/images-prod/images/edits?api-version=2025-04-01-preview');
    expect(sent.form?.files.find((f) => f.field === 'image[]')?.bytes.equals(png)).toBe(true);
    expect(sent.form?.fields['model']).toBe('images-prod');
    // 2 text tokens at $5, one reference (323 image tokens) at $10 and 272 output tokens at $40 per million.
    expect(await usageOf(user.id)).toContain('Images: 1 from 1 request · cost: $0.0141');
  });

  it("shows a prompt Azure's content filter refuses as a moderation refusal, and charges nothing", async () => {
    const user = h.discord.fixtures.users.member3;
    const quota = await quotaText(h.discord, user);
    const handle = await done(h.discord.slash('imagine', [option('prompt', 'a battlefield full of gore')], { user }));
    const message = ephemeralError(handle);
    expect(message).toContain("The image service's safety system declined this request. Try rewording the prompt or using different images.");
    expect(message).not.toMatch(/content_filter|Azure|filtered/);
    expect(resultPost(handle)).toBeUndefined();
    expect(h.gateway.imageRequests().at(-1)?.json?.['prompt']).toBe('a battlefield full of gore');
    // Nothing charged; the refusal counts as a moderation strike (one member cannot get the resource blocked).
    expect(await quotaText(h.discord, user)).toBe(`${quota}\n-# Declined by moderation in the last 24 hours: 1 of 3 before a pause`);
    expect(message).toContain('2 more declined requests within 24 hours will pause your image generation');
    expect(await usageOf(user.id)).toContain('Images: 0 from 0 requests');
  });

  it('reports those costs as estimated, Azure reporting none', async () => {
    const usage = h.discord.slash('usage', [], { user: h.discord.fixtures.admin });
    await usage.waitFor((x) => x.edits.some((e) => e.status === 200));
    expect(lastText(usage)).toContain('Images: 2 from 2 requests · cost: $0.0250 estimated');
  });

  it('tells members the service is unavailable once Azure blocks the resource, and tells the operator why', async () => {
    const user = h.discord.fixtures.members[4]!;
    await done(h.discord.slash('imagine', [option('prompt', 'a massacre')], { user }));
    const handle = await done(h.discord.slash('imagine', [option('prompt', 'a quiet lighthouse')], { user }));
    expect(ephemeralError(handle)).toContain("isn't available right now");
    const logged = await h.waitForLog('gateway account problem: check the API key and balance');
    expect(JSON.stringify(logged)).toContain('temporarily blocked');
  });

  it('sent nothing Discord or the OpenAI spec would reject', () => {
    expect(h.discord.specViolations).toEqual([]);
    expect(h.gateway.specViolations).toEqual([]);
  });
});
