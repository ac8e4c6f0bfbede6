/**
 * A model profile file with an error stops `npm start` before anything else, naming the file, the entry and the
 * field (issue 16). A real process: the bot's own entry point, with nothing listening anywhere.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = new URL('../..', import.meta.url).pathname;

function start(profiles: string): Promise<{ code: number | null; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'imagine-profiles-'));
  const file = join(dir, 'profiles.json');
  writeFileSync(file, profiles);
  return new Promise((resolve) => {
    const child = spawn(join(repo, 'node_modules/.bin/tsx'), [join(repo, 'src/cli.ts')], {
      cwd: dir,
      env: {
        PATH: process.env['PATH'] ?? '',
        DISCORD_TOKEN: 'some-token',
        DISCORD_API_URL: 'http://127.0.0.1:9/api',
        GATEWAY_BASE_URL: 'http://127.0.0.1:9/v1',
        GATEWAY_API_KEY: 'sk-never-used',
        STORAGE_URL: 'memory://',
        LOG_LEVEL: 'silent',
        MODEL_PROFILES_FILE: file,
      },
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stderr: stderr.replaceAll(file, 'profiles.json') }));
  });
}

describe('MODEL_PROFILES_FILE at start', () => {
  it('stops npm start with exit status 1 and a line naming the bad entry and field', async () => {
    const result = await start(JSON.stringify({ 'gpt-image-2': { backgrounds: ['auto'] }, 'flux-*': { maxN: 20 } }));
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'Invalid configuration:\n  - MODEL_PROFILES_FILE (profiles.json) "flux-*".maxN: Too big: expected number to be <=10\nSee docs/configuration.md.\n',
    );
  });
});
