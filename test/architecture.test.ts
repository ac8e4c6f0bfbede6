/**
 * The import directions of README's "How it is built", enforced. Every import of every file in src (static, `import type`,
 * `export … from`, dynamic `import()` and `import('…')` types, found by TypeScript's own scanner) is resolved, checked
 * against the rules below, and the graph searched for cycles. A failure lists each offending `file → import`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

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

/** The adapters: the service imports none of them. */
const ADAPTER_FOLDERS = ['src/commands/', 'src/discord/', 'src/gateway/', 'src/storage/'];

/** What src/commands may import from src/discord (Discord output); everything else there is the output adapter's own. */
const COMMANDS_MAY_IMPORT_FROM_DISCORD: Record<string, string> = {
  'src/discord/responder.ts': 'the Responder factory',
  'src/discord/text.ts': 'shortenForDiscord and inertText, for the texts a command shows itself (model list, modal title, history)',
  'src/discord/custom-ids.ts': 'the custom-id families: the ids the views render are the ones the router parses for the handlers',
  'src/discord/result-card.ts': 'shownCard: /show posts a result again as the card it was',
  'src/discord/message-images.ts': 'the images a message shows, wherever Discord puts them (galleries too: discord-api-docs#8277)',
  'src/discord/deferred-reply.ts': 'DeferredReply: /show posts its card under the reply as the results are (discord-api-docs#7529)',
  'src/discord/file-names.ts': "spoilerName: /show names the files it posts again by the target channel's spoiler setting",
  'src/discord/pending-deletes.ts': 'the type of the Delete clicks kept for their confirmation (the composition root makes them)',
};

/**
 * What src/gateway and src/storage may import from src/service: the ports, and pure helpers (no state, no I/O, no
 * sharp). These import nothing but zod and each other, so an adapter never pulls the service's machinery in.
 */
const ADAPTERS_MAY_IMPORT_FROM_SERVICE: Record<string, string> = {
  'src/service/ports.ts': 'the ports the adapters implement',
  'src/core/image-request.ts': 'the request schemas, value lists and wire names (the gateway names its parameters with them)',
  'src/core/image-rules.ts': 'size parsing and sniffImageFormat (the size recovery and decoding)',
  'src/core/model-profiles.ts': 'what each model accepts (the gateway sends only that)',
  'src/core/cost.ts': "a model's prices (part of its profile)",
  'src/core/periods.ts': 'the calendar windows of quota periods (the ledger keys usage by them, the reports sum their days)',
  'src/core/usage-totals.ts': "the daily usage totals' record and how a job adds to it (the store applies it atomically)",
  'src/core/history-entries.ts': "a member's history record and how an entry joins it (the store applies it atomically)",
  'src/core/moderation-strikes.ts': "a member's moderation strikes and how a strike pauses them (the store applies it atomically)",
  'src/core/phrase.ts': 'the phrases refusals are worded in (the size rules and the gateway refuse call options with them)',
  'src/core/svg-sanitise.ts': "an SVG's declared size (the gateway reads it instead of sharp: the bot chooses the size it is drawn at)",
  'src/core/svg-document.ts': 'the strict SVG reader svg-sanitise.ts reads documents with',
};

/** The one way into src/service/streaming from outside it: the seam the service opens per job (and main.ts builds). */
const STREAMING_SEAM = 'src/service/streaming/streamed-delivery.ts';

/** The gateway files that may import undici: the HTTP module owns requests and reads; the rest goes through it. */
const GATEWAY_MAY_IMPORT_UNDICI: Record<string, string> = {
  'src/gateway/http.ts': 'sends every gateway request and reads every body',
  'src/gateway/agent.ts': 'builds the Agent (the dispatcher) http.ts sends with',
  'src/gateway/multipart.ts': "builds the edit form as undici's FormData, the body http.ts sends",
};
/**
 * The operator's room (health server, metrics): only the composition root builds it, and it sees the service only
 * through these (the ports it wraps, the metrics port it implements); prom-client lives nowhere else.
 */
const OPS_MAY_IMPORT_FROM_SERVICE: Record<string, string> = {
  'src/service/ports.ts': 'the gateway and ledger ports it wraps to time them',
  'src/ports/job-metrics.ts': 'the metrics port of the service, which it implements',
};

/** The only package the pure service modules above may import. */
const PURE_SERVICE_PACKAGES = ['zod'];

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

const inFolder = (file: string, folder: string) => file.startsWith(folder);

/** The one module that imports sharp (on first use); every other reaches it through this one. */
const LAZY_SHARP = 'src/lazy-sharp.ts';

/** Every import that crosses a boundary the wrong way. */
function checkBoundaries(graph: ImportGraph): Violation[] {
  const out: Violation[] = [];
  for (const [from, targets] of Object.entries(graph)) {
    for (const to of targets) {
      const pkg = packageOf(to);
      if (inFolder(from, 'src/service/')) {
        if (pkg !== undefined && matchesPackage(pkg, SERVICE_FORBIDDEN_PACKAGES)) out.push({ from, to, rule: `the service imports no I/O library (${pkg})` });
        const adapter = ADAPTER_FOLDERS.find((f) => inFolder(to, f));
        if (adapter !== undefined) out.push({ from, to, rule: `the service imports no adapter (${adapter})` });
      }
      if (inFolder(from, 'src/commands/')) {
        if (inFolder(to, 'src/discord/') && !(to in COMMANDS_MAY_IMPORT_FROM_DISCORD)) {
          out.push({ from, to, rule: `commands import from src/discord only ${Object.keys(COMMANDS_MAY_IMPORT_FROM_DISCORD).join(', ')}` });
        }
        if (inFolder(to, 'src/gateway/') || inFolder(to, 'src/storage/'))
          out.push({ from, to, rule: 'commands reach the gateway and storage through the service ports' });
      }
      if (inFolder(from, 'src/gateway/') || inFolder(from, 'src/storage/')) {
        if (inFolder(to, 'src/service/') && !(to in ADAPTERS_MAY_IMPORT_FROM_SERVICE)) {
          out.push({ from, to, rule: `gateway and storage import from src/service only ${Object.keys(ADAPTERS_MAY_IMPORT_FROM_SERVICE).join(', ')}` });
        }
      }
      if (inFolder(to, 'src/service/streaming/') && !inFolder(from, 'src/service/streaming/') && to !== STREAMING_SEAM) {
        out.push({ from, to, rule: `the streamed delivery is reached only through its seam, ${STREAMING_SEAM}` });
      }
      if (inFolder(from, 'src/gateway/') && pkg === 'undici' && !(from in GATEWAY_MAY_IMPORT_UNDICI)) {
        out.push({ from, to, rule: `in the gateway only ${Object.keys(GATEWAY_MAY_IMPORT_UNDICI).join(', ')} import undici` });
      }
      if (from in ADAPTERS_MAY_IMPORT_FROM_SERVICE && !(to in ADAPTERS_MAY_IMPORT_FROM_SERVICE) && !PURE_SERVICE_PACKAGES.includes(to)) {
        out.push({ from, to, rule: `what the adapters may import from src/service imports only ${PURE_SERVICE_PACKAGES.join(', ')} and each other` });
      }
      if (inFolder(from, 'src/discord/')) {
        if (inFolder(to, 'src/gateway/') || inFolder(to, 'src/storage/'))
          out.push({ from, to, rule: 'the Discord output adapter imports neither the gateway nor storage' });
      }
      if (inFolder(to, 'src/ops/') && !inFolder(from, 'src/ops/') && from !== 'src/main.ts') out.push({ from, to, rule: 'only src/main.ts builds src/ops' });
      if (pkg === 'prom-client' && !inFolder(from, 'src/ops/')) out.push({ from, to, rule: 'prom-client is used only in src/ops' });
      // sharp loads libvips and its threads: the idle bot does without it until an image is read (issue 28).
      if (pkg === 'sharp' && from !== LAZY_SHARP) out.push({ from, to, rule: `sharp is imported only by ${LAZY_SHARP}, which loads it on first use` });
      if (inFolder(from, 'src/ops/')) {
        if (inFolder(to, 'src/service/') && !(to in OPS_MAY_IMPORT_FROM_SERVICE))
          out.push({ from, to, rule: `src/ops imports from src/service only ${Object.keys(OPS_MAY_IMPORT_FROM_SERVICE).join(', ')}` });
        if (ADAPTER_FOLDERS.some((f) => inFolder(to, f))) out.push({ from, to, rule: 'src/ops imports no adapter: main.ts passes their parts in' });
      }
    }
  }
  return out;
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

  it('reads every file of src and the imports of each', () => {
    expect(Object.keys(graph).length).toBeGreaterThan(50);
    expect(graph['src/main.ts']).toContain('src/service/build-service.ts');
    expect(graph['src/service/build-service.ts']).toContain('src/service/image-service.ts');
  });

  it('has no import crossing a boundary the wrong way', () => {
    const violations = describeViolations(checkBoundaries(graph));
    expect(violations, `wrong-way imports:\n${violations.join('\n')}\n`).toEqual([]);
  });

  it('has no import cycle, type-only imports included', () => {
    const cycles = describeCycles(findCycles(graph));
    expect(cycles, `import cycles:\n${cycles.join('\n')}\n`).toEqual([]);
  });

  it('allows only modules that exist', () => {
    const files = new Set(Object.keys(graph));
    const allowed = [
      ...Object.keys(COMMANDS_MAY_IMPORT_FROM_DISCORD),
      ...Object.keys(ADAPTERS_MAY_IMPORT_FROM_SERVICE),
      ...Object.keys(GATEWAY_MAY_IMPORT_UNDICI),
      ...Object.keys(OPS_MAY_IMPORT_FROM_SERVICE),
      STREAMING_SEAM,
      LAZY_SHARP,
    ];
    expect(allowed.filter((f) => !files.has(f))).toEqual([]);
  });
});

describe('the checker itself, on a made-up graph', () => {
  const planted: ImportGraph = {
    'src/main.ts': ['src/service/image-service.ts', 'src/discord/responder.ts', 'src/gateway/gateway-client.ts'],
    'src/service/image-service.ts': [
      'src/service/ports.ts',
      'zod',
      'node:crypto',
      'undici',
      'src/discord/render.ts',
      'src/errors.ts',
      'src/service/streaming/streamed-delivery.ts',
      'src/service/streaming/semaphore.ts',
    ],
    'src/service/streaming/streamed-delivery.ts': ['src/service/streaming/semaphore.ts'],
    'src/service/streaming/semaphore.ts': [],
    'src/gateway/http.ts': ['undici'],
    'src/service/queue.ts': ['@keyv/redis', 'node:fs/promises', 'fs', 'discord.js/typings'],
    'src/service/ports.ts': ['src/core/image-request.ts'],
    'src/core/image-request.ts': ['zod'],
    'src/core/image-rules.ts': ['src/service/ports.ts', 'src/core/image-request.ts', 'zod', 'sharp'],
    'src/service/mask-check.ts': ['sharp', 'src/core/image-rules.ts'],
    'src/commands/imagine.ts': [
      'src/discord/responder.ts',
      'src/discord/live-reply-upload.ts',
      'src/storage/quota-store.ts',
      'src/service/ports.ts',
      'discord.js',
    ],
    'src/discord/responder.ts': ['src/discord/render.ts', 'src/gateway/errors.ts', 'src/service/ports.ts', 'discord.js'],
    'src/discord/render.ts': ['src/discord/responder.ts'],
    'src/discord/live-reply-upload.ts': [],
    'src/gateway/gateway-client.ts': [
      'src/service/ports.ts',
      'src/core/image-rules.ts',
      'src/core/image-request.ts',
      'src/service/image-service.ts',
      'src/service/mask-check.ts',
      'undici',
    ],
    'src/gateway/errors.ts': ['src/gateway/classify.ts'],
    'src/gateway/classify.ts': ['src/gateway/errors.ts'],
    'src/storage/quota-store.ts': ['src/service/ports.ts', 'src/core/jobs.ts', 'keyv'],
    'src/errors.ts': ['src/errors.ts'],
    'src/ops/metrics.ts': ['prom-client', 'src/ports/job-metrics.ts', 'src/service/image-service.ts', 'src/storage/quota-store.ts'],
    'src/commands/router.ts': ['src/ops/metrics.ts', 'prom-client'],
  };

  it('names every wrong-way import, file → import', () => {
    const found = checkBoundaries(planted).map((v) => `${v.from} → ${v.to}`);
    expect(found.sort()).toEqual(
      [
        'src/service/image-service.ts → undici',
        'src/service/image-service.ts → src/discord/render.ts',
        'src/service/image-service.ts → src/service/streaming/semaphore.ts',
        'src/service/queue.ts → @keyv/redis',
        'src/service/queue.ts → node:fs/promises',
        'src/service/queue.ts → fs',
        'src/service/queue.ts → discord.js/typings',
        'src/commands/imagine.ts → src/discord/live-reply-upload.ts',
        'src/commands/imagine.ts → src/storage/quota-store.ts',
        'src/discord/responder.ts → src/gateway/errors.ts',
        'src/gateway/gateway-client.ts → src/service/image-service.ts',
        'src/gateway/gateway-client.ts → undici',
        'src/gateway/gateway-client.ts → src/service/mask-check.ts',
        'src/core/image-rules.ts → sharp',
        'src/core/image-rules.ts → sharp',
        'src/service/mask-check.ts → sharp',
        'src/storage/quota-store.ts → src/core/jobs.ts',
        'src/ops/metrics.ts → src/service/image-service.ts',
        'src/ops/metrics.ts → src/storage/quota-store.ts',
        'src/commands/router.ts → src/ops/metrics.ts',
        'src/commands/router.ts → prom-client',
      ].sort(),
    );
    expect(describeViolations(checkBoundaries(planted))).toContain('src/service/image-service.ts → undici  (the service imports no I/O library (undici))');
    expect(describeViolations(checkBoundaries(planted))).toContain(
      'src/commands/imagine.ts → src/discord/live-reply-upload.ts  (commands import from src/discord only src/discord/responder.ts, src/discord/text.ts, src/discord/custom-ids.ts, src/discord/result-card.ts, src/discord/message-images.ts, src/discord/deferred-reply.ts, src/discord/file-names.ts, src/discord/pending-deletes.ts)',
    );
    expect(describeViolations(checkBoundaries(planted))).toContain(
      'src/core/image-rules.ts → sharp  (what the adapters may import from src/service imports only zod and each other)',
    );
    expect(describeViolations(checkBoundaries(planted))).toContain(
      'src/service/mask-check.ts → sharp  (sharp is imported only by src/lazy-sharp.ts, which loads it on first use)',
    );
  });

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
