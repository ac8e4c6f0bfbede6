/**
 * Bots' queues in several real processes on one store: with MAX_CONCURRENT_JOBS=2, never more than 2 jobs run at
 * once across all of them, and every job runs. The test sees each job's start and end (a job ends only after the
 * test has heard so, and starts only once it holds its slot), so the overlap it counts is never above the real one.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type FixtureProcess, startFixture } from './fixture-process.js';
import type { QueueRunnerTask } from './fixtures/queue-runner.js';

const REDIS_URL = process.env['REDIS_URL'];
const POSTGRES_URL = process.env['POSTGRES_URL'];

const PROCESSES = 3;
const JOBS_EACH = 5;
/** Three processes start on two cores (tsx, the drivers) before any job runs. */
const TIMEOUT_MS = 60_000;
const CONCURRENCY = 2;

/** What the test knows of one process: its jobs running, and those it said wait in its queue. */
interface Runner {
  process: FixtureProcess;
  running: Set<string>;
  waiting: Set<string>;
  unstarted: number;
}

/**
 * Runs the processes and drives their jobs. While CONCURRENCY jobs run, the oldest is told to finish, but only once
 * every process has either a job running or one waiting in its queue: so each has tried to start a job before any
 * slot frees up, and processes that ignored the cluster would be caught running more. Once all jobs have started,
 * every running one is told to finish.
 */
async function runCluster(url: string): Promise<{ started: number; maxRunning: number }> {
  const namespace = `imagine-bot-test-${randomUUID()}`;
  const task = (k: number): QueueRunnerTask => ({
    url,
    namespace,
    concurrency: CONCURRENCY,
    perMemberRunning: CONCURRENCY,
    jobs: JOBS_EACH,
    memberId: `member-${k}`,
    prefix: `p${k}`,
    holdMs: 5_000,
  });
  const runners: Runner[] = Array.from({ length: PROCESSES }, (_, k) => ({
    process: startFixture('queue-runner', task(k)),
    running: new Set(),
    waiting: new Set(),
    unstarted: JOBS_EACH,
  }));
  const running = new Map<string, Runner>();
  const finishing = new Set<string>();
  let started = 0;
  let maxRunning = 0;
  const finishSome = () => {
    const allTried = runners.every((r) => r.unstarted === 0 || r.running.size > 0 || r.waiting.size > 0);
    const candidates = [...running.keys()].filter((id) => !finishing.has(id));
    const chosen = started === PROCESSES * JOBS_EACH ? candidates : running.size >= CONCURRENCY && allTried ? candidates.slice(0, 1) : [];
    for (const id of chosen) {
      finishing.add(id);
      running.get(id)?.process.send(`finish ${id}`);
    }
  };
  const follow = async (runner: Runner) => {
    for (let line = await runner.process.nextLine(); line !== 'done'; line = await runner.process.nextLine()) {
      const [kind, id = ''] = line.split(' ');
      if (kind === 'wait') runner.waiting.add(id);
      if (kind === 'start') {
        runner.waiting.delete(id);
        runner.running.add(id);
        runner.unstarted -= 1;
        running.set(id, runner);
        started += 1;
        maxRunning = Math.max(maxRunning, running.size);
      } else if (kind === 'end') {
        runner.running.delete(id);
        running.delete(id);
        finishing.delete(id);
        runner.process.send(`ack ${id}`);
      }
      finishSome();
    }
  };
  try {
    for (const runner of runners) expect(await runner.process.nextLine()).toBe('ready');
    for (const runner of runners) runner.process.send('go');
    await Promise.all(runners.map(follow));
    return { started, maxRunning };
  } finally {
    for (const runner of runners) runner.process.process.kill('SIGKILL');
  }
}

describe.each([
  ['Redis', REDIS_URL],
  ['PostgreSQL', POSTGRES_URL],
])('%s shared by several bot processes', (name, url) => {
  it.skipIf(url === undefined)(
    url === undefined
      ? `skipped because ${name === 'Redis' ? 'REDIS_URL' : 'POSTGRES_URL'} is not set`
      : 'runs at most MAX_CONCURRENT_JOBS jobs at once across them all, and every job',
    async () => {
      const { started, maxRunning } = await runCluster(url ?? '');
      expect(started).toBe(PROCESSES * JOBS_EACH);
      expect(maxRunning).toBe(CONCURRENCY);
    },
    TIMEOUT_MS,
  );
});
