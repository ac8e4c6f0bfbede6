/**
 * No silent death: in a real child process, an unhandled rejection or an uncaught exception is logged with its
 * error and ends in the graceful shutdown (stop() runs) and exit status 1; SIGTERM ends in stop() and status 0.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { runUntilStopped, type LifecycleProcess } from '../src/process-lifecycle.js';
import { memoryLogger } from './fakes/memory-logger.js';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'lifecycle-child.ts');

interface Ended {
  code: number | null;
  lines: { msg?: string; level?: number; event?: string; err?: { message?: string } }[];
  stderr: string;
}

/** Runs the fixture in `mode`; `onReady` is called once it has logged "ready". Resolves when it has exited. */
function runChild(mode: string, onReady?: (pid: number) => void): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (onReady && stdout.includes('"msg":"ready"')) {
        const ready = onReady;
        onReady = undefined;
        ready(child.pid ?? 0);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const lines = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Ended['lines'][number]);
      resolve({ code, lines, stderr });
    });
  });
}

const messages = (ended: Ended) => ended.lines.map((l) => l.msg);

describe('the process lifecycle', () => {
  it('logs an unhandled rejection with its error, shuts down gracefully and exits 1', async () => {
    const ended = await runChild('rejection');
    expect(ended.code).toBe(1);
    const fatal = ended.lines.find((l) => l.msg === 'unhandled rejection: shutting down');
    expect(fatal).toMatchObject({ level: 60, event: 'unhandledRejection', err: { message: 'a promise nobody awaited' } });
    expect(messages(ended)).toEqual(['ready', 'unhandled rejection: shutting down', 'stopped']);
  });

  it('logs an uncaught exception with its error, shuts down gracefully and exits 1', async () => {
    const ended = await runChild('exception');
    expect(ended.code).toBe(1);
    const fatal = ended.lines.find((l) => l.msg === 'uncaught exception: shutting down');
    expect(fatal).toMatchObject({ level: 60, event: 'uncaughtException', err: { message: 'a throw from a timer' } });
    expect(messages(ended)).toEqual(['ready', 'uncaught exception: shutting down', 'stopped']);
  });

  it('shuts down on SIGTERM and exits 0', async () => {
    const ended = await runChild('signal', (pid) => process.kill(pid, 'SIGTERM'));
    expect(ended.code).toBe(0);
    expect(messages(ended)).toEqual(['ready', 'signal received', 'stopped']);
  });

  it('exits 1 with the reason when start-up fails', async () => {
    const ended = await runChild('start-fails');
    expect(ended.code).toBe(1);
    expect(ended.stderr).toContain('imagine-bot could not start: no gateway here');
  });

  it('logs a failed shutdown and still exits 1', async () => {
    const ended = await runChild('stop-fails');
    expect(ended.code).toBe(1);
    expect(messages(ended)).toEqual(['ready', 'unhandled rejection: shutting down', 'stopped', 'shutdown failed']);
  });
});

/** The process seams in memory: events are emitted by the test, exit codes and stderr are recorded. */
class FakeProcess extends EventEmitter implements LifecycleProcess {
  readonly exits: number[] = [];
  readonly errors: string[] = [];
  private exited!: (code: number) => void;
  readonly exitCode = new Promise<number>((resolve) => (this.exited = resolve));
  readonly stderr = { write: (text: string) => this.errors.push(text) };
  exit(code: number): never {
    this.exits.push(code);
    this.exited(code);
    return undefined as never;
  }
}

describe('runUntilStopped, in process', () => {
  const bot = (stop: () => Promise<void> = async () => undefined) => {
    const { logger, lines } = memoryLogger();
    return { bot: { logger, stop }, entries: () => lines };
  };

  it('stops the bot and exits 1 after an unhandled rejection, logging it at fatal', async () => {
    const proc = new FakeProcess();
    const { bot: running, entries } = bot();
    await runUntilStopped(async () => running, proc);
    proc.emit('unhandledRejection', new Error('lost promise'));
    expect(await proc.exitCode).toBe(1);
    expect(entries()).toContainEqual(expect.objectContaining({ level: 60, msg: 'unhandled rejection: shutting down', event: 'unhandledRejection' }));
  });

  it('after a signal during start-up, stops the bot as soon as it has started and exits 0', async () => {
    const proc = new FakeProcess();
    let stopped = 0;
    const { bot: running } = bot(async () => void (stopped += 1));
    let started!: () => void;
    const starting = runUntilStopped(() => new Promise<typeof running>((resolve) => (started = () => resolve(running))), proc);
    proc.emit('SIGTERM', 'SIGTERM');
    started();
    await starting;
    expect(await proc.exitCode).toBe(0);
    expect(stopped).toBe(1);
  });

  it('logs a second fatal error during the shutdown instead of starting another', async () => {
    const proc = new FakeProcess();
    let finish!: () => void;
    let stops = 0;
    const { bot: running, entries } = bot(() => {
      stops += 1;
      return new Promise<void>((resolve) => (finish = resolve));
    });
    await runUntilStopped(async () => running, proc);
    proc.emit('uncaughtException', new Error('first'));
    proc.emit('uncaughtException', new Error('second'));
    finish();
    expect(await proc.exitCode).toBe(1);
    expect(stops).toBe(1);
    expect(entries().find((l) => l.msg === 'further error while shutting down')).toMatchObject({ err: { message: 'second' } });
  });

  it('exits 1 with the reason for a fatal error before start-up has finished', async () => {
    const proc = new FakeProcess();
    const starting = runUntilStopped(() => new Promise<never>(() => undefined), proc);
    proc.emit('unhandledRejection', new Error('too early'));
    expect(await proc.exitCode).toBe(1);
    expect(proc.errors.join('')).toContain('imagine-bot failed while starting (unhandledRejection): too early');
    void starting;
  });
});
