import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, ConfigSchema, configWarnings, loadConfig, shardPlan } from '../src/config.js';

const REQUIRED = { DISCORD_TOKEN: 'bot-token-value', GATEWAY_BASE_URL: 'https://gw.internal/v1', GATEWAY_API_KEY: 'sk-secret-value' };

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('loadConfig', () => {
  it('names every missing required variable at once', () => {
    const problems = problemsOf({});
    expect(problems.map((p) => p.split(' ')[0]).sort()).toEqual(['DISCORD_TOKEN', 'GATEWAY_API_KEY', 'GATEWAY_BASE_URL']);
  });

  it('applies the documented defaults', () => {
    const config = loadConfig(REQUIRED);
    expect(config.DEFAULT_IMAGE_MODEL).toBeUndefined();
    expect(config).toMatchObject({
      DISCORD_API_URL: 'https://discord.com/api',
      DISCORD_CDN_HOSTS: ['cdn.discordapp.com', 'media.discordapp.net'],
      GATEWAY_URL_HOSTS: [],
      STORAGE_URL: 'sqlite://data/bot.sqlite',
      QUOTA_DEFAULT_LIMIT: 20,
      QUOTA_DEFAULT_PERIOD: 'day',
      LOG_LEVEL: 'info',
      GATEWAY_TIMEOUT_MS: 180_000,
      MAX_CONCURRENT_JOBS: 4,
      MEMORY_BUDGET_BYTES: 192 * 1024 * 1024,
      MODERATION_STRIKES: 3,
      MODERATION_STRIKE_WINDOW_HOURS: 24,
      MODERATION_PAUSE_HOURS: 24,
    });
    expect(loadConfig({ ...REQUIRED, MODERATION_STRIKES: '0' }).MODERATION_STRIKES).toBe(0);
  });

  it('lets the real environment win over .env and treats empty values as unset', () => {
    const config = loadConfig(
      { ...REQUIRED, LOG_LEVEL: 'debug', QUOTA_DEFAULT_LIMIT: '' },
      { LOG_LEVEL: 'warn', QUOTA_DEFAULT_LIMIT: '7', DEFAULT_IMAGE_MODEL: 'gpt-image-2' },
    );
    expect(config.LOG_LEVEL).toBe('debug');
    expect(config.QUOTA_DEFAULT_LIMIT).toBe(7);
    expect(config.DEFAULT_IMAGE_MODEL).toBe('gpt-image-2');
  });

  it.each([
    ['GATEWAY_BASE_URL', 'ftp://gw.internal/v1', 'http(s) URL'],
    ['GATEWAY_BASE_URL', 'https://your-gateway.example.com/v1', 'placeholder from .env.example'],
    ['GATEWAY_BASE_URL', 'https://relay.example.org/v1', 'placeholder'],
    ['DISCORD_LOGIN_TIMEOUT_MS', '0', 'milliseconds'],
    ['GATEWAY_CHECK_INTERVAL_MS', 'soon', 'milliseconds'],
    ['QUOTA_DEFAULT_LIMIT', '-3', 'whole number'],
    ['QUOTA_DEFAULT_PERIOD', 'year', 'day, week or month'],
    ['MODERATION_STRIKES', '-1', 'whole number of refusals'],
    ['MODERATION_STRIKE_WINDOW_HOURS', '0', 'hours'],
    ['MODERATION_PAUSE_HOURS', '1.5', 'hours'],
    ['STORAGE_URL', 'mysql://x', 'sqlite://PATH'],
    ['LOG_PRETTY', 'maybe', 'true or false'],
    ['DISCORD_CDN_HOSTS', 'not a host', 'host names'],
    ['GATEWAY_URL_HOSTS', 'http://evil', 'host names'],
    ['GATEWAY_PARTIAL_IMAGES', '4', '0 to 3'],
  ])('refuses %s=%s and says what it expects', (key, value, expected) => {
    const problems = problemsOf({ ...REQUIRED, [key]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(key);
    expect(problems[0]).toContain(expected);
  });

  it('never echoes a secret value in its messages', () => {
    let message = '';
    try {
      loadConfig({ DISCORD_TOKEN: 'bot-token-value', GATEWAY_API_KEY: 'sk-secret-value', GATEWAY_BASE_URL: 'nope' });
    } catch (err) {
      message = String(err);
    }
    expect(message).toContain('GATEWAY_BASE_URL');
    expect(message).not.toContain('bot-token-value');
    expect(message).not.toContain('sk-secret-value');
  });
});

describe('configWarnings', () => {
  it.each(['https://api.openai.com/v1', 'https://relay.internal/openai/v1/', 'http://127.0.0.1:3000/api/v3', 'https://g.internal/v1beta'])(
    'accepts %s quietly',
    (url) => {
      expect(configWarnings(loadConfig({ ...REQUIRED, GATEWAY_BASE_URL: url }))).toEqual([]);
    },
  );

  it('warns about a base URL without a version segment, without user info', () => {
    expect(configWarnings(loadConfig({ ...REQUIRED, GATEWAY_BASE_URL: 'https://user:pw@relay.internal/openai' }))).toEqual([
      'GATEWAY_BASE_URL (relay.internal/openai) has no version segment such as /v1; most gateways expect one (some relays use other paths)',
    ]);
  });
});

describe('.env.example', () => {
  it('cannot start the bot as it is: its gateway URL is refused as a placeholder', () => {
    const example = readFileSync(new URL('../.env.example', import.meta.url), 'utf8');
    const url = /^GATEWAY_BASE_URL=(.+)$/m.exec(example)?.[1];
    expect(url).toBeDefined();
    expect(problemsOf({ ...REQUIRED, GATEWAY_BASE_URL: url! })).toEqual([expect.stringContaining('placeholder from .env.example')]);
  });
});

describe('docs/configuration.md', () => {
  it('documents every configuration key in its table', () => {
    const readme = readFileSync(new URL('../docs/configuration.md', import.meta.url), 'utf8');
    const documented = new Set([...readme.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]));
    const missing = Object.keys(ConfigSchema.shape).filter((key) => !documented.has(key));
    expect(missing).toEqual([]);
    expect(documented.size).toBe(Object.keys(ConfigSchema.shape).length);
  });
});

describe('sharding', () => {
  it('runs one shard by default, and every shard of SHARD_COUNT in this process unless SHARD_IDS picks some', () => {
    expect(shardPlan(loadConfig(REQUIRED))).toEqual({ shards: [0], shardCount: 1 });
    expect(shardPlan(loadConfig({ ...REQUIRED, SHARD_COUNT: '3' }))).toEqual({ shards: [0, 1, 2], shardCount: 3 });
    expect(shardPlan(loadConfig({ ...REQUIRED, SHARD_COUNT: '4', SHARD_IDS: ' 3, 1,1' }))).toEqual({ shards: [1, 3], shardCount: 4 });
    expect(shardPlan(loadConfig({ ...REQUIRED, SHARD_COUNT: 'auto' }))).toEqual({ shards: 'auto' });
  });

  it('refuses shard numbers outside SHARD_COUNT, SHARD_IDS with auto, and malformed values', () => {
    expect(problemsOf({ ...REQUIRED, SHARD_COUNT: '2', SHARD_IDS: '0,2' })).toEqual([
      'SHARD_IDS expects shard numbers from 0 to 1 (SHARD_COUNT is 2); 2 is outside',
    ]);
    expect(problemsOf({ ...REQUIRED, SHARD_COUNT: 'auto', SHARD_IDS: '0' })[0]).toMatch(/^SHARD_IDS needs a numeric SHARD_COUNT/);
    expect(problemsOf({ ...REQUIRED, SHARD_COUNT: '0' })).toEqual(['SHARD_COUNT expects a positive whole number or auto']);
    expect(problemsOf({ ...REQUIRED, SHARD_IDS: 'first' })).toEqual(['SHARD_IDS expects a comma-separated list of shard numbers, such as 0,1']);
  });

  it('refuses a memory budget that is not larger than one gateway answer', () => {
    expect(problemsOf({ ...REQUIRED, MEMORY_BUDGET_BYTES: '67108864' })).toEqual([
      'MEMORY_BUDGET_BYTES (67108864) must be larger than GATEWAY_MAX_RESPONSE_BYTES (67108864): one answer’s room is kept free for answers'.replace('’', "'"),
    ]);
    expect(loadConfig({ ...REQUIRED, MEMORY_BUDGET_BYTES: '100000000', GATEWAY_MAX_RESPONSE_BYTES: '20000000' }).MEMORY_BUDGET_BYTES).toBe(100_000_000);
  });

  it('takes from 1 to 4 SVG renders at once, one by default, with a 10 s limit and a 50-megapixel decode cap', () => {
    expect(problemsOf({ ...REQUIRED, SVG_RENDER_CONCURRENCY: '5' })).toEqual(['SVG_RENDER_CONCURRENCY expects a whole number from 1 to 4']);
    expect(loadConfig({ ...REQUIRED, SVG_RENDER_CONCURRENCY: '2' }).SVG_RENDER_CONCURRENCY).toBe(2);
    const defaults = loadConfig(REQUIRED);
    expect([defaults.SVG_RENDER_CONCURRENCY, defaults.SVG_RENDER_TIMEOUT_SECONDS, defaults.MAX_DECODE_PIXELS]).toEqual([1, 10, 50_000_000]);
  });
});

describe('MODEL_PROFILES_FILE', () => {
  const write = (text: string): string => {
    const dir = mkdtempSync(join(tmpdir(), 'profiles-'));
    const file = join(dir, 'profiles.json');
    writeFileSync(file, text);
    return file;
  };

  it('reads the profiles of a valid file', () => {
    const file = write(JSON.stringify({ 'flux-*': { extends: 'dall-e-3', sizes: ['1024x1024'] } }));
    expect(loadConfig({ ...REQUIRED, MODEL_PROFILES_FILE: file }).MODEL_PROFILES_FILE).toEqual({
      path: file,
      profiles: { 'flux-*': { extends: 'dall-e-3', sizes: [{ width: 1024, height: 1024 }] } },
    });
  });

  it('names every bad entry and field, the file it is in, and stops the start', () => {
    const file = write(JSON.stringify({ 'dall-e-3': { qualities: ['ultra'] }, 'flux-*': { size: ['1024x1024'] }, ok: { maxN: 2 } }));
    const [problem, ...more] = problemsOf({ ...REQUIRED, MODEL_PROFILES_FILE: file });
    expect(more).toEqual([]);
    expect(problem).toContain(`MODEL_PROFILES_FILE (${file})`);
    expect(problem).toContain('"dall-e-3".qualities[0]: Invalid option');
    expect(problem).toContain('"flux-*": unknown field size');
    expect(problem).not.toContain('"ok"');
  });

  it('says when the file is missing or not JSON', () => {
    expect(problemsOf({ ...REQUIRED, MODEL_PROFILES_FILE: '/nonexistent/profiles.json' })[0]).toContain('cannot be read (ENOENT)');
    expect(problemsOf({ ...REQUIRED, MODEL_PROFILES_FILE: write('{ "a": ') })[0]).toContain('is not JSON');
  });
});

describe('the gateway dialect', () => {
  const withBase = (url: string, extra: Record<string, string> = {}) => loadConfig({ ...REQUIRED, GATEWAY_BASE_URL: url, ...extra });

  it.each([
    ['https://openrouter.ai/api/v1', 'openrouter'],
    ['https://eu.openrouter.ai/api/v1', 'openrouter'],
    ['https://my-images.openai.azure.com', 'azure'],
    ['https://my-images.openai.azure.com/openai/v1', 'azure'],
    ['https://my-ai.cognitiveservices.azure.com', 'azure'],
    ['https://my-project.services.ai.azure.com', 'azure'],
    ['https://api.openai.com/v1', 'openai'],
    ['https://relay.internal/v1', 'openai'],
    // A host that only looks like one is not one.
    ['https://openrouter.ai.relay.internal/v1', 'openai'],
    ['https://openai.azure.com.relay.internal/v1', 'openai'],
  ])('is told from the base URL %s when unset: %s', (url, dialect) => {
    const extra = dialect === 'azure' ? { AZURE_DEPLOYMENTS: 'gpt-image-1' } : {};
    expect(withBase(url, extra).GATEWAY_DIALECT).toBe(dialect);
  });

  it("is the operator's choice when set, whatever the host", () => {
    expect(withBase('https://relay.internal/v1', { GATEWAY_DIALECT: 'openrouter' }).GATEWAY_DIALECT).toBe('openrouter');
    expect(withBase('https://openrouter.ai/api/v1', { GATEWAY_DIALECT: 'openai' }).GATEWAY_DIALECT).toBe('openai');
    expect(problemsOf({ ...REQUIRED, GATEWAY_DIALECT: 'vertex' })).toEqual(['GATEWAY_DIALECT expects openai, openrouter or azure']);
  });

  it('reads AZURE_DEPLOYMENTS as model → deployment, a bare entry being a deployment named like its model', () => {
    const config = withBase('https://my-images.openai.azure.com', { AZURE_DEPLOYMENTS: ' gpt-image-1 = images-prod , dall-e-3,' });
    expect([...(config.AZURE_DEPLOYMENTS ?? [])]).toEqual([
      ['gpt-image-1', 'images-prod'],
      ['dall-e-3', 'dall-e-3'],
    ]);
    expect(config.AZURE_API_VERSION).toBe('2024-10-21');
  });

  it('takes an Azure endpoint with or without /openai, and keeps the /openai/v1 base', () => {
    const azure = (url: string) => withBase(url, { AZURE_DEPLOYMENTS: 'gpt-image-1' }).GATEWAY_BASE_URL;
    expect(azure('https://my-images.openai.azure.com/openai/')).toBe('https://my-images.openai.azure.com');
    expect(azure('https://my-images.openai.azure.com/')).toBe('https://my-images.openai.azure.com');
    expect(azure('https://my-images.openai.azure.com/openai/v1')).toBe('https://my-images.openai.azure.com/openai/v1');
    expect(withBase('https://relay.internal/openai').GATEWAY_BASE_URL).toBe('https://relay.internal/openai');
  });

  it('refuses azure without deployments, a malformed deployment list and a malformed API version', () => {
    expect(problemsOf({ ...REQUIRED, GATEWAY_BASE_URL: 'https://my-images.openai.azure.com' })).toEqual([
      expect.stringContaining('AZURE_DEPLOYMENTS is required with the azure dialect'),
    ]);
    expect(problemsOf({ ...REQUIRED, AZURE_DEPLOYMENTS: 'gpt-image-1=a=b' })).toEqual([expect.stringContaining('"gpt-image-1=a=b" is not one')]);
    expect(problemsOf({ ...REQUIRED, AZURE_DEPLOYMENTS: 'gpt-image-1=my deploy' })).toEqual([expect.stringContaining('is not one')]);
    expect(problemsOf({ ...REQUIRED, AZURE_DEPLOYMENTS: ' , ' })).toEqual(['AZURE_DEPLOYMENTS expects at least one model=deployment entry']);
    expect(problemsOf({ ...REQUIRED, AZURE_API_VERSION: 'latest' })).toEqual([expect.stringContaining('AZURE_API_VERSION expects an Azure API version')]);
  });

  it('does not warn about a missing version segment for an Azure resource endpoint', () => {
    expect(configWarnings(withBase('https://my-images.openai.azure.com', { AZURE_DEPLOYMENTS: 'gpt-image-1' }))).toEqual([]);
    expect(configWarnings(withBase('https://relay.internal/images'))).toHaveLength(1);
  });
});
