/**
 * A fresh clone stays green (issue 31): a test that needs the emulators to find a spec violation (one that only
 * exists when the official OpenAPI descriptions are there) must skip, with its reason, when they are absent. This
 * finds every such expectation in the test files and checks that the test around it is declared with
 * `it.skipIf(spec.skip)` (test/support/openapi.ts's specTest), so CI, which has the descriptions, catches a new one
 * that would fail on a bare clone without running the suite twice.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const TEST_DIR = fileURLToPath(new URL('.', import.meta.url));

/** An expectation that some violation was recorded (not that none was). */
const NEEDS_VIOLATIONS =
  /specViolations[^;]*?\.(?:toMatch|toContain|toBeGreaterThan)\(|specViolations[^;]*?\.not\.toEqual\(\[\]\)|specViolations[^;]*?toHaveLength\([1-9]/g;
/** A test or suite declaration. */
const DECLARATION = /^\s*(it|test|describe)(\.skipIf\(([^)]*)\))?\(/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Each expectation needing violations, with the declarations around it (innermost first) that do not skip on the spec. */
export function unguarded(source: string): { line: number; declaration: string }[] {
  const lines = source.split('\n');
  const found: { line: number; declaration: string }[] = [];
  for (const match of source.matchAll(NEEDS_VIOLATIONS)) {
    const line = source.slice(0, match.index).split('\n').length - 1;
    const indent = (lines[line] ?? '').search(/\S/);
    let guarded = false;
    let innermost: string | undefined;
    for (let i = line, depth = indent; i >= 0 && depth > 0; i -= 1) {
      const text = lines[i] ?? '';
      const at = text.search(/\S/);
      const declared = DECLARATION.exec(text);
      if (at >= 0 && at < depth && declared) {
        innermost ??= text.trim();
        if (declared[2] !== undefined && /spec/i.test(declared[3] ?? '')) guarded = true;
        depth = at;
      }
    }
    if (!guarded) found.push({ line: line + 1, declaration: innermost ?? '(none)' });
  }
  return found;
}

describe('tests that need the official OpenAPI descriptions', () => {
  it('finds an unguarded expectation, and accepts a guarded one', () => {
    const bad = "describe('x', () => {\n  it('y', async () => {\n    expect(gw.specViolations.join('\\n')).toMatch(/z/);\n  });\n});\n";
    expect(unguarded(bad)).toEqual([{ line: 3, declaration: "it('y', async () => {" }]);
    expect(unguarded(bad.replace("it('y'", 'it.skipIf(spec.skip)(spec.title'))).toEqual([]);
    expect(unguarded(bad.replace("describe('x'", 'describe.skipIf(openaiSpec.skip)(x'))).toEqual([]);
    expect(unguarded("  it('none', () => {\n    expect(gw.specViolations).toEqual([]);\n  });\n")).toEqual([]);
  });

  it('skip with their reason when the descriptions are absent', () => {
    const offenders = testFiles(TEST_DIR)
      .filter((file) => !file.endsWith('spec-dependence.test.ts'))
      .flatMap((file) => unguarded(readFileSync(file, 'utf8')).map((u) => `${relative(TEST_DIR, file)}:${u.line} in ${u.declaration}`));
    expect(offenders, 'declare these with specTest(...) and it.skipIf(spec.skip)').toEqual([]);
  });
});
