import path from 'node:path';

/** Where the data lives, parsed from STORAGE_URL. `display` names scheme and host, never credentials. */
export type StorageLocation =
  | { scheme: 'memory'; display: string }
  | { scheme: 'sqlite'; file: string; display: string }
  | { scheme: 'redis'; url: string; display: string }
  | { scheme: 'postgres'; url: string; display: string };

const EXPECTED = 'expected sqlite://PATH, redis://HOST[:PORT], rediss://…, postgres://HOST/DB or memory://';

/**
 * Parses a storage URL. `sqlite://data/bot.sqlite` is relative to `cwd`, `sqlite:///var/lib/bot.sqlite` is
 * absolute. Throws a message that never repeats the URL, since it may carry a password.
 */
export function parseStorageUrl(url: string, cwd: string = process.cwd()): StorageLocation {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
  switch (scheme) {
    case 'memory':
      return { scheme: 'memory', display: 'memory://' };
    case 'sqlite': {
      const raw = url.slice('sqlite://'.length);
      if (raw.length === 0) throw new Error(`Invalid storage URL: sqlite:// needs a file path (${EXPECTED})`);
      const file = path.resolve(cwd, raw);
      return { scheme: 'sqlite', file, display: `sqlite://${file}` };
    }
    case 'redis':
    case 'rediss':
      return { scheme: 'redis', url, display: displayNetworkUrl(url, scheme) };
    case 'postgres':
    case 'postgresql':
      return { scheme: 'postgres', url, display: displayNetworkUrl(url, scheme) };
    case undefined:
      throw new Error(`Invalid storage URL: no scheme (${EXPECTED})`);
    default:
      throw new Error(`Unsupported storage URL scheme "${scheme}://" (${EXPECTED})`);
  }
}

/** `scheme://host:port/path` without user, password or query (which may carry credentials too). */
function displayNetworkUrl(url: string, scheme: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`Invalid storage URL: ${scheme}:// URL cannot be parsed (${EXPECTED})`);
  }
  if (parsed.hostname.length === 0) throw new Error(`Invalid storage URL: ${scheme}:// needs a host (${EXPECTED})`);
  return `${scheme}://${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
}
