/**
 * When the browser tests run: with Chromium there, they run; without it they are skipped with the reason and the
 * way to install it, unless CHROMIUM_REQUIRED=true (CI), which makes its absence an error.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserTest, chromiumStatus } from './chromium.js';

const ABSENT = '/nonexistent/chromium';

describe('chromium status', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('skips a browser test when Chromium is absent, saying why and how to install it', () => {
    vi.stubEnv('CHROMIUM_PATH', ABSENT);
    vi.stubEnv('CHROMIUM_REQUIRED', '');
    expect(browserTest('the page')).toEqual({
      skip: true,
      title: `the page: skipped because ${ABSENT} is absent (install it with \`npm run setup:browser\` (Debian/Ubuntu: apt-get install chromium) or set CHROMIUM_PATH)`,
    });
  });

  it.each(['true', '1'])('fails when Chromium is absent and CHROMIUM_REQUIRED=%s', (value) => {
    vi.stubEnv('CHROMIUM_PATH', ABSENT);
    vi.stubEnv('CHROMIUM_REQUIRED', value);
    expect(() => browserTest('the page')).toThrow(`CHROMIUM_REQUIRED=true, but ${ABSENT} is absent`);
  });

  it('runs a browser test when Chromium is there, required or not', () => {
    vi.stubEnv('CHROMIUM_PATH', process.execPath);
    vi.stubEnv('CHROMIUM_REQUIRED', 'true');
    expect(chromiumStatus()).toEqual({ available: true, path: process.execPath });
    expect(browserTest('the page')).toEqual({ skip: false, title: 'the page' });
  });

  it('rejects a CHROMIUM_REQUIRED that is neither true nor false', () => {
    vi.stubEnv('CHROMIUM_PATH', ABSENT);
    vi.stubEnv('CHROMIUM_REQUIRED', 'yes');
    expect(() => chromiumStatus()).toThrow('CHROMIUM_REQUIRED must be true or false, not "yes"');
  });
});
