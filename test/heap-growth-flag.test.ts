/**
 * The garbage-collector tuning is Node command-line flags, not a change made at run time: `npm start` (the compiled
 * bot, built first), the Docker image and the benchmark's bot process all start Node with
 * `--heap-growing-percent=200 --max-semi-space-size=8 --flush-baseline-code --expose-gc` (see the Dockerfile's comment,
 * docs/benchmarks.md and src/garbage.ts), and the Node running the tests accepts them.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OUR_BOT_FLAGS } from '../bench/session.js';

const FLAGS = ['--heap-growing-percent=200', '--max-semi-space-size=8', '--flush-baseline-code', '--expose-gc'];
const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

describe('the garbage-collector flags', () => {
  it('are on the command line of npm start, which runs the compiled bot after building it', () => {
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(pkg.scripts['start']).toBe(`node ${FLAGS.join(' ')} dist/cli.js`);
    expect(pkg.scripts['prestart']).toBe('npm run build');
  });

  it("are on the Docker image's command line", () => {
    const cmd = /^CMD (.+)$/m.exec(read('Dockerfile'))?.[1];
    expect(JSON.parse(cmd ?? 'null')).toEqual(['node', ...FLAGS, 'dist/cli.js']);
  });

  it("are on the benchmark's command line for our bot", () => {
    expect(OUR_BOT_FLAGS).toEqual(FLAGS);
  });

  it('are accepted by this Node', () => {
    const result = spawnSync(process.execPath, [...FLAGS, '-e', '0'], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
