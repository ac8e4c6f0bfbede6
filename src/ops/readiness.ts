/**
 * Readiness: the bot is ready when every named check passes within its time limit. A check that throws, answers
 * false or takes too long fails, and the report names it.
 */

/** One readiness check: true when ready. */
export interface ReadinessCheck {
  /** Named in the report (`discord`, `store`, `gateway`). */
  name: string;
  check: () => boolean | Promise<boolean>;
}

/** What /readyz reports. */
export interface ReadinessReport {
  ready: boolean;
  /** Each check's result. */
  checks: Record<string, 'ok' | 'failed'>;
}

/** Runs every check at once, each bounded by `timeoutMs` (a store that does not answer is not ready). */
export async function checkReadiness(checks: readonly ReadinessCheck[], timeoutMs: number): Promise<ReadinessReport> {
  const results = await Promise.all(checks.map(async ({ name, check }) => [name, (await passes(check, timeoutMs)) ? 'ok' : 'failed'] as const));
  return { ready: results.every(([, result]) => result === 'ok'), checks: Object.fromEntries(results) };
}

async function passes(check: ReadinessCheck['check'], timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  try {
    return await Promise.race([Promise.resolve().then(check), late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
