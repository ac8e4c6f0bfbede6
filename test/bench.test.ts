/**
 * Keeps `npm run bench` working: runs its --quick smoke mode and checks it exits 0 and writes a JSON result with
 * every section. No timing assertions: the figures belong to the benchmark, not to the test suite.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = new URL('..', import.meta.url).pathname;

/** The parts of a quick results file this test reads; parsed JSON, so nothing in it is checked until asserted. */
interface BenchComparison {
  ours: Record<string, unknown>;
  baseline: Record<string, unknown>;
  ratio: unknown;
}
interface BenchResults {
  mode: unknown;
  burst: BenchComparison;
  overhead: BenchComparison & { reference: Record<string, unknown> };
  memory: BenchComparison;
  quota: { backends: Record<string, Record<string, unknown> | undefined>; acrossProcesses: Record<string, Record<string, unknown> | undefined> };
  records: { params: { members: number }; usageWrites: Record<string, Record<string, unknown> | undefined>; postgresSlots: Record<string, unknown> };
}

describe('npm run bench -- --quick', () => {
  it('exits 0 and writes a JSON result with every section', () => {
    const dir = mkdtempSync(join(tmpdir(), 'imagine-bench-test-'));
    const env = { ...process.env };
    delete env['REDIS_URL'];
    delete env['POSTGRES_URL'];
    const result = spawnSync('npm', ['run', 'bench', '--', '--quick', `--results-dir=${dir}`], { cwd: repo, env, encoding: 'utf8', timeout: 600_000 });
    expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
    const files = readdirSync(dir).filter((f) => f.startsWith('quick-') && f.endsWith('.json'));
    expect(files).toHaveLength(1);
    const json = JSON.parse(readFileSync(join(dir, files[0]!), 'utf8')) as BenchResults;
    expect(json.mode).toBe('quick');
    for (const section of ['burst', 'overhead', 'memory', 'quota', 'describeFlood', 'svg', 'records', 'startup', 'soak', 'baseline', 'targets', 'machine'])
      expect(json, section).toHaveProperty(section);
    for (const section of ['burst', 'overhead', 'memory'] as const) {
      expect(Object.keys(json[section].ours).length).toBeGreaterThan(0);
      expect(Object.keys(json[section].baseline).length).toBeGreaterThan(0);
      expect(json[section].ratio).toBeTypeOf('object');
      expect(json[section].ours['completed'] ?? json[section].ours['oneImageFailed']).not.toBeUndefined();
    }
    expect(json.overhead.reference['decodeAndUploadP50']).toBeTypeOf('number');
    // A skipped figure says why ({ skipped: reason }): the message shows it.
    for (const name of ['sqlite', 'memory'])
      expect(json.quota.backends[name]!['reservationsPerSecond'], JSON.stringify(json.quota.backends[name])).toBeTypeOf('number');
    const sqliteProcesses = json.quota.acrossProcesses['sqlite']!;
    expect(sqliteProcesses['reservationsPerSecond'], JSON.stringify(sqliteProcesses)).toBeTypeOf('number');
    expect(sqliteProcesses['accepted']).toBe(sqliteProcesses['expectedAccepted']);
    expect(sqliteProcesses['recordedReserved']).toBe(sqliteProcesses['expectedAccepted']);
    // Records (issue 28): SQLite's usage writes at both sizes; without the URLs, Redis and PostgreSQL say why not.
    const sqliteWrites = json.records.usageWrites['sqlite']!;
    expect(sqliteWrites[`writeCpuAt${json.records.params.members}Ms`], JSON.stringify(sqliteWrites)).toBeTypeOf('number');
    expect(sqliteWrites['writeP50At5Ms']).toBeTypeOf('number');
    expect(json.records.usageWrites['postgres']).toEqual({ skipped: 'POSTGRES_URL not set' });
    expect(json.records.postgresSlots).toEqual({ skipped: 'POSTGRES_URL not set' });
  }, 600_000);
});
