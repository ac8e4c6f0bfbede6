/**
 * Lists what a run skipped, one line each, under vitest's default reporter: a test or suite that is skipped for want
 * of something (a database, the OpenAPI descriptions) carries the reason in its name (`Redis: skipped because
 * REDIS_URL is not set`), and the default reporter only counts skips. A skipped suite is one line, not one per test.
 *
 * In a run filtered by name, line, id or tag nearly everything else is skipped by the filter, so the lines would be
 * noise; such a run gets one line saying the list is left out.
 */
import type { Reporter, TestCase, TestModule, TestSpecification, TestSuite, Vitest } from 'vitest/node';

export default class SkipReporter implements Reporter {
  private vitest: Vitest | undefined;
  private filtered = false;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunStart(specifications: readonly TestSpecification[]): void {
    const config = this.vitest?.config;
    this.filtered =
      config?.testNamePattern !== undefined ||
      (config?.tagsFilter?.length ?? 0) > 0 ||
      specifications.some(
        (s) => s.testNamePattern !== undefined || (s.testLines?.length ?? 0) > 0 || (s.testIds?.length ?? 0) > 0 || (s.testTagsFilter?.length ?? 0) > 0,
      );
  }

  onTestRunEnd(testModules: readonly TestModule[]): void {
    const lines = testModules.flatMap((module) => skippedIn(module));
    if (lines.length === 0) return;
    const out = this.vitest?.logger ?? console;
    if (this.filtered) out.log(`\n${lines.length} skipped, not listed: the run is filtered`);
    else out.log(`\n${lines.join('\n')}`);
  }
}

/**
 * One line per skipped test or skipped suite below `parent`. A skipped suite is one line, unless tests in it carry
 * their own reasons (`…: skipped because …`): vitest marks a suite skipped when all its tests are, and its name would
 * then hide theirs.
 */
export function skippedIn(parent: TestModule | TestSuite): string[] {
  return parent.children.array().flatMap((child) => {
    if (child.type === 'suite') return child.state() === 'skipped' && !hasOwnReasons(child) ? [line(child, child.options.mode)] : skippedIn(child);
    const result = child.result();
    return result.state === 'skipped' ? [line(child, child.options.mode, result.note)] : [];
  });
}

const REASON = /skipped because/i;

function hasOwnReasons(suite: TestSuite): boolean {
  return [...suite.children.allTests(), ...suite.children.allSuites()].some((task) => REASON.test(task.name));
}

function line(task: TestCase | TestSuite, mode: string, note?: string): string {
  const label = mode === 'todo' ? 'todo' : 'skipped';
  return `${label}: ${task.module.relativeModuleId} > ${task.fullName}${note ? ` (${note})` : ''}`;
}
