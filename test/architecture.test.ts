/**
 * The import directions of README's "How it is built", enforced. Every import of every file in src (static, `import type`,
 * `export … from`, dynamic `import()` and `import('…')` types, found by TypeScript's own scanner) is resolved, checked
 * against the rules below, and the graph searched for cycles. A failure lists each offending `file → import`.
 *
 * The rules are folder rules (issue 30): each folder of src is a room of one kind (core: vocabulary and pure rules;
 * ports: one file per port; service: use cases and their machinery; the adapters; ops; the shared modules; the entry
 * points), and MAY_IMPORT says which rooms each room may import. No file is an exception to them; the only files named
 * are the owners of a library (sharp, Vega in the charts room, undici in the gateway) and the streaming seam.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Resolved imports per file: keys and file targets are paths from the repository root (`src/core/jobs.ts`), packages stay bare (`undici/types`, `node:fs`). */
type ImportGraph = Record<string, readonly string[]>;

interface Violation {
  from: string;
  to: string;
  rule: string;
}

/** `node:fs/promises`, `fs` → `node:fs`; `@keyv/redis/x` → `@keyv/redis`; `undici/types` → `undici`. Undefined for a file path. */
function packageOf(target: string): string | undefined {
  if (target.startsWith('src/') || target.startsWith('.') || target.startsWith('/')) return undefined;
  if (target.startsWith('node:')) return `node:${target.slice(5).split('/')[0] ?? ''}`;
  const parts = target.split('/');
  const name = target.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? target);
  return BUILTINS.has(name) ? `node:${name}` : name;
}

const BUILTINS = new Set([
  'fs',
  'http',
  'https',
  'http2',
  'net',
  'tls',
  'dgram',
  'crypto',
  'path',
  'stream',
  'url',
  'util',
  'events',
  'os',
  'zlib',
  'buffer',
  'child_process',
  'worker_threads',
]);

function matchesPackage(name: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => (p.endsWith('/*') ? name.startsWith(p.slice(0, -1)) : name === p));
}

/**
 * The rooms of src, by kind. A file belongs to the room of its folder; the files directly in src are the entry points
 * (main.ts, the composition root, and cli.ts) or shared modules (configuration, logging, errors, i18n).
 */
const ROOMS = ['core', 'ports', 'service', 'commands', 'discord', 'gateway', 'storage', 'charts', 'ops', 'shared', 'entry'] as const;
type Room = (typeof ROOMS)[number];

const ENTRY_POINTS = new Set(['src/main.ts', 'src/cli.ts']);

/** The room of a file of src, undefined for anything else (a package, a JSON file's folder outside src). */
function roomOf(file: string): Room | undefined {
  if (!file.startsWith('src/')) return undefined;
  if (ENTRY_POINTS.has(file)) return 'entry';
  const folder = file.slice('src/'.length).split('/');
  if (folder.length === 1 || folder[0] === 'i18n') return 'shared';
  const room = ROOMS.find((r) => r === folder[0]);
  return room;
}

/**
 * Which rooms each room may import (its own always). Dependencies point inward: the adapters (gateway, storage,
 * discord, charts: output; commands: input) and ops see the service's world only through the ports and the core; the ports
 * speak only the core's vocabulary; the core imports nothing of ours. Commands, the input adapter, call the service's
 * use cases and hand their results to the Discord views; only the entry points wire rooms together.
 */
const MAY_IMPORT: Readonly<Record<Room, readonly Room[]>> = {
  core: [],
  ports: ['core'],
  shared: ['core'],
  service: ['core', 'ports', 'shared'],
  gateway: ['core', 'ports', 'shared'],
  storage: ['core', 'ports', 'shared'],
  discord: ['core', 'ports', 'shared'],
  charts: ['core', 'ports', 'shared'],
  ops: ['core', 'ports', 'shared'],
  commands: ['core', 'ports', 'shared', 'service', 'discord'],
  entry: [...ROOMS],
};

/** The packages each room may import, where it is bounded: the core zod alone, the ports none. */
const ONLY_PACKAGES: Partial<Record<Room, readonly string[]>> = { core: ['zod'], ports: [] };

/** The packages (and Node modules) the service never imports: it is the use case, with no Discord, HTTP, store or file I/O of its own. */
const SERVICE_FORBIDDEN_PACKAGES = [
  'discord.js',
  '@discordjs/*',
  'discord-api-types',
  'undici',
  'keyv',
  '@keyv/*',
  'pg',
  'ioredis',
  'redis',
  'sqlite3',
  'node:http',
  'node:https',
  'node:http2',
  'node:net',
  'node:tls',
  'node:dgram',
  'node:fs',
  'prom-client',
];

/** Libraries with one owner: the room (and, inside it, the module) that alone imports them. */
const LIBRARY_OWNERS: readonly { pkg: string; room: Room; module?: string; why: string }[] = [
  // sharp loads libvips and its threads: the idle bot does without it until an image is read (issue 28).
  { pkg: 'sharp', room: 'shared', module: 'src/lazy-sharp.ts', why: 'which loads it on first use' },
  { pkg: 'prom-client', room: 'ops', why: 'the operator’s metrics' },
  // Vega and Vega-Lite draw /usage's charts: loaded on the first chart, so the idle bot does without them (issue 32).
  { pkg: 'vega', room: 'charts', module: 'src/charts/lazy-vega.ts', why: 'which loads it on first use' },
  { pkg: 'vega-lite', room: 'charts', module: 'src/charts/lazy-vega.ts', why: 'which loads it on first use' },
];

/** In the gateway, the HTTP layer alone sends and reads: undici only there (the rest of the gateway goes through it). */
const GATEWAY_HTTP_LAYER = ['src/gateway/http.ts', 'src/gateway/agent.ts'];

/** The one way into src/service/streaming from outside it: the seam the service opens per job. */
const STREAMING_SEAM = 'src/service/streaming/streamed-delivery.ts';

/** The rule (if any) that the import `from → to` breaks; one import breaks at most one rule, the first that applies. */
function ruleBroken(from: string, to: string): string | undefined {
  const source = roomOf(from);
  if (source === undefined) return undefined;
  const pkg = packageOf(to);
  if (pkg !== undefined) {
    const only = ONLY_PACKAGES[source];
    if (only !== undefined && !only.includes(pkg)) return `src/${source} imports ${only.length === 0 ? 'no package' : `only ${only.join(', ')}`} (${pkg})`;
    if (source === 'service' && matchesPackage(pkg, SERVICE_FORBIDDEN_PACKAGES)) return `the service imports no I/O library (${pkg})`;
    const owner = LIBRARY_OWNERS.find((o) => o.pkg === pkg);
    if (owner !== undefined && (source !== owner.room || (owner.module !== undefined && from !== owner.module)))
      return `${pkg} is imported only by ${owner.module ?? `src/${owner.room}`}, ${owner.why}`;
    if (pkg === 'undici' && source === 'gateway' && !GATEWAY_HTTP_LAYER.includes(from))
      return `in the gateway only its HTTP layer (${GATEWAY_HTTP_LAYER.join(', ')}) imports undici`;
    return undefined;
  }
  const target = roomOf(to);
  if (target === undefined) return undefined;
  if (target !== source && source !== 'entry' && !MAY_IMPORT[source].includes(target))
    return `src/${source} imports ${MAY_IMPORT[source].length === 0 ? 'nothing of ours' : `only from ${MAY_IMPORT[source].map((r) => `src/${r}`).join(', ')}`} (not src/${target})`;
  if (to.startsWith('src/service/streaming/') && !from.startsWith('src/service/streaming/') && to !== STREAMING_SEAM)
    return `the streamed delivery is reached only through its seam, ${STREAMING_SEAM}`;
  return undefined;
}

/** Every import that crosses a boundary the wrong way. */
function checkBoundaries(graph: ImportGraph): Violation[] {
  return Object.entries(graph).flatMap(([from, targets]) =>
    targets.flatMap((to) => {
      const rule = ruleBroken(from, to);
      return rule === undefined ? [] : [{ from, to, rule }];
    }),
  );
}

/** Every import cycle among the graph's files (type-only imports count), each as a closed path `a → b → a`. */
function findCycles(graph: ImportGraph): string[][] {
  const files = new Set(Object.keys(graph));
  const next = (f: string) => (graph[f] ?? []).filter((t) => files.has(t));
  // Tarjan's strongly connected components; any component of two or more files, or a file importing itself, holds a cycle.
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string) => {
    indexOf.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, indexOf.get(w) ?? 0));
      }
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || next(v).includes(v)) components.push(component);
    }
  };
  for (const f of [...files].sort()) if (!indexOf.has(f)) visit(f);
  // One concrete cycle per component: the shortest way back to its first file (breadth-first within the component).
  return components.map((component) => {
    const members = new Set(component);
    const start = [...component].sort()[0] ?? '';
    const cameFrom = new Map<string, string>();
    const queue = [start];
    while (queue.length > 0) {
      const v = queue.shift() ?? '';
      for (const w of next(v)) {
        if (!members.has(w)) continue;
        if (w === start) {
          const path = [start];
          for (let u: string | undefined = v; u !== undefined && u !== start; u = cameFrom.get(u)) path.splice(1, 0, u);
          return [...path, start];
        }
        if (!cameFrom.has(w)) {
          cameFrom.set(w, v);
          queue.push(w);
        }
      }
    }
    return [...component, component[0] ?? ''];
  });
}

function listSourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return listSourceFiles(path);
    return /\.(ts|mts|cts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const toRepoPath = (absolute: string) => relative(ROOT, absolute).split(sep).join('/');

/** `./x.js` → `src/…/x.ts` (NodeNext writes the output's extension); bare specifiers stay as they are. */
function resolveSpecifier(fromFile: string, specifier: string, exists: (repoPath: string) => boolean): string {
  if (!specifier.startsWith('.')) return specifier;
  const base = posix.normalize(posix.join(posix.dirname(fromFile), specifier));
  const candidates = [base.replace(/\.(m|c)?js$/, '.$1ts'), base, `${base}.ts`, `${base}/index.ts`];
  return candidates.find(exists) ?? base;
}

/** The import graph of the repository's src folder. */
function readSourceGraph(root = ROOT): ImportGraph {
  const files = listSourceFiles(join(root, 'src')).map(toRepoPath);
  const known = new Set(files);
  const exists = (p: string) => known.has(p) || (p.endsWith('.json') && statSync(join(root, p), { throwIfNoEntry: false }) !== undefined);
  const graph: Record<string, string[]> = {};
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
    graph[file] = [...new Set(importedFiles.map((f) => resolveSpecifier(file, f.fileName, exists)))];
  }
  return graph;
}

const describeViolations = (violations: readonly Violation[]) => violations.map((v) => `${v.from} → ${v.to}  (${v.rule})`);
const describeCycles = (cycles: readonly string[][]) => cycles.map((c) => c.join(' → '));

describe('the import directions of src', () => {
  const graph = readSourceGraph();

  it('reads every file of src and the imports of each, each file in a room', () => {
    expect(Object.keys(graph).length).toBeGreaterThan(50);
    expect(graph['src/main.ts']).toContain('src/service/build-service.ts');
    expect(graph['src/service/build-service.ts']).toContain('src/service/image-service.ts');
    expect(Object.keys(graph).filter((f) => roomOf(f) === undefined)).toEqual([]);
    for (const room of ROOMS)
      expect(
        Object.keys(graph).some((f) => roomOf(f) === room),
        room,
      ).toBe(true);
  });

  it('has no import crossing a boundary the wrong way', () => {
    const violations = describeViolations(checkBoundaries(graph));
    expect(violations, `wrong-way imports:\n${violations.join('\n')}\n`).toEqual([]);
  });

  it('has no import cycle, type-only imports included', () => {
    const cycles = describeCycles(findCycles(graph));
    expect(cycles, `import cycles:\n${cycles.join('\n')}\n`).toEqual([]);
  });

  it('names only modules that exist', () => {
    const files = new Set(Object.keys(graph));
    const named = [...ENTRY_POINTS, ...GATEWAY_HTTP_LAYER, STREAMING_SEAM, ...LIBRARY_OWNERS.flatMap((o) => (o.module === undefined ? [] : [o.module]))];
    expect(named.filter((f) => !files.has(f))).toEqual([]);
  });
});

/**
 * One planted violation per rule: each import alone, in a graph of its own, breaks exactly the rule named. Every room
 * that may not import another has a plant, so dropping or loosening any rule fails here.
 */
const FOLDER_PLANTS: readonly [from: string, to: string][] = ROOMS.flatMap((source) =>
  ROOMS.filter((target) => target !== source && source !== 'entry' && !MAY_IMPORT[source].includes(target)).map((target): [string, string] => [
    sampleFile(source),
    sampleFile(target),
  ]),
);

function sampleFile(room: Room): string {
  if (room === 'entry') return 'src/main.ts';
  if (room === 'shared') return 'src/errors.ts';
  return `src/${room}/x.ts`;
}

const OTHER_PLANTS: readonly [from: string, to: string, rule: string][] = [
  ['src/core/x.ts', 'node:crypto', 'src/core imports only zod (node:crypto)'],
  ['src/core/x.ts', 'sharp', 'src/core imports only zod (sharp)'],
  ['src/ports/x.ts', 'zod', 'src/ports imports no package (zod)'],
  ['src/service/x.ts', 'undici', 'the service imports no I/O library (undici)'],
  ['src/service/x.ts', 'node:fs/promises', 'the service imports no I/O library (node:fs)'],
  ['src/service/x.ts', 'fs', 'the service imports no I/O library (node:fs)'],
  ['src/service/x.ts', '@keyv/redis', 'the service imports no I/O library (@keyv/redis)'],
  ['src/service/x.ts', 'discord.js/typings', 'the service imports no I/O library (discord.js)'],
  ['src/service/mask-check.ts', 'sharp', 'sharp is imported only by src/lazy-sharp.ts, which loads it on first use'],
  ['src/config.ts', 'sharp', 'sharp is imported only by src/lazy-sharp.ts, which loads it on first use'],
  ['src/commands/router.ts', 'prom-client', 'prom-client is imported only by src/ops, the operator’s metrics'],
  ['src/service/usage-chart.ts', 'vega', 'vega is imported only by src/charts/lazy-vega.ts, which loads it on first use'],
  ['src/charts/vega-chart-renderer.ts', 'vega-lite', 'vega-lite is imported only by src/charts/lazy-vega.ts, which loads it on first use'],
  ['src/gateway/json-answer.ts', 'undici', 'in the gateway only its HTTP layer (src/gateway/http.ts, src/gateway/agent.ts) imports undici'],
  [
    'src/commands/x.ts',
    'src/service/streaming/upload-feed.ts',
    'the streamed delivery is reached only through its seam, src/service/streaming/streamed-delivery.ts',
  ],
  [
    'src/service/x.ts',
    'src/service/streaming/answer-buffers.ts',
    'the streamed delivery is reached only through its seam, src/service/streaming/streamed-delivery.ts',
  ],
];

/** Imports every rule allows: the checker must not cry wolf. */
const ALLOWED: readonly [from: string, to: string][] = [
  ['src/core/x.ts', 'zod'],
  ['src/core/x.ts', 'src/core/y.ts'],
  ['src/ports/x.ts', 'src/core/y.ts'],
  ['src/errors.ts', 'src/core/phrase.ts'],
  ['src/errors.ts', 'src/i18n/translate.ts'],
  ['src/service/x.ts', 'src/ports/clock.ts'],
  ['src/service/x.ts', 'src/errors.ts'],
  ['src/service/x.ts', 'node:crypto'],
  ['src/service/x.ts', 'src/service/streaming/streamed-delivery.ts'],
  ['src/service/streaming/x.ts', 'src/service/streaming/upload-feed.ts'],
  ['src/gateway/http.ts', 'undici'],
  ['src/gateway/x.ts', 'src/ports/image-gateway.ts'],
  ['src/storage/x.ts', 'keyv'],
  ['src/discord/x.ts', 'undici'],
  ['src/discord/x.ts', 'discord.js'],
  ['src/commands/x.ts', 'src/service/image-service.ts'],
  ['src/commands/x.ts', 'src/discord/views/quota.ts'],
  ['src/ops/metrics.ts', 'prom-client'],
  ['src/lazy-sharp.ts', 'sharp'],
  ['src/charts/lazy-vega.ts', 'vega'],
  ['src/charts/lazy-vega.ts', 'vega-lite'],
  ['src/charts/x.ts', 'src/lazy-sharp.ts'],
  ['src/charts/x.ts', 'src/ports/chart-renderer.ts'],
  ['src/main.ts', 'src/charts/build-charts.ts'],
  ['src/main.ts', 'src/ops/build-ops.ts'],
  ['src/main.ts', 'src/storage/build-storage.ts'],
  ['src/cli.ts', 'src/main.ts'],
];

describe('the checker itself, on made-up graphs', () => {
  it('fails on a planted import between every two rooms that may not meet', () => {
    // 11 rooms: every pair not allowed by MAY_IMPORT, among them core → service, ports → ports' users, discord → service.
    expect(FOLDER_PLANTS).toContainEqual(['src/charts/x.ts', 'src/service/x.ts']);
    expect(FOLDER_PLANTS).toContainEqual(['src/service/x.ts', 'src/charts/x.ts']);
    expect(FOLDER_PLANTS).toContainEqual(['src/core/x.ts', 'src/service/x.ts']);
    expect(FOLDER_PLANTS).toContainEqual(['src/discord/x.ts', 'src/service/x.ts']);
    expect(FOLDER_PLANTS).toContainEqual(['src/gateway/x.ts', 'src/storage/x.ts']);
    expect(FOLDER_PLANTS).toContainEqual(['src/ops/x.ts', 'src/commands/x.ts']);
    expect(FOLDER_PLANTS).toContainEqual(['src/ports/x.ts', 'src/errors.ts']);
    for (const [from, to] of FOLDER_PLANTS) {
      const found = describeViolations(checkBoundaries({ [from]: [to] }));
      expect(found, `${from} → ${to}`).toHaveLength(1);
      expect(found[0]).toMatch(new RegExp(`^${from} → ${to} {2}\\(src/${roomOf(from) ?? ''} imports `));
    }
  });

  it('states each room rule in its message', () => {
    const rule = (from: string, to: string) => checkBoundaries({ [from]: [to] }).map((v) => v.rule);
    expect(rule('src/core/cost.ts', 'src/ports/clock.ts')).toEqual(['src/core imports nothing of ours (not src/ports)']);
    expect(rule('src/ports/clock.ts', 'src/service/x.ts')).toEqual(['src/ports imports only from src/core (not src/service)']);
    expect(rule('src/discord/render.ts', 'src/service/image-service.ts')).toEqual([
      'src/discord imports only from src/core, src/ports, src/shared (not src/service)',
    ]);
    expect(rule('src/commands/quota.ts', 'src/storage/quota-store.ts')).toEqual([
      'src/commands imports only from src/core, src/ports, src/shared, src/service, src/discord (not src/storage)',
    ]);
  });

  it('fails on each planted package and seam violation, with its rule', () => {
    for (const [from, to, rule] of OTHER_PLANTS) {
      expect(describeViolations(checkBoundaries({ [from]: [to] })), `${from} → ${to}`).toEqual([`${from} → ${to}  (${rule})`]);
    }
  });

  it('passes what the rules allow', () => {
    const graph: ImportGraph = {};
    for (const [from, to] of ALLOWED) graph[from] = [...(graph[from] ?? []), to];
    expect(describeViolations(checkBoundaries(graph))).toEqual([]);
  });

  it('finds the violations of a whole graph, file → import', () => {
    const planted: ImportGraph = {
      'src/core/image-rules.ts': ['src/core/image-request.ts', 'zod', 'src/ports/image-gateway.ts'],
      'src/gateway/params.ts': ['src/core/image-rules.ts', 'src/service/image-service.ts', 'undici'],
      'src/discord/responder.ts': ['src/ports/responder.ts', 'src/gateway/errors.ts', 'discord.js'],
      'src/commands/imagine.ts': ['src/service/image-service.ts', 'src/discord/responder.ts', 'src/storage/quota-store.ts'],
    };
    expect(checkBoundaries(planted).map((v) => `${v.from} → ${v.to}`)).toEqual([
      'src/core/image-rules.ts → src/ports/image-gateway.ts',
      'src/gateway/params.ts → src/service/image-service.ts',
      'src/gateway/params.ts → undici',
      'src/discord/responder.ts → src/gateway/errors.ts',
      'src/commands/imagine.ts → src/storage/quota-store.ts',
    ]);
  });

  const planted: ImportGraph = {
    'src/discord/render.ts': ['src/discord/responder.ts'],
    'src/discord/responder.ts': ['src/discord/render.ts'],
    'src/errors.ts': ['src/errors.ts'],
    'src/gateway/errors.ts': ['src/gateway/classify.ts'],
    'src/gateway/classify.ts': ['src/gateway/errors.ts'],
    'src/core/image-rules.ts': ['src/core/image-request.ts'],
    'src/core/image-request.ts': ['zod'],
  };

  it('finds every cycle, including a file importing itself, as a closed path', () => {
    const cycles = findCycles(planted).map((c) => c.join(' → '));
    expect(cycles.sort()).toEqual(
      [
        'src/discord/render.ts → src/discord/responder.ts → src/discord/render.ts',
        'src/errors.ts → src/errors.ts',
        'src/gateway/classify.ts → src/gateway/errors.ts → src/gateway/classify.ts',
      ].sort(),
    );
  });

  it('finds a longer cycle and nothing in an acyclic graph', () => {
    const ring: ImportGraph = { 'src/a.ts': ['src/b.ts'], 'src/b.ts': ['src/c.ts', 'src/d.ts'], 'src/c.ts': ['src/a.ts'], 'src/d.ts': [] };
    expect(findCycles(ring)).toEqual([['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/a.ts']]);
    expect(findCycles({ 'src/a.ts': ['src/b.ts'], 'src/b.ts': ['src/c.ts'], 'src/c.ts': [] })).toEqual([]);
  });

  it('resolves what TypeScript sees: .js to .ts, import type, export from, dynamic import and import() types', () => {
    const code = [
      "import type { A } from './a.js';",
      "export { b } from '../service/b.js';",
      "const c = await import('./c.js');",
      "type D = import('undici').Dispatcher;",
      "// import { e } from './commented-out.js';",
    ].join('\n');
    const known = new Set(['src/discord/a.ts', 'src/service/b.ts', 'src/discord/c.ts']);
    const specifiers = ts.preProcessFile(code, true, true).importedFiles.map((f) => resolveSpecifier('src/discord/x.ts', f.fileName, (p) => known.has(p)));
    expect(specifiers).toEqual(['src/discord/a.ts', 'src/service/b.ts', 'src/discord/c.ts', 'undici']);
  });
});
