/**
 * Our bot as `npm start` runs it: the compiled JavaScript in dist/ (`npm run build`), built here first when dist/ is
 * older than src/. The bench's bot processes load it instead of transpiling src/ at start through tsx.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as ConfigModule from '../src/config.js';
import type * as MainModule from '../src/main.js';

const repo = fileURLToPath(new URL('..', import.meta.url));

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Runs `npm run build` unless dist/cli.js is newer than every file under src/. */
export function ensureBuilt(): void {
  const cli = join(repo, 'dist', 'cli.js');
  if (existsSync(cli) && statSync(cli).mtimeMs >= newestMtime(join(repo, 'src'))) return;
  execFileSync('npm', ['run', 'build'], { cwd: repo, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** The compiled composition root and configuration (dist/main.js, dist/config.js), typed as their sources. */
export async function compiledBot(): Promise<{ main: typeof MainModule; config: typeof ConfigModule }> {
  const main = (await import(join(repo, 'dist', 'main.js'))) as typeof MainModule;
  const config = (await import(join(repo, 'dist', 'config.js'))) as typeof ConfigModule;
  return { main, config };
}
