/**
 * Runs reservers in real child processes (fixtures/reserver.ts), all started together: each opens the store, says
 * `ready`, and only once every one is ready do they all get `go`.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ReserverResult, ReserverTask } from './fixtures/reserver.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/reserver.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../..', import.meta.url));

interface Child {
  process: ChildProcessWithoutNullStreams;
  lines: AsyncIterator<string>;
  stderr: string[];
}

function start(task: ReserverTask): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, JSON.stringify(task)], { cwd: REPO, stdio: 'pipe' });
  const stderr: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  return { process: child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator](), stderr };
}

async function nextLine(child: Child): Promise<string> {
  const next = await child.lines.next();
  if (next.done === true) throw new Error(`reserver ended early: ${child.stderr.join('')}`);
  return next.value;
}

/** Starts one reserver per task, releases them together, and returns what each accepted. */
export async function runReservers(tasks: readonly ReserverTask[]): Promise<ReserverResult[]> {
  const children = tasks.map(start);
  try {
    for (const child of children) expectLine(await nextLine(child), 'ready', child);
    for (const child of children) child.process.stdin.end('go\n');
    const results = await Promise.all(children.map(async (child) => JSON.parse(await nextLine(child)) as ReserverResult));
    await Promise.all(children.map((child) => exited(child)));
    return results;
  } finally {
    for (const child of children) if (child.process.exitCode === null) child.process.kill();
  }
}

function expectLine(line: string, expected: string, child: Child): void {
  if (line !== expected) throw new Error(`reserver said "${line}" instead of "${expected}": ${child.stderr.join('')}`);
}

function exited(child: Child): Promise<void> {
  const check = (code: number | null) => (code === 0 ? undefined : new Error(`reserver exited with ${code}: ${child.stderr.join('')}`));
  if (child.process.exitCode !== null) {
    const failure = check(child.process.exitCode);
    return failure ? Promise.reject(failure) : Promise.resolve();
  }
  return new Promise((resolve, reject) => {
    child.process.once('exit', (code) => {
      const failure = check(code);
      if (failure) reject(failure);
      else resolve();
    });
  });
}
