/**
 * A clone with nothing beside it works (issue 12): the repository's files, copied to a folder with no ../shared
 * beside it and only node_modules linked in, run an end-to-end test file and the demo without the OpenAPI
 * descriptions, and say that validation is off rather than failing.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const TIMEOUT_MS = 120_000;

describe('a fresh clone with no ../shared beside it', () => {
  let root: string;
  let clone: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'imagine-bot-clone-'));
    clone = join(root, 'imagine-bot');
    copyRepository(clone);
    symlinkSync(join(REPO, 'node_modules'), join(clone, 'node_modules'), 'dir');
  });

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('has nothing beside it', () => {
    expect(readdirSync(root)).toEqual(['imagine-bot']);
  });

  it(
    'passes an end-to-end test file against both emulators, listing the tests it skipped and why',
    async () => {
      const files = ['test/e2e/foundation.test.ts', 'test/support/openapi.test.ts', 'test/storage/quota-store.test.ts'];
      const { code, output } = await run(clone, 'node_modules/.bin/vitest', ['run', ...files]);
      expect(code, output).toBe(0);
      expect(output).toMatch(/Test Files {2}3 passed/);
      // A skipped describe is one line, with its reason.
      expect(output).toMatch(/^skipped: test\/storage\/quota-store\.test\.ts > Redis: skipped because REDIS_URL is not set$/m);
      for (const file of ['discord-openapi.json', 'openai-openapi.json']) {
        expect(output).toContain(`skipped because ../shared/spec/${file} is absent (set OPENAPI_SPEC_DIR to a folder with the official OpenAPI descriptions)`);
      }
      expect(output).toMatch(/^skipped: test\/support\/openapi\.test\.ts > against the official specs > Discord: .*: skipped because /m);
    },
    TIMEOUT_MS,
  );

  it(
    'runs the demo, which says validation is off and writes its images and its transcript page',
    async () => {
      const { code, output } = await run(clone, 'node_modules/.bin/tsx', ['demo/run.ts']);
      expect(code, output).toBe(0);
      expect(output).toMatch(/OpenAPI validation off: \.\.\/shared\/spec\/discord-openapi\.json and \.\.\/shared\/spec\/openai-openapi\.json are absent/);
      const images = readdirSync(join(clone, 'demo-output')).filter((name) => /\.(png|jpe?g|webp)$/.test(name));
      expect(images.length, output).toBeGreaterThan(0);
      // Issue 18: the demo picks an image (U1), then runs a Vary and a Zoom out on it.
      expect(images.filter((name) => /^(pick|vary|zoom)-/.test(name)).map((name) => name.split('-')[0])).toEqual(['pick', 'vary', 'zoom']);
      for (const name of images) expect(readFileSync(join(clone, 'demo-output', name)).length).toBeGreaterThan(0);
      expect(readFileSync(join(clone, 'demo-output', 'transcript.html'), 'utf8')).toContain('transcript-files/');
      const files = readdirSync(join(clone, 'demo-output', 'transcript-files'));
      expect(files.filter((name) => name !== 'fonts')).toHaveLength(images.length);
      // Issue 31: the emoji font's subsets the page needs are next to it.
      expect(readdirSync(join(clone, 'demo-output', 'transcript-files', 'fonts')).some((name) => name.endsWith('.woff2'))).toBe(true);
    },
    TIMEOUT_MS,
  );
});

/** Copies what a clone holds: the tracked files plus new ones not ignored, as they are in the working tree. */
function copyRepository(to: string): void {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const path of listed.stdout.split('\0').filter(Boolean)) {
    const from = join(REPO, path);
    // Deleted in the working tree, or a link (a node_modules link is not ignored by `node_modules/`).
    if (!existsSync(from) || !lstatSync(from).isFile()) continue;
    mkdirSync(dirname(join(to, path)), { recursive: true });
    copyFileSync(from, join(to, path));
  }
}

// What vitest sets in its workers' environment; a command typed in a clone would not see them.
const VITEST_ENV = ['TEST', 'NODE_ENV', 'MODE', 'DEV', 'PROD', 'SSR', 'BASE_URL', 'FORCE_TTY'];

/**
 * Runs a command to its exit as in a clone with nothing beside it: without the spec settings, the database URLs or
 * the parent vitest's variables. The output is stdout, then stderr.
 */
function run(cwd: string, command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  const inherited = (key: string) =>
    !(key.startsWith('OPENAPI_SPEC_') || key.startsWith('VITEST') || VITEST_ENV.includes(key) || key === 'REDIS_URL' || key === 'POSTGRES_URL');
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries({ ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }).filter(([key]) => inherited(key)));
  const child = spawn(join(cwd, command), args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output: Buffer.concat(stdout).toString('utf8') + Buffer.concat(stderr).toString('utf8') }));
  });
}
