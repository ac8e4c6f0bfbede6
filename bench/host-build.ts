/**
 * The bot's host process as plain JavaScript. Forked under tsx, the bot's process would also carry tsx's loader (its
 * own thread and isolate: about 35 MB resident, docs/benchmarks.md), which `npm start` does not. So the host and the
 * bench modules it imports are transpiled (type annotations stripped by TypeScript's own transpiler) into dist-bench/,
 * beside dist/ at the repository's top, so that their `new URL('..', import.meta.url)` still names the repository.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const BENCH = dirname(fileURLToPath(import.meta.url));
const OUT = join(BENCH, '..', 'dist-bench');

/** Relative imports of code (`./x.js` naming `./x.ts`); `import type` is erased and needs no file. */
const RELATIVE_IMPORT = /^(?:import|export)\s+(?!type\b)[^'"]*?from\s+'(\.\/[^']+)\.js';/gm;

/** Transpiles bench/`file` (a .ts name) and the bench modules it imports; returns the path of its .js. */
export function plainHost(file: string): string {
  mkdirSync(OUT, { recursive: true });
  const done = new Set<string>();
  const visit = (name: string): void => {
    if (done.has(name)) return;
    done.add(name);
    const source = readFileSync(join(BENCH, `${name}.ts`), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      fileName: `${name}.ts`,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    });
    writeFileSync(join(OUT, `${name}.js`), outputText);
    for (const match of source.matchAll(RELATIVE_IMPORT)) if (match[1]) visit(match[1].slice(2));
  };
  visit(file.replace(/^\.\//, '').replace(/\.ts$/, ''));
  return join(OUT, file.replace(/^\.\//, '').replace(/\.ts$/, '.js'));
}
