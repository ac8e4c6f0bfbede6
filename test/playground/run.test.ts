/**
 * `npm run playground` as a person runs it (issue 31): `tsx playground/run.ts` prints the page's URL, the page and its
 * setup answer there, and Ctrl-C (SIGINT) stops the bot, the emulators and the page, exiting 0. A bad port is refused
 * before anything starts; a taken one stops what started and exits 1.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';

const REPO = new URL('../..', import.meta.url).pathname;

function startRun(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'playground/run.ts', ...args], {
    cwd: REPO,
    env: { PATH: process.env['PATH'] ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = new Promise<string>((resolve, reject) => {
    const check = () => {
      const found = /Playground ready: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
      if (found?.[1]) resolve(found[1]);
    };
    child.stdout.on('data', check);
    child.once('exit', () => reject(new Error(`the playground exited before it was ready:\n${output}`)));
  });
  // A run that is meant to fail never gets ready: its rejection is expected, not unhandled.
  url.catch(() => undefined);
  return { child, url, output: () => output };
}

describe('npm run playground', () => {
  it('prints its URL, serves the page there, and stops with exit code 0 on SIGINT', async () => {
    const run = startRun(['--port', '0']);
    const url = await run.url;
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('imagine-bot playground');
    const setup = (await (await fetch(`${url}api/setup`)).json()) as { commands: { name: string }[] };
    expect(setup.commands.map((c) => c.name)).toEqual(expect.arrayContaining(['imagine', 'edit']));
    const exited = once(run.child, 'exit');
    run.child.kill('SIGINT');
    const [code] = (await exited) as [number | null];
    expect(code, run.output()).toBe(0);
    expect(run.output()).toContain('Stopped.');
    await expect(fetch(url)).rejects.toThrow();
  }, 60_000);

  it('says so and exits 1 when its port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const run = startRun(['--port', String((taken.address() as AddressInfo).port)]);
      const [code] = (await once(run.child, 'exit')) as [number | null];
      expect(code).toBe(1);
      expect(run.output()).toContain('EADDRINUSE');
    } finally {
      taken.close();
    }
  }, 60_000);

  it('refuses a port that is not one, exiting 1', async () => {
    const run = startRun(['--port', 'eighty']);
    const [code] = (await once(run.child, 'exit')) as [number | null];
    expect(code).toBe(1);
    expect(run.output()).toContain('must be a whole number 0–65535, not "eighty"');
  }, 30_000);
});
