/**
 * Headless Chromium for the tests that look at a page: Debian's `chromium` at /usr/bin/chromium (or `CHROMIUM_PATH`),
 * driven by playwright-core, which downloads no browser of its own.
 *
 * Where it is absent (a dev clone without it) those tests are skipped, saying why and how to install it; with
 * `CHROMIUM_REQUIRED=true` (CI, whose `.ci/run` installs it) an absent browser is an error instead, as
 * `OPENAPI_SPEC_REQUIRED` does for the OpenAPI descriptions (openapi.ts).
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const DEFAULT_PATH = '/usr/bin/chromium';
const HINT = 'install it with `npm run setup:browser` (Debian/Ubuntu: apt-get install chromium) or set CHROMIUM_PATH';

/**
 * Flags for a quiet, sandbox-free headless run: no first-run UI, no background downloads or component updates, and
 * no network the page did not ask for.
 */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

/** Whether the browser can be used; when it cannot, `reason` says what is missing and what to do. */
export type ChromiumStatus = { readonly available: true; readonly path: string } | { readonly available: false; readonly reason: string };

/** `CHROMIUM_REQUIRED`: true or 1 makes an absent browser an error; unset, empty, false or 0 does not. */
function chromiumRequired(): boolean {
  const value = process.env['CHROMIUM_REQUIRED']?.trim().toLowerCase() ?? '';
  if (value === 'true' || value === '1') return true;
  if (value === '' || value === 'false' || value === '0') return false;
  throw new Error(`CHROMIUM_REQUIRED must be true or false, not ${JSON.stringify(process.env['CHROMIUM_REQUIRED'])}`);
}

/**
 * Whether Chromium is there.
 * @throws when it is absent and `CHROMIUM_REQUIRED=true`, so a run that must look at pages cannot quietly skip them
 */
export function chromiumStatus(): ChromiumStatus {
  const configured = process.env['CHROMIUM_PATH'];
  const path = configured === undefined || configured === '' ? DEFAULT_PATH : configured;
  if (existsSync(path)) return { available: true, path };
  const reason = `${path} is absent (${HINT})`;
  if (chromiumRequired()) throw new Error(`CHROMIUM_REQUIRED=true, but ${reason}`);
  return { available: false, reason };
}

/**
 * For a test or suite that needs the browser: whether to skip it, and its name, which carries the reason when skipped.
 * @example
 * const browser = browserTest('the transcript page');
 * describe.skipIf(browser.skip)(browser.title, () => …);
 */
export function browserTest(title: string): { readonly skip: boolean; readonly title: string } {
  const status = chromiumStatus();
  return status.available ? { skip: false, title } : { skip: true, title: `${title}: skipped because ${status.reason}` };
}

/** Launches headless Chromium with a fresh, throw-away profile. */
export async function launchChromium(): Promise<Browser> {
  const status = chromiumStatus();
  if (!status.available) throw new Error(`cannot launch Chromium: ${status.reason}`);
  return chromium.launch({ executablePath: status.path, args: CHROMIUM_ARGS });
}
