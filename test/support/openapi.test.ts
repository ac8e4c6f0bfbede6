/**
 * The request validator: a known good and a known bad body against each official spec (skipped, saying why, where
 * the spec is absent), and how an absent spec is reported: validation off, or an error under OPENAPI_SPEC_REQUIRED.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { startDiscordEmulator } from '../emulators/discord/index.js';
import { startGatewayEmulator } from '../emulators/gateway/index.js';
import { loadSpecValidator, specStatus, specTest, specValidationSummary } from './openapi.js';

describe('against the official specs', () => {
  const discord = specTest('discord', 'Discord: accepts a deferred reply callback and rejects callback type 99');
  it.skipIf(discord.skip)(discord.title, () => {
    const validator = loadSpecValidator('discord')!;
    const path = '/interactions/1234567890/token/callback';
    expect(validator.validateRequest('POST', path, 'application/json', { type: 5 })).toEqual([]);
    expect(validator.validateRequest('POST', path, 'application/json', { type: 99 }).join('\n')).toMatch(/callback.*\/type/);
  });

  const openai = specTest('openai', 'OpenAI: accepts a generation and an edit, rejects n over 10 and an edit without a prompt');
  it.skipIf(openai.skip)(openai.title, () => {
    const validator = loadSpecValidator('openai')!;
    expect(validator.validateRequest('post', '/images/generations', 'application/json', { model: 'gpt-image-1', prompt: 'a cat', n: 2 })).toEqual([]);
    expect(validator.validateRequest('post', '/images/generations', 'application/json', { model: 'gpt-image-1', prompt: 'a cat', n: 50 }).join('\n')).toMatch(
      /\/n /,
    );
    const edit = { model: 'gpt-image-1', image: ['image.png'], prompt: 'in winter', n: '1' };
    expect(validator.validateRequest('post', '/images/edits', 'multipart/form-data', edit, 'form')).toEqual([]);
    const { prompt: _prompt, ...noPrompt } = edit;
    expect(validator.validateRequest('post', '/images/edits', 'multipart/form-data', noPrompt, 'form').join('\n')).toMatch(/"missingProperty":"prompt"/);
  });
});

describe('where the specs are absent', () => {
  const dir = mkdtempSync(join(tmpdir(), 'imagine-bot-specs-'));
  afterEach(() => vi.unstubAllEnvs());
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('turns validation off and says which files are missing and what to set', () => {
    vi.stubEnv('OPENAPI_SPEC_DIR', dir);
    vi.stubEnv('OPENAPI_SPEC_REQUIRED', '');
    const hint = '(set OPENAPI_SPEC_DIR to a folder with the official OpenAPI descriptions)';
    expect(specStatus('openai')).toEqual({ available: false, reason: `${join(dir, 'openai-openapi.json')} is absent ${hint}` });
    expect(loadSpecValidator('discord')).toBeUndefined();
    expect(loadSpecValidator('openai')).toBeUndefined();
    expect(specValidationSummary()).toBe(
      `OpenAPI validation off: ${join(dir, 'discord-openapi.json')} and ${join(dir, 'openai-openapi.json')} are absent ${hint}`,
    );
  });

  it('validates with the specs that are there and names the one that is not', () => {
    const partial = mkdtempSync(join(dir, 'partial-'));
    const spec = {
      openapi: '3.1.0',
      paths: { '/things': { post: { requestBody: { content: { 'application/json': { schema: { type: 'object', required: ['name'] } } } } } } },
    };
    writeFileSync(join(partial, 'discord-openapi.json'), JSON.stringify(spec));
    vi.stubEnv('OPENAPI_SPEC_DIR', partial);
    vi.stubEnv('OPENAPI_SPEC_REQUIRED', 'false');
    expect(specStatus('discord')).toEqual({ available: true, file: join(partial, 'discord-openapi.json') });
    expect(loadSpecValidator('discord')?.validateRequest('post', '/things', 'application/json', {})).toEqual([expect.stringMatching(/name/)]);
    expect(specValidationSummary()).toMatch(/^OpenAPI validation on for discord only: .*openai-openapi\.json is absent/);
  });

  it('is an error when OPENAPI_SPEC_REQUIRED=true, and the summary says so', () => {
    vi.stubEnv('OPENAPI_SPEC_DIR', dir);
    vi.stubEnv('OPENAPI_SPEC_REQUIRED', 'true');
    expect(() => specStatus('discord')).toThrow(/^OPENAPI_SPEC_REQUIRED=true, but .*discord-openapi\.json is absent/);
    expect(() => loadSpecValidator('openai')).toThrow(/openai-openapi\.json is absent/);
    expect(specValidationSummary()).toMatch(/^OpenAPI validation off: .*; OPENAPI_SPEC_REQUIRED=true, so the emulators will refuse to start$/);
  });

  it('leaves the emulators running without validation: bodies the specs reject are not recorded', async () => {
    vi.stubEnv('OPENAPI_SPEC_DIR', dir);
    vi.stubEnv('OPENAPI_SPEC_REQUIRED', '');
    const [discord, gateway] = await Promise.all([startDiscordEmulator({ log: false }), startGatewayEmulator()]);
    try {
      const callback = await fetch(`${discord.apiUrl}/v10/interactions/1/token/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"type":99}',
      });
      expect(callback.status).not.toBe(400);
      const res = await fetch(`${gateway.baseUrl}/images/generations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-image-1', prompt: 'x', n: 50 }),
      });
      // The gateway's own check still answers, in its own words rather than the validator's.
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^Invalid value: 50/);
      expect(discord.specViolations).toEqual([]);
      expect(gateway.specViolations).toEqual([]);
    } finally {
      await Promise.all([discord.close(), gateway.close()]);
    }
  });

  it('keeps the emulators from starting when OPENAPI_SPEC_REQUIRED=true', async () => {
    vi.stubEnv('OPENAPI_SPEC_DIR', dir);
    vi.stubEnv('OPENAPI_SPEC_REQUIRED', 'true');
    await expect(startDiscordEmulator({ log: false })).rejects.toThrow(/discord-openapi\.json is absent/);
    await expect(startGatewayEmulator()).rejects.toThrow(/openai-openapi\.json is absent/);
  });

  it('refuses an OPENAPI_SPEC_REQUIRED that is neither true nor false', () => {
    vi.stubEnv('OPENAPI_SPEC_DIR', dir);
    vi.stubEnv('OPENAPI_SPEC_REQUIRED', 'yes');
    expect(() => specStatus('openai')).toThrow(/OPENAPI_SPEC_REQUIRED must be true or false, not "yes"/);
  });
});
