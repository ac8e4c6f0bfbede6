/**
 * The bench's outputs: a terminal table, a JSON result in bench/results/, and docs/benchmarks.md (full runs).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { allocatorName } from './allocator.js';
import type { Figures } from './scenarios/common.js';
import type { BurstResult } from './scenarios/burst.js';
import type { MemoryResult } from './scenarios/memory.js';
import type { OverheadResult } from './scenarios/overhead.js';
import type { HostileResult } from './scenarios/hostile.js';
import type { DescribeFloodResult } from './scenarios/describe-flood.js';
import type { QuotaResult } from './scenarios/quota.js';
import type { SoakResult } from './scenarios/soak.js';
import type { StartupResult } from './scenarios/startup.js';
import type { SvgResult } from './scenarios/svg.js';
import type { RecordsResult } from './scenarios/records.js';

export interface Machine {
  nproc: number;
  cpu: string;
  memTotalGiB: number;
  memFreeGiB: number;
  freeH: string;
  node: string;
  platform: string;
  loadAvgAtStart: number[];
  /** The bots' memory allocator (allocator.ts). */
  allocator: string;
}

export interface Target {
  name: string;
  value: number | null;
  limit: string;
  met: boolean;
}

export interface BenchResult {
  mode: 'quick' | 'full';
  startedAt: string;
  durationSeconds: number;
  machine: Machine;
  burst?: BurstResult | undefined;
  overhead?: OverheadResult | undefined;
  memory?: MemoryResult | undefined;
  quota?: QuotaResult | undefined;
  hostile?: HostileResult | undefined;
  describeFlood?: DescribeFloodResult | undefined;
  svg?: SvgResult | undefined;
  records?: RecordsResult | undefined;
  startup?: StartupResult | undefined;
  soak?: SoakResult | undefined;
  /** The baseline's figures per section (also inside each section, next to ours and the ratio). */
  baseline: Record<string, Figures>;
  targets: Target[];
}

export function machine(): Machine {
  let freeH = '';
  try {
    freeH = execFileSync('free', ['-h'], { encoding: 'utf8' }).trim();
  } catch {
    // Not available: memTotal/memFree say enough.
  }
  return {
    nproc: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    memTotalGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    memFreeGiB: Math.round((freemem() / 2 ** 30) * 10) / 10,
    freeH,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAvgAtStart: loadavg().map((x) => Math.round(x * 100) / 100),
    allocator: allocatorName(),
  };
}

/**
 * Worse than the baseline by more than 10 % and by more than 5 (ms or MB) is "worse": below that is run-to-run
 * noise on a shared 2-core machine (scheduling jitter alone moves a 3 ms acknowledgement by a few ms).
 */
const NOISE = 1.1;
const NOISE_FLOOR = 5;

/** Evaluates the targets against the figures. */
export function evaluateTargets(r: Omit<BenchResult, 'targets'>): Target[] {
  const t: Target[] = [];
  const add = (name: string, value: number | null | undefined, limit: string, ok: (v: number) => boolean) =>
    t.push({ name, value: value ?? null, limit, met: value != null && ok(value) });
  if (r.burst) {
    add('burst: ack p99 (ms)', r.burst.ours['ackP99'], '≤ 50', (v) => v <= 50);
    add('burst: acks over 3 s', r.burst.ours['acksOver3s'], '= 0', (v) => v === 0);
    add('burst: end-to-end p50 ratio to baseline', r.burst.ratio['endToEndP50'], '≤ 0.5', (v) => v <= 0.5);
  }
  if (r.overhead) {
    const ref = r.overhead.reference['decodeAndUploadP50'];
    add('overhead p50, one 1024x1024 PNG (ms)', r.overhead.ours['oneImageP50'], '≤ 30', (v) => v <= 30);
    add(
      'overhead p50, four 1536x1024 PNGs (ms)',
      r.overhead.ours['fourImagesP50'],
      `≤ 2 × decode+upload once = ${ref == null ? '?' : Math.round(2 * ref)}`,
      (v) => ref != null && v <= 2 * ref,
    );
    add('four-image overhead ratio to baseline', r.overhead.ratio['fourImagesP50'], '< 0.8 (clearly better)', (v) => v < 0.8);
  }
  if (r.memory) {
    add('peak RSS, jobs in flight (MB)', r.memory.ours['peakRssMB'], '≤ 250', (v) => v <= 250);
    add('peak RSS ratio to baseline, same run', r.memory.ratio['peakRssMB'], '≤ 0.1', (v) => v <= 0.1);
    add('event-loop delay p99 (ms)', r.memory.ours['eventLoopP99Ms'], '≤ 50', (v) => v <= 50);
  }
  if (r.quota) {
    const sqlite = r.quota.backends['sqlite'];
    add('quota reservations/s on SQLite', sqlite && 'reservationsPerSecond' in sqlite ? sqlite['reservationsPerSecond'] : null, '≥ 2000', (v) => v >= 2000);
    for (const [name, f] of Object.entries(r.quota.acrossProcesses)) {
      if ('skipped' in f) continue;
      const processes = r.quota.params.processes.processes;
      add(`quota reservations/s across ${processes} processes on ${name}`, f['reservationsPerSecond'], '≥ 2000', (v) => v >= 2000);
      const exact = f['accepted'] === f['expectedAccepted'] && f['recordedReserved'] === f['expectedAccepted'] && f['errors'] === 0;
      t.push({
        name: `quota across ${processes} processes on ${name}: accepted = recorded = limits`,
        value: f['accepted'] ?? null,
        limit: `= ${fmt(f['expectedAccepted'])}`,
        met: exact,
      });
    }
  }
  if (r.hostile) {
    const h = r.hostile.ours;
    // Released image Buffers are returned at the next collection (V8 collects per 64 MB of new external memory),
    // so one answer's worth may still be resident beside the budget.
    const ceiling = (h['budgetMB'] ?? 0) + 64;
    add('hostile: peak RSS over idle within the budget + one answer awaiting collection (MB)', h['peakOverIdleMB'], `≤ ${ceiling}`, (v) => v <= ceiling);
    add('hostile: peak RSS within a 512 MB container (MB)', h['peakRssMB'], '≤ 512', (v) => v <= 512);
    add('hostile: every request settled', h['unsettled'], '= 0', (v) => v === 0);
  }
  if (r.describeFlood) {
    const f = r.describeFlood.ours;
    add('describe-flood: edit end-to-end p50 with the flood / without it', f['editFloodedRatio'], '≤ 1.5', (v) => v <= 1.5);
    add('describe-flood: peak RSS over idle within the default budget + one answer (MB)', f['peakOverIdleMB'], '≤ 256', (v) => v <= 256);
    add('describe-flood: peak RSS within a 512 MB container (MB)', f['peakRssMB'], '≤ 512', (v) => v <= 512);
    add('describe-flood: every edit delivered', f['editsUndelivered'], '= 0', (v) => v === 0);
    add('describe-flood: every describe answered or refused', f['describesUnsettled'], '= 0', (v) => v === 0);
  }
  if (r.svg) {
    const s = r.svg.ours;
    add('svg: slowest dns.lookup while hostile SVGs render (ms)', s['dnsMaxMs'], '≤ 100', (v) => v <= 100);
    // A render holds at most its pixels twice (six times with filters) at 2048 pixels on the long side: 32 MiB, and
    // the answer and rendering beside it; the render itself runs in a child process, counted apart.
    add('svg: peak RSS over idle of the bot (MB)', s['peakOverIdleMB'], '≤ 64', (v) => v <= 64);
    add('svg: peak RSS of the render children (MB)', s['peakRenderChildrenRssMB'], '≤ 256', (v) => v <= 256);
    add("svg: other members' jobs delivered", s['othersDelivered'], `= ${r.svg.params.others}`, (v) => v === r.svg?.params.others);
    add('svg: every request settled', s['unsettled'], '= 0', (v) => v === 0);
  }
  if (r.records) {
    const m = r.records.params.members;
    for (const [name, f] of Object.entries(r.records.usageWrites)) {
      if ('skipped' in f) continue;
      add(`records: usage write CPU at ${m} members on ${name} (ms)`, f[`writeCpuAt${m}Ms`], '≤ 1', (v) => v <= 1);
      const small = f['writeP50At5Ms'];
      const large = f[`writeP50At${m}Ms`];
      const growth = small == null || large == null ? null : Math.round((large - small) * 1000) / 1000;
      add(`records: usage write p50 at ${m} members − at 5 on ${name} (ms)`, growth, '≤ 1 (costs the same)', (v) => v <= 1);
    }
    const slots = r.records.postgresSlots;
    if (!('skipped' in slots)) {
      add('records: PostgreSQL slot statements/s, 32 held + 32 waiting', slots['statementsPerSecondWaiting'], '≤ 200', (v) => v <= 200);
      add('records: PostgreSQL slot statements/s, 32 + 32 with a release every 100 ms', slots['statementsPerSecondWithChurn'], '≤ 200', (v) => v <= 200);
    }
  }
  if (r.startup) {
    add('startup: idle RSS of the compiled bot after READY, median (MB)', r.startup.ours['idleRssMedianMB'], '≤ 120', (v) => v <= 120);
    t.push({
      name: 'startup: time from start to READY, median (ms)',
      value: r.startup.ours['readyMedianMs'] ?? null,
      limit: 'recorded',
      met: r.startup.ours['readyMedianMs'] != null,
    });
  }
  if (r.soak) {
    const o = r.soak.ours;
    add('soak: RSS after the last tenth over that after the first (%)', o['rssGrowthPercent'], '≤ 10', (v) => v <= 10);
    add('soak: live heap after a forced collection, last tenth over first (%)', o['heapGrowthPercent'], '≤ 5', (v) => v <= 5);
    add('soak: growth of libuv handles, last tenth over first', o['handlesGrowth'], '≤ 0', (v) => v <= 0);
    add('soak: growth of listeners, last tenth over first', o['listenersGrowth'], '≤ 0', (v) => v <= 0);
    add('soak: event-loop delay p99 (ms)', o['eventLoopP99Ms'], '≤ 50', (v) => v <= 50);
    add('soak: every job settled', o['unsettled'], '= 0', (v) => v === 0);
  }
  // No worse than the baseline on any figure (lower is better for all compared figures except `completed`).
  for (const [section, c] of [
    ['burst', r.burst],
    ['overhead', r.overhead],
    ['memory', r.memory],
  ] as const) {
    if (!c) continue;
    const worse = Object.keys(c.ours).filter((k) => {
      const a = c.ours[k];
      const b = c.baseline[k];
      if (a == null || b == null) return false;
      if (k === 'completed') return a < b;
      if (k.endsWith('Failed') || k === 'acksOver3s') return a > b;
      if (k === 'idleRssMB') return false; // the resident size before any load: module weight, not load behaviour
      return a > Math.max(b * NOISE, b + NOISE_FLOOR);
    });
    t.push({
      name: `${section}: no figure worse than baseline (>10% and >5)`,
      value: worse.length,
      limit: worse.length ? `worse: ${worse.join(', ')}` : 'none worse',
      met: worse.length === 0,
    });
  }
  return t;
}

const fmt = (v: number | null | undefined) => (v == null ? '–' : String(v));

function comparedRows(c: { ours: Figures; baseline: Figures; ratio: Figures }): string[][] {
  return Object.keys(c.ours).map((k) => [k, fmt(c.ours[k]), fmt(c.baseline[k]), fmt(c.ratio[k])]);
}

/** Markdown-ish tables of every section (the terminal shows the same text). */
export function tables(r: BenchResult): string {
  const out: string[] = [];
  const table = (title: string, head: string[], rows: string[][]) => {
    out.push(`### ${title}`, '', `| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`), '');
  };
  const head = ['figure', 'ours', 'baseline', 'ours/baseline'];
  if (r.burst)
    table(
      `Burst: ${r.burst.params.count} /imagine from ${r.burst.params.members} members in ${r.burst.params.spreadMs / 1000} s, SQLite, gateway delay ${r.burst.params.delayMs / 1000} s (ms)`,
      head,
      comparedRows(r.burst),
    );
  if (r.overhead) {
    const ref = r.overhead.reference;
    table(
      `Overhead beyond the gateway delay L = ${r.overhead.params.delayMs} ms (ms, ${r.overhead.params.oneImage} × one 1024x1024, ${r.overhead.params.fourImages} × four 1536x1024, one at a time)`,
      head,
      [
        ...comparedRows(r.overhead),
        ['reference: decode + upload four images once (p50)', fmt(ref['decodeAndUploadP50']), '', ''],
        ['reference: of which base64 decode (p50)', fmt(ref['decodeP50']), '', ''],
        ['reference: gateway answer transfer + JSON parse beyond L (p50)', fmt(ref['gatewayTransferAndParseP50']), '', ''],
        ['reference: the same for one 1024x1024 image (p50)', fmt(ref['gatewayTransferAndParseOneImageP50']), '', ''],
        ['four PNGs, MB', fmt(ref['fourImagesMegabytes']), '', ''],
      ],
    );
  }
  if (r.memory)
    table(
      `Memory: ${r.memory.params.jobs} jobs in flight, four 1536x1024 PNGs each, gateway delay ${r.memory.params.delayMs / 1000} s`,
      head,
      comparedRows(r.memory),
    );
  if (r.quota) {
    const rows = Object.entries(r.quota.backends).map(([name, f]) =>
      'skipped' in f
        ? [name, '–', '–', '–', `skipped: ${String(f.skipped)}`]
        : [name, fmt(f['reservationsPerSecond']), fmt(f['latencyP50Ms']), fmt(f['latencyP99Ms']), fmt(f['errors'])],
    );
    table(
      `Quota store: reserve(), ${r.quota.params.concurrency} in flight for ${r.quota.params.durationMs / 1000} s, ${r.quota.params.members} members (no baseline: it keeps no quota)`,
      ['backend', 'reservations/s', 'p50 ms', 'p99 ms', 'errors'],
      rows,
    );
    const p = r.quota.params.processes;
    table(
      `Quota ledger across processes: ${p.processes} processes × ${p.reservations} reserve(), ${p.concurrency} in flight each, ${p.members} members with a limit of ${p.limit}`,
      ['backend', 'reservations/s', 'p50 ms', 'p99 ms', 'accepted', 'recorded', 'expected', 'errors'],
      Object.entries(r.quota.acrossProcesses).map(([name, f]) =>
        'skipped' in f
          ? [name, '–', '–', '–', '–', '–', '–', `skipped: ${String(f.skipped)}`]
          : [
              name,
              fmt(f['reservationsPerSecond']),
              fmt(f['latencyP50Ms']),
              fmt(f['latencyP99Ms']),
              fmt(f['accepted']),
              fmt(f['recordedReserved']),
              fmt(f['expectedAccepted']),
              fmt(f['errors']),
            ],
      ),
    );
  }
  if (r.hostile) {
    const p = r.hostile.params;
    const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;
    table(
      `Hostile: ${p.members} members at once, each: Edit image on ${p.refusedRefs} × ${mb(p.refBytes)} and on ${p.acceptedRefs} × ${mb(p.refBytes)} (CDN at ${mb(p.cdnBytesPerSecond)}/s), and /imagine; every answer a ${mb(p.linkBytes)} url item; budget ${Math.round(p.budgetBytes / 2 ** 20)} MiB (ours only)`,
      ['figure', 'ours'],
      Object.entries(r.hostile.ours).map(([k, v]) => [k, fmt(v)]),
    );
  }
  if (r.describeFlood) {
    const p = r.describeFlood.params;
    table(
      `Describe flood: ${p.floodMembers} members describing a ${p.imageWidth}x${p.imageHeight} PNG (bursts of ${p.burst}, vision model ${p.visionDelayMs / 1000} s) while another member runs ${p.edits} edits (gateway delay ${p.editDelayMs / 1000} s), ours only`,
      ['figure', 'ours'],
      Object.entries(r.describeFlood.ours).map(([k, v]) => [k, fmt(v)]),
    );
  }
  if (r.svg) {
    const p = r.svg.params;
    table(
      `SVG: ${p.hostile} members at once get hostile SVG answers, then ${p.others} members ask for PNGs; SVG_RENDER_TIMEOUT_SECONDS=${p.timeoutSeconds} (ours only)`,
      ['figure', 'ours'],
      Object.entries(r.svg.ours).map(([k, v]) => [k, fmt(v)]),
    );
  }
  if (r.records) {
    const p = r.records.params;
    const m = p.members;
    table(
      `Records: usage-total writes one at a time, ${p.writes} at 5 members and ${p.writes} at ${m} (half refusals), ms (ours only)`,
      ['backend', 'p50 at 5', 'p99 at 5', 'CPU at 5', `p50 at ${m}`, `p99 at ${m}`, `CPU at ${m}`],
      Object.entries(r.records.usageWrites).map(([name, f]) =>
        'skipped' in f
          ? [name, '–', '–', '–', '–', '–', `skipped: ${String(f.skipped)}`]
          : [name, ...['writeP50At5Ms', 'writeP99At5Ms', 'writeCpuAt5Ms', `writeP50At${m}Ms`, `writeP99At${m}Ms`, `writeCpuAt${m}Ms`].map((k) => fmt(f[k]))],
      ),
    );
    const slots = r.records.postgresSlots;
    table(
      `PostgreSQL job slots: ${p.slots.held} held + ${p.slots.waiting} waiting, MAX_CONCURRENT_JOBS=${p.slots.held}, ${p.slots.durationMs / 1000} s each phase`,
      ['figure', 'value'],
      'skipped' in slots ? [['skipped', String(slots.skipped)]] : Object.entries(slots).map(([k, v]) => [k, fmt(v)]),
    );
  }
  if (r.startup) {
    const p = r.startup.params;
    table(
      `Start-up: the compiled bot (node dist/cli.js) started ${p.starts} times, idle RSS ${p.idleMs / 1000} s after 'bot ready' (ours only)`,
      ['figure', 'ours'],
      Object.entries(r.startup.ours).map(([k, v]) => [k, fmt(v)]),
    );
  }
  if (r.soak) {
    const p = r.soak.params;
    table(
      `Soak: ${p.jobs} mixed jobs through one process, ${p.concurrency} at a time from ${p.members} members, ${p.gatewayFaultsPerRound} gateway failures and refusals per tenth (ours only)`,
      ['figure', 'ours'],
      Object.entries(r.soak.ours).map(([k, v]) => [k, fmt(v)]),
    );
    table(
      'Soak: the bot after each tenth (forced full collection first)',
      ['tenth', 'RSS MB', 'live heap MB', 'of it compiled code MB', 'handles', 'handles at once', 'listeners', 'delivered', 'refused', 'unsettled'],
      r.soak.tenths.map((t, i) => [
        String(i + 1),
        fmt(t.rssMB),
        fmt(t.heapMB),
        fmt(t.codeMB),
        String(t.handles),
        String(t.handlesAtOnce),
        String(t.listeners),
        String(t.delivered),
        String(t.refused),
        String(t.unsettled),
      ]),
    );
  }
  table(
    'Targets',
    ['target', 'value', 'limit', 'met'],
    r.targets.map((x) => [x.name, fmt(x.value), x.limit, x.met ? 'yes' : '**NO**']),
  );
  return out.join('\n');
}

/** Writes `<dir>/<mode>-<timestamp>.json` and `<dir>/latest-<mode>.json`; returns the first path. */
export function writeJson(r: BenchResult, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const stamp = r.startedAt.replace(/[:.]/g, '-');
  const path = join(dir, `${r.mode}-${stamp}.json`);
  const text = `${JSON.stringify(r, null, 2)}\n`;
  writeFileSync(path, text);
  writeFileSync(join(dir, `latest-${r.mode}.json`), text);
  return path;
}

const NOTES_MARKER = '<!-- notes: everything below this line is kept when the bench rewrites this file -->';

/** Rewrites docs/benchmarks.md with the latest figures, keeping the hand-written notes below the marker. */
export function writeDocs(r: BenchResult, path: string, method: string): void {
  const kept = existsSync(path) ? (readFileSync(path, 'utf8').split(NOTES_MARKER)[1] ?? '\n') : '\n';
  const m = r.machine;
  const text = [
    '# Benchmarks',
    '',
    '`npm run bench` measures what the bot adds on top of the image gateway, against the emulators, and the same load',
    'through a baseline bot (the first thing a developer would write). `npm run bench -- --quick` is a smoke run;',
    '`--only=burst,overhead,memory,quota,hostile,describe-flood,svg,records,startup,soak` runs some scenarios. Figures are written to `bench/results/*.json`;',
    'this file is rewritten by every full run (the notes at the end are kept).',
    '',
    `## Latest figures (${r.startedAt}, ${r.mode} run, ${r.durationSeconds} s)`,
    '',
    `Machine: ${m.nproc} cores (${m.cpu}), ${m.memTotalGiB} GiB RAM, Node ${m.node}, ${m.platform}; load average at start ${m.loadAvgAtStart.join(' / ')}; bots' allocator: ${m.allocator}.`,
    '',
    '```',
    `$ nproc\n${m.nproc}\n$ free -h\n${m.freeH}\n$ node -v\n${m.node}`,
    '```',
    '',
    tables(r),
    '## Method',
    '',
    method,
    '',
    NOTES_MARKER,
  ].join('\n');
  writeFileSync(path, text + kept);
}
