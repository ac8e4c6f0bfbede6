/**
 * The garbage-collector tuning is a Node command-line flag, not a change made at run time: `npm start`, the Docker
 * image and the benchmark's bot process all start Node with `--heap-growing-percent=200` (see docs/benchmarks.md),
 * and the Node running the tests accepts it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OUR_BOT_FLAGS } from '../bench/session.js';

const FLAG = '--heap-growing-percent=200';
const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

describe('the heap growth flag', () => {
  it('is on the command line of npm start', () => {
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(pkg.scripts['start']).toBe(`node ${FLAG} --import tsx src/cli.ts`);
  });

  it("is on the Docker image's command line", () => {
    const cmd = /^CMD (.+)$/m.exec(read('Dockerfile'))?.[1];
    expect(JSON.parse(cmd ?? 'null')).toEqual(['node', FLAG, 'dist/cli.js']);
  });

  it("is on the benchmark's command line for our bot", () => {
    expect(OUR_BOT_FLAGS).toEqual([FLAG]);
  });

  it('is accepted by this Node', () => {
    const result = spawnSync(process.execPath, [FLAG, '-e', '0'], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
