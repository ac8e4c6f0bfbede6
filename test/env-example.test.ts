/**
 * `.env.example` can be trusted (issue 31): comments on their own lines (uncommenting a line sets exactly the value
 * shown), every configuration variable listed, and every value it shows accepted by the configuration schema.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigSchema, loadConfig } from '../src/config.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const lines = readFileSync(new URL('../.env.example', import.meta.url), 'utf8').split('\n');
/** A variable's line, set or commented out: `KEY=value` or `# KEY=value`. */
const VARIABLE = /^(#\s?)?([A-Z][A-Z0-9_]*)=(.*)$/;
/** What a newcomer must fill in (the example shows them empty or as a placeholder). */
const REQUIRED = { DISCORD_TOKEN: 'token', GATEWAY_BASE_URL: 'https://gateway.test/v1', GATEWAY_API_KEY: 'sk-test' };

const variables = lines.flatMap((line) => {
  const match = VARIABLE.exec(line);
  return match ? [{ key: match[2]!, value: match[3]!, commented: match[1] !== undefined }] : [];
});

describe('.env.example', () => {
  it('has only blank lines, comments and variables, with no comment on a value line', () => {
    for (const line of lines) {
      if (line.trim() === '' || VARIABLE.test(line)) continue;
      expect(line, 'a line that is neither blank, a comment nor a variable').toMatch(/^# /);
    }
    for (const { key, value } of variables) {
      expect(value, `${key}'s value carries a comment`).not.toMatch(/\s#|\s\(|\s{2,}/);
      expect(value, `${key}'s value has spaces around it`).toBe(value.trim());
    }
  });

  it('lists every configuration variable once, and no other', () => {
    const keys = variables.map((v) => v.key);
    expect(new Set(keys).size, 'a variable listed twice').toBe(keys.length);
    expect([...keys].sort()).toEqual(Object.keys(ConfigSchema.shape).sort());
    // Only the three a newcomer must fill in are set; every other one is commented out.
    expect(variables.filter((v) => !v.commented).map((v) => v.key)).toEqual(Object.keys(REQUIRED));
  });

  it('shows values the configuration accepts, each uncommented on its own and all together', () => {
    const optional = variables.filter((v) => v.commented);
    const cwd = process.cwd();
    process.chdir(REPO);
    try {
      for (const { key, value } of optional) expect(() => loadConfig({ ...REQUIRED, [key]: value }), `${key}=${value}`).not.toThrow();
      const all = loadConfig({ ...REQUIRED, ...Object.fromEntries(optional.map((v) => [v.key, v.value])) });
      expect(all.PROMPT_MODEL).toBe('gpt-4o-mini');
      expect(all.DEFAULT_IMAGE_MODEL).toBe('gpt-image-2');
    } finally {
      process.chdir(cwd);
    }
  });

  it('refuses the placeholder gateway it shows until it is changed', () => {
    const shown = variables.find((v) => v.key === 'GATEWAY_BASE_URL')!.value;
    expect(() => loadConfig({ ...REQUIRED, GATEWAY_BASE_URL: shown })).toThrow(/placeholder/);
  });
});
