/**
 * A tiny request/response protocol over Node's child-process IPC channel: the orchestrator calls named commands
 * of a child (emulator host, bot host) and awaits their results.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

interface Request {
  id: number;
  cmd: string;
  args: unknown;
}
interface Response {
  id: number;
  ok: boolean;
  result?: unknown;
  error?: string;
}

/** A child process running one of the bench/*-host.ts files. */
export class HostProcess {
  readonly child: ChildProcess;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  private constructor(child: ChildProcess) {
    this.child = child;
    child.on('message', (m: Response) => {
      const waiter = this.pending.get(m.id);
      if (!waiter) return;
      this.pending.delete(m.id);
      if (m.ok) waiter.resolve(m.result);
      else waiter.reject(new Error(m.error ?? 'child command failed'));
    });
    child.on('exit', (code) => {
      for (const waiter of this.pending.values()) waiter.reject(new Error(`host process exited (${code}) with a command pending`));
      this.pending.clear();
    });
  }

  /**
   * Forks `file` (relative to bench/) under tsx with extra V8 flags; `plain`: `file` is JavaScript (a path from
   * host-build.ts) run by Node alone, without tsx's loader in the process, as the bot's host is; `env`: added to
   * this process's environment (the bot's allocator: allocator.ts).
   */
  static start(file: string, execArgv: string[] = [], options: { plain?: boolean; env?: Record<string, string> } = {}): HostProcess {
    const path = options.plain ? file : fileURLToPath(new URL(file, import.meta.url));
    const child = fork(path, [], {
      execArgv: [...(options.plain ? [] : ['--import', 'tsx']), ...execArgv],
      serialization: 'advanced',
      ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new HostProcess(child);
  }

  call<T>(cmd: string, args: unknown = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ id, cmd, args } satisfies Request);
    });
  }

  /** Asks the child to exit and waits (kills it after `timeoutMs`). */
  async stop(timeoutMs = 15_000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = once(this.child, 'exit');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    try {
      await this.call('exit').catch(() => undefined);
      await exited;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A command of a child; its argument is whatever {@link HostProcess.call} sent (the orchestrator in this folder), not validated. */
type Handler = (args: never) => unknown;

/** Child side: answers commands with `handlers`; 'exit' runs `onExit` then exits. */
export function serve(handlers: Record<string, Handler>, onExit: () => Promise<void>): void {
  const exit = async () => {
    await onExit().catch((err: unknown) => console.error('bench host: close failed', err));
    process.exit(0);
  };
  process.on('disconnect', () => void exit());
  process.on('message', (m: Request) => {
    if (m.cmd === 'exit') {
      process.send?.({ id: m.id, ok: true } satisfies Response, () => void exit());
      return;
    }
    const handler = handlers[m.cmd];
    Promise.resolve()
      .then(() => {
        if (!handler) throw new Error(`unknown command ${m.cmd}`);
        return (handler as (args: unknown) => unknown)(m.args);
      })
      .then(
        (result) => process.send?.({ id: m.id, ok: true, result } satisfies Response),
        (err: unknown) => process.send?.({ id: m.id, ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) } satisfies Response),
      );
  });
}
