import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('the production build', () => {
  it('type-checks the sources the Docker image compiles (npm run build)', () => {
    const repo = new URL('..', import.meta.url).pathname;
    const result = spawnSync(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--noEmit'], {
      cwd: repo,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 130_000);
});
