/**
 * A test fixture (test/storage/fixtures/*.ts) in a real child process, talking in lines: the task goes in as one JSON
 * argument, the child's stdout lines come out one by one, and the test writes lines to its stdin.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

export interface FixtureProcess {
  readonly process: ChildProcessWithoutNullStreams;
  /** The next stdout line; throws (with the child's stderr) when it ended first. */
  nextLine(): Promise<string>;
  /** Writes `line` to the child's stdin. */
  send(line: string): void;
  /** Resolves with the exit code (or signal) once the child has ended. */
  readonly exited: Promise<number | NodeJS.Signals | null>;
}

/** Starts `fixtures/{name}.ts` with `task`. */
export function startFixture(name: string, task: unknown): FixtureProcess {
  const file = fileURLToPath(new URL(`./fixtures/${name}.ts`, import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', file, JSON.stringify(task)], { cwd: REPO, stdio: 'pipe' });
  const stderr: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  return {
    process: child,
    async nextLine() {
      const next = await lines.next();
      if (next.done === true) throw new Error(`${name} ended early: ${stderr.join('')}`);
      return next.value;
    },
    send: (line) => child.stdin.write(`${line}\n`),
    exited,
  };
}
