/**
 * Docker that checks itself (issue 31): docker-compose.yml offers one process on SQLite (with a volume), shards on
 * Redis and shards on PostgreSQL as profiles; every bot service's variables are ones the configuration knows, with
 * values it accepts; and the image listens for health by default, so its HEALTHCHECK means something with a plain
 * `docker run`. (Docker is not available here: the files are parsed, not built.)
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConfigSchema, loadConfig } from '../src/config.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');

interface Service {
  image?: string;
  build?: string;
  profiles?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: unknown;
}
const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const bots = Object.entries(compose.services).filter(([, service]) => service.image === 'imagine-bot');
/** What the .env beside the compose file holds (env_file). */
const DOTENV = { DISCORD_TOKEN: 'token', GATEWAY_BASE_URL: 'https://gateway.test/v1', GATEWAY_API_KEY: 'sk-test' };

describe('docker-compose.yml', () => {
  it('offers one process on SQLite with a volume, and two shards each on Redis and on PostgreSQL', () => {
    const byProfile = (profile: string) => bots.filter(([, s]) => s.profiles?.includes(profile)).map(([name, s]) => ({ name, ...s }));
    const [single, ...more] = byProfile('sqlite');
    expect(more).toEqual([]);
    expect(single?.environment?.['STORAGE_URL']).toMatch(/^sqlite:\/\/data\//);
    expect(single?.volumes?.some((v) => v.endsWith(':/app/data') && (v.split(':')[0] ?? '') in compose.volumes)).toBe(true);
    for (const [profile, scheme, store] of [
      ['redis', 'redis://', 'redis'],
      ['postgres', 'postgres://', 'postgres'],
    ] as const) {
      const shards = byProfile(profile);
      expect(shards.map((s) => s.environment?.['SHARD_IDS'])).toEqual(['0', '1']);
      for (const shard of shards) {
        expect(shard.environment?.['STORAGE_URL']).toMatch(new RegExp(`^${scheme}${store === 'postgres' ? '.*@postgres:5432/' : 'redis:6379'}`));
        expect(shard.environment?.['SHARD_COUNT']).toBe('2');
        expect(shard.depends_on?.[store]).toEqual({ condition: 'service_healthy' });
      }
      expect(compose.services[store]?.profiles).toEqual([profile]);
      expect(compose.services[store]?.healthcheck).toBeDefined();
    }
    // Every bot service is in exactly one layout, so a profile never starts two layouts at once.
    for (const [name, service] of bots) expect(service.profiles, name).toHaveLength(1);
  });

  it('sets on each bot service only variables the configuration knows, with values it accepts', () => {
    const known = new Set(Object.keys(ConfigSchema.shape));
    const cwd = process.cwd();
    process.chdir(REPO);
    try {
      for (const [name, service] of bots) {
        const env = service.environment ?? {};
        for (const key of Object.keys(env)) expect(known.has(key), `${name}: ${key}`).toBe(true);
        expect(() => loadConfig({ ...DOTENV, ...env }), name).not.toThrow();
        expect(loadConfig({ ...DOTENV, ...env }).HTTP_PORT, name).toBe(9464);
      }
    } finally {
      process.chdir(cwd);
    }
  });

  it('has Prometheus scrape every bot service', () => {
    const targets = /targets: \[(.*)\]/
      .exec(read('prometheus.yml'))?.[1]
      ?.split(',')
      .map((t) => t.trim().replace(/'/g, ''));
    expect(targets?.sort()).toEqual(bots.map(([name]) => `${name}:9464`).sort());
  });
});

describe('Dockerfile', () => {
  it('listens for health by default, and its HEALTHCHECK asks that port instead of passing when none is set', () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile).toMatch(/^\s+HTTP_PORT=9464$/m);
    const check = /^HEALTHCHECK .*\n\s+CMD (.+)$/m.exec(dockerfile)?.[1] ?? '';
    expect(check).toContain("process.env.HTTP_PORT||'9464'");
    expect(check).not.toMatch(/exit\(0\)\s*;/);
    expect(dockerfile).toMatch(/^EXPOSE 9464$/m);
  });
});
