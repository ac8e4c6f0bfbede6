/**
 * Configuration: the only module that reads the environment (and a `.env` file in the working directory).
 * The real environment wins over `.env`. Invalid or missing values are all reported at once, naming each
 * variable and what it expects; secret values are never echoed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { z } from 'zod';
import { readProfilesFile } from './model-profiles-file.js';
import { DIALECT_SETTINGS, detectDialect, dialectProblems, type GatewayDialectName } from './dialect-settings.js';

const MIB = 1024 * 1024;

const positiveInt = (what: string) =>
  z.coerce
    .number({ error: `expects ${what}` })
    .int({ error: `expects ${what}` })
    .positive({ error: `expects ${what}` });
const nonNegativeInt = (what: string) =>
  z.coerce
    .number({ error: `expects ${what}` })
    .int({ error: `expects ${what}` })
    .min(0, { error: `expects ${what}` });
const httpUrl = (what: string) => z.url({ protocol: /^https?$/, error: `expects ${what}` }).transform((u) => u.replace(/\/+$/, ''));
const hostList = z
  .string()
  .transform((s) =>
    s
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter((h) => h.length > 0),
  )
  .refine((hosts) => hosts.length > 0 && hosts.every((h) => /^[a-z0-9.-]+(:\d+)?$/.test(h)), {
    error: 'expects a comma-separated list of host names (optionally host:port)',
  });
const flag = z.stringbool({ error: 'expects true or false' });

/** Every configuration key, its parser and its default; docs/configuration.md documents each one (a test checks it). */
export const ConfigSchema = z.object({
  DISCORD_TOKEN: z
    .string({ error: 'is required: the bot token from the Discord developer portal' })
    .min(1, { error: 'is required: the bot token from the Discord developer portal' }),
  DISCORD_API_URL: httpUrl('an http(s) URL such as https://discord.com/api (REST base without version)').default('https://discord.com/api'),
  DISCORD_LOGIN_TIMEOUT_MS: positiveInt('a whole number of milliseconds').default(30_000),
  DISCORD_CDN_HOSTS: hostList.default(['cdn.discordapp.com', 'media.discordapp.net']),
  COMMANDS_GUILD_ID: z
    .string()
    .regex(/^\d{17,20}$/, { error: 'expects a server (guild) id' })
    .optional(),
  GATEWAY_BASE_URL: httpUrl('an http(s) URL including the API version, such as https://api.openai.com/v1').refine((url) => !isPlaceholderHost(url), {
    error: "is still the placeholder from .env.example: set your gateway's address, such as https://api.openai.com/v1",
  }),
  GATEWAY_API_KEY: z
    .string({ error: 'is required: the bearer key for the image gateway' })
    .min(1, { error: 'is required: the bearer key for the image gateway' }),
  DEFAULT_IMAGE_MODEL: z.string().min(1, { error: 'expects a model name' }).optional(),
  /** GATEWAY_DIALECT, AZURE_DEPLOYMENTS and AZURE_API_VERSION (dialect-settings.ts, docs/gateways.md). */
  ...DIALECT_SETTINGS,
  /** What models accept, over the built-in profiles (docs/gateways.md#models); read and checked here, so a bad file stops the start. */
  MODEL_PROFILES_FILE: z
    .string()
    .optional()
    .transform((path, ctx) => {
      if (path === undefined) return undefined;
      const read = readProfilesFile(path);
      if (read.ok) return { path, profiles: read.profiles };
      ctx.addIssue({
        code: 'custom',
        message: `(${path}) ${read.problems.slice(0, 5).join('; ')}${read.problems.length > 5 ? `; and ${read.problems.length - 5} more` : ''}`,
      });
      return z.NEVER;
    }),
  /** Hosts besides the gateway's own that may serve `url` image items; internal addresses only when listed here. */
  GATEWAY_URL_HOSTS: hostList.optional().transform((hosts) => hosts ?? []),
  GATEWAY_TIMEOUT_MS: positiveInt('a whole number of milliseconds').default(180_000),
  GATEWAY_CONNECT_TIMEOUT_MS: positiveInt('a whole number of milliseconds').default(10_000),
  GATEWAY_CHECK_INTERVAL_MS: positiveInt('a whole number of milliseconds').default(60_000),
  GATEWAY_MAX_RETRIES: nonNegativeInt('a whole number from 0 to 5').max(5, { error: 'expects a whole number from 0 to 5' }).default(2),
  GATEWAY_MAX_RESPONSE_BYTES: positiveInt('a number of bytes').default(64 * MIB),
  /** First wait before polling a task a relay answered with instead of images (later waits grow to 10 s). */
  GATEWAY_TASK_POLL_MS: positiveInt('a whole number of milliseconds').default(1_000),
  /** Prompt help (enhance): the gateway's chat model that rewrites prompts; unset, enhance is off and not registered. */
  PROMPT_MODEL: z.string().min(1, { error: 'expects a chat model name' }).optional(),
  /** Prompt help (describe): a chat model that reads images; unset, PROMPT_MODEL; neither set, describe is off. */
  VISION_MODEL: z.string().min(1, { error: 'expects a chat model name' }).optional(),
  /** Total time of one prompt help chat call, its one retry included. */
  PROMPT_TIMEOUT_MS: positiveInt('a whole number of milliseconds').default(30_000),
  /** The longest answer a prompt help chat call asks for (max_tokens). */
  PROMPT_MAX_TOKENS: positiveInt('a whole number of tokens').max(4_096, { error: 'expects a whole number of tokens up to 4096' }).default(400),
  GATEWAY_PARTIAL_IMAGES: nonNegativeInt('a whole number from 0 to 3').max(3, { error: 'expects a whole number from 0 to 3' }).default(1),
  STORAGE_URL: z
    .string()
    .regex(/^(sqlite:\/\/.+|redis:\/\/.+|rediss:\/\/.+|postgres:\/\/.+|postgresql:\/\/.+|memory:\/\/.*)$/, {
      error: 'expects sqlite://PATH, redis://…, postgres://… or memory://',
    })
    .default('sqlite://data/bot.sqlite'),
  /** PostgreSQL: connections of keyv's pool and of the ledger's, each; a process opens 2× this + MAX_CONCURRENT_JOBS + 1, checked at start. */
  POSTGRES_POOL_SIZE: positiveInt('a positive whole number of connections').default(10),
  QUOTA_DEFAULT_LIMIT: nonNegativeInt('a whole number of images (0 or more)').default(20),
  QUOTA_DEFAULT_PERIOD: z.enum(['day', 'week', 'month'], { error: 'expects day, week or month' }).default('day'),
  JOB_LEASE_MS: positiveInt('a whole number of milliseconds').min(1_000, { error: 'expects at least 1000 milliseconds' }).default(60_000),
  MAX_CONCURRENT_JOBS: positiveInt('a positive whole number').default(4),
  MAX_RUNNING_PER_MEMBER: positiveInt('a positive whole number').default(2),
  MAX_QUEUED_PER_MEMBER: positiveInt('a positive whole number').default(10),
  MEMORY_BUDGET_BYTES: positiveInt('a number of bytes').default(192 * MIB),
  /** The describes' own region of MEMORY_BUDGET_BYTES: what all describes hold at once. */
  DESCRIBE_MEMORY_BYTES: positiveInt('a number of bytes').default(64 * MIB),
  /** How long after one of a member's describes starts their next may (0: no cooldown; one at a time still holds). */
  DESCRIBE_COOLDOWN_SECONDS: nonNegativeInt('a whole number of seconds').default(20),
  ATTACHMENT_MAX_BYTES: positiveInt('a number of bytes').default(50 * MIB - 1),
  /** The most pixels an image's header may declare for the bot to decode it or pass it on (answers, references, canvases, describe). */
  MAX_DECODE_PIXELS: positiveInt('a whole number of pixels').default(50_000_000),
  /** SVG renders at once: each is a child process taking up to a core and about 60–120 MB while it draws (service/svg-rasterise.ts). */
  SVG_RENDER_CONCURRENCY: positiveInt('a whole number from 1 to 4').max(4, { error: 'expects a whole number from 1 to 4' }).default(1),
  /** The longest one SVG render may run. */
  SVG_RENDER_TIMEOUT_SECONDS: positiveInt('a whole number of seconds').max(60, { error: 'expects a whole number of seconds from 1 to 60' }).default(10),
  PROGRESS_INTERVAL_MS: positiveInt('a whole number of milliseconds').default(3_000),
  STREAM_DELIVERIES: flag.default(true),
  BUTTON_TTL_HOURS: positiveInt('a whole number of hours').default(24 * 7),
  HISTORY_DAYS: positiveInt('a whole number of days').default(30),
  /** Moderation refusals within MODERATION_STRIKE_WINDOW_HOURS that pause a member from generating; 0 turns strikes off. */
  MODERATION_STRIKES: nonNegativeInt('a whole number of refusals (0 turns strikes off)').default(3),
  MODERATION_STRIKE_WINDOW_HOURS: positiveInt('a whole number of hours').default(24),
  MODERATION_PAUSE_HOURS: positiveInt('a whole number of hours').default(24),
  SHARD_COUNT: z.union([z.literal('auto'), positiveInt('a positive whole number or auto')], { error: 'expects a positive whole number or auto' }).default(1),
  SHARD_IDS: z
    .string()
    .regex(/^\s*\d+(\s*,\s*\d+)*\s*$/, { error: 'expects a comma-separated list of shard numbers, such as 0,1' })
    .transform((s) => [...new Set(s.split(',').map((id) => Number(id.trim())))].sort((a, b) => a - b))
    .optional(),
  SHUTDOWN_GRACE_MS: nonNegativeInt('a whole number of milliseconds').default(30_000),
  /** The operator's HTTP listener (/healthz, /readyz, /metrics); unset, none is started. 0 takes a free port. */
  HTTP_PORT: nonNegativeInt('a port number from 0 to 65535').max(65_535, { error: 'expects a port number from 0 to 65535' }).optional(),
  HTTP_HOST: z.string().min(1, { error: 'expects an address to listen on, such as 127.0.0.1 or 0.0.0.0' }).default('127.0.0.1'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { error: 'expects fatal, error, warn, info, debug, trace or silent' })
    .default('info'),
  LOG_PRETTY: flag.default(false),
});

/** Hosts under the domains reserved for documentation (RFC 2606): a placeholder, never a real gateway. */
function isPlaceholderHost(url: string): boolean {
  const host = URL.canParse(url) ? new URL(url).hostname.toLowerCase() : '';
  return /(^|\.)example\.(com|net|org)$/.test(host) || /\.(example|invalid)$/.test(host);
}

/**
 * Values that are valid but probably wrong; the bot logs each one as a warning at start.
 * A base URL without a version segment (`/v1`, `/api/v3`, `/v1beta`) works with some relays, so it is not refused.
 */
export function configWarnings(config: Pick<Config, 'GATEWAY_BASE_URL'> & Partial<Pick<Config, 'GATEWAY_DIALECT'>>): string[] {
  const url = new URL(config.GATEWAY_BASE_URL);
  // Azure's base is its resource endpoint: the version goes in the query (api-version), or the path is /openai/v1.
  if (config.GATEWAY_DIALECT === 'azure' || /\/v\d+[a-z0-9]*(\/|$)/i.test(`${url.pathname}/`)) return [];
  return [
    `GATEWAY_BASE_URL (${url.host}${url.pathname === '/' ? '' : url.pathname}) has no version segment such as /v1; most gateways expect one (some relays use other paths)`,
  ];
}

/** The configuration as loaded: GATEWAY_DIALECT always decided (chosen, or detected from GATEWAY_BASE_URL). */
export type Config = Omit<z.infer<typeof ConfigSchema>, 'GATEWAY_DIALECT'> & { GATEWAY_DIALECT: GatewayDialectName };

/** Thrown when the configuration is invalid; the message lists every bad variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

/**
 * Parses configuration from plain key/value sources. Pure: pass `process.env` (and `.env` contents) in.
 * Empty strings count as unset, so `FOO=` in a .env file falls back to the default.
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>>, dotenv: Readonly<Record<string, string>> = {}): Config {
  const parsed = parseWith(ConfigSchema, env, dotenv);
  const dialect = parsed.GATEWAY_DIALECT ?? detectDialect(parsed.GATEWAY_BASE_URL) ?? 'openai';
  // Azure's portal shows the endpoint with and without `/openai`; the deployment paths start there themselves.
  const baseUrl = dialect === 'azure' ? parsed.GATEWAY_BASE_URL.replace(/\/openai$/i, '') : parsed.GATEWAY_BASE_URL;
  const config = { ...parsed, GATEWAY_DIALECT: dialect, GATEWAY_BASE_URL: baseUrl };
  const problems = [...shardProblems(config), ...memoryProblems(config), ...dialectProblems(config)];
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** The shards this process runs, as discord.js's Client options: all of SHARD_COUNT, or SHARD_IDS of them. */
export type ShardPlan = { shards: 'auto' } | { shards: number[]; shardCount: number };

/** See {@link ShardPlan}; the configuration has been checked by loadConfig. */
export function shardPlan(config: Pick<Config, 'SHARD_COUNT' | 'SHARD_IDS'>): ShardPlan {
  if (config.SHARD_COUNT === 'auto') return { shards: 'auto' };
  return { shards: config.SHARD_IDS ?? Array.from({ length: config.SHARD_COUNT }, (_, i) => i), shardCount: config.SHARD_COUNT };
}

/**
 * The memory budget keeps one answer's room free for answers (service/memory-budget.ts), so it must be larger; the
 * describes' region is part of it.
 */
function memoryProblems(config: Pick<Config, 'MEMORY_BUDGET_BYTES' | 'GATEWAY_MAX_RESPONSE_BYTES' | 'DESCRIBE_MEMORY_BYTES'>): string[] {
  const problems: string[] = [];
  if (config.MEMORY_BUDGET_BYTES <= config.GATEWAY_MAX_RESPONSE_BYTES)
    problems.push(
      `MEMORY_BUDGET_BYTES (${config.MEMORY_BUDGET_BYTES}) must be larger than GATEWAY_MAX_RESPONSE_BYTES (${config.GATEWAY_MAX_RESPONSE_BYTES}): one answer's room is kept free for answers`,
    );
  if (config.DESCRIBE_MEMORY_BYTES > config.MEMORY_BUDGET_BYTES)
    problems.push(
      `DESCRIBE_MEMORY_BYTES (${config.DESCRIBE_MEMORY_BYTES}) must be at most MEMORY_BUDGET_BYTES (${config.MEMORY_BUDGET_BYTES}): it is a part of it`,
    );
  return problems;
}

function shardProblems(config: Pick<Config, 'SHARD_COUNT' | 'SHARD_IDS'>): string[] {
  if (config.SHARD_IDS === undefined) return [];
  if (config.SHARD_COUNT === 'auto') return ['SHARD_IDS needs a numeric SHARD_COUNT (with auto, this process runs every shard Discord recommends)'];
  const count = config.SHARD_COUNT;
  const outside = config.SHARD_IDS.filter((id) => id >= count);
  return outside.length > 0 ? [`SHARD_IDS expects shard numbers from 0 to ${count - 1} (SHARD_COUNT is ${count}); ${outside.join(', ')} is outside`] : [];
}

function parseWith<S extends z.ZodObject>(schema: S, env: Readonly<Record<string, string | undefined>>, dotenv: Readonly<Record<string, string>>): z.infer<S> {
  const merged: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = [env[key], dotenv[key]].find((v) => v !== undefined && v.trim() !== '');
    if (value !== undefined) merged[key] = value.trim();
  }
  const result = schema.safeParse(merged);
  if (result.success) return result.data;
  const problems = new Map<string, string>();
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? 'configuration');
    if (!problems.has(key)) problems.set(key, `${key} ${issue.message}`);
  }
  throw new ConfigError([...problems.values()]);
}

/** The subset `npm run commands:deploy` needs: it talks to Discord only. */
const DeployConfigSchema = ConfigSchema.pick({
  DISCORD_TOKEN: true,
  DISCORD_API_URL: true,
  COMMANDS_GUILD_ID: true,
  LOG_LEVEL: true,
  PROMPT_MODEL: true,
  VISION_MODEL: true,
});
export type DeployConfig = z.infer<typeof DeployConfigSchema>;

/** Like {@link loadConfig}, for the deploy command. */
function loadDeployConfig(env: Readonly<Record<string, string | undefined>>, dotenv: Readonly<Record<string, string>> = {}): DeployConfig {
  return parseWith(DeployConfigSchema, env, dotenv);
}

/** The deploy command's entry: the process environment plus `.env` in the working directory. */
export function loadDeployConfigFromProcess(): DeployConfig {
  return loadDeployConfig(process.env, readDotenv(process.cwd()));
}

/** Reads `.env` from a directory if present (never required). */
function readDotenv(directory: string): Record<string, string> {
  const file = resolve(directory, '.env');
  if (!existsSync(file)) return {};
  return parseEnv(readFileSync(file, 'utf8')) as Record<string, string>;
}

/** The composition root's entry: the process environment plus `.env` in the working directory. */
export function loadConfigFromProcess(): Config {
  return loadConfig(process.env, readDotenv(process.cwd()));
}
