/**
 * Where `url` image items may be fetched from. A gateway answer is not trusted to name any address: a link is
 * fetched only over https (or over http from the gateway's own origin when the gateway itself is plain http), only
 * from the gateway's own host or a host listed in GATEWAY_URL_HOSTS, and never from a loopback, private,
 * link-local (cloud metadata) or otherwise special address unless its host is listed. Host names are checked again
 * on the addresses they resolve to, when the connection is made (see {@link LinkPolicy.lookup}), so a name that
 * resolves to an internal address is refused as well.
 *
 * The gateway's own origin (scheme, host and port of GATEWAY_BASE_URL) is the one exception, wherever it lives: the
 * bot already sends it the API key and the members' prompts, so a link to it is no forgery (a relay beside the bot
 * in compose, a local sidecar). Another port of the same host, or any other internal address, still needs listing.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/** Address ranges a link must not reach unless its host is listed (IANA special-purpose registries). */
const SPECIAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  SPECIAL.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 127],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  SPECIAL.addSubnet(network, prefix, 'ipv6');
}

/** Whether `address` (an IP literal) is loopback, private, link-local or otherwise not a public address. */
export function isSpecialAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return SPECIAL.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1] !== undefined) return SPECIAL.check(mapped[1], 'ipv4');
  return SPECIAL.check(address, 'ipv6');
}

/** Why a link is refused; the message names the host, never the path or query (which may carry a signature). */
export class LinkRefusedError extends Error {
  override name = 'LinkRefusedError';
  readonly code = 'ELINKREFUSED';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** See the module comment. */
export class LinkPolicy {
  readonly #gateway: URL;
  readonly #listed: ReadonlySet<string>;
  /** The listed hosts' names without their ports: what a connection's lookup, which sees no port, can check. */
  readonly #listedNames: ReadonlySet<string>;
  readonly #resolve: typeof dnsLookup;

  /**
   * @param gatewayBaseUrl GATEWAY_BASE_URL: its host may serve links.
   * @param listedHosts GATEWAY_URL_HOSTS: `host` or `host:port` entries that may serve links, internal ones included.
   * @param resolve how host names are resolved (tests point names at chosen addresses).
   */
  constructor(gatewayBaseUrl: string, listedHosts: readonly string[] = [], resolve: typeof dnsLookup = dnsLookup) {
    this.#gateway = new URL(gatewayBaseUrl);
    this.#listed = new Set(listedHosts.map((host) => host.toLowerCase()));
    this.#listedNames = new Set([...this.#listed].map((host) => host.replace(/:\d+$/, '')));
    this.#resolve = resolve;
  }

  /** Throws {@link LinkRefusedError} when `url` may not be fetched; checks what can be checked without DNS. */
  check(url: string): void {
    let link: URL;
    try {
      link = new URL(url);
    } catch {
      throw new LinkRefusedError('the image link is not a valid URL');
    }
    const host = link.host.toLowerCase();
    if (link.username !== '' || link.password !== '') throw new LinkRefusedError(`the image link to ${link.hostname} carries credentials`);
    if (host !== this.#gateway.host.toLowerCase() && !this.#listedHost(link)) {
      throw new LinkRefusedError(`${link.hostname} is neither the gateway's host nor listed in GATEWAY_URL_HOSTS`);
    }
    const fromGatewayOrigin = link.origin === this.#gateway.origin;
    if (link.protocol !== 'https:' && !(fromGatewayOrigin && link.protocol === 'http:'))
      throw new LinkRefusedError(`the image link to ${link.hostname} is not https`);
    const literal = link.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) !== 0 && isSpecialAddress(literal) && !this.#listedHost(link) && !fromGatewayOrigin) {
      throw new LinkRefusedError(`${link.hostname} is an internal address; list it in GATEWAY_URL_HOSTS to allow it`);
    }
  }

  /**
   * A `lookup` for the link connections (undici's `connect.lookup`, handed on to net.connect): resolves as usual,
   * then refuses a host whose addresses include an internal one unless it is listed.
   */
  readonly lookup = (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    this.#resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) {
        callback(err, []);
        return;
      }
      const internal = addresses.find((a) => isSpecialAddress(a.address));
      // check() lets the gateway's host name through on the gateway's own port only (or a listed one).
      const trusted = this.#listedNames.has(hostname.toLowerCase()) || hostname.toLowerCase() === this.#gateway.hostname.toLowerCase();
      if (internal && !trusted) {
        callback(new LinkRefusedError(`${hostname} resolves to an internal address; list it in GATEWAY_URL_HOSTS to allow it`), []);
        return;
      }
      const [first] = addresses;
      if (options.all === true || first === undefined) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };

  #listedHost(link: URL): boolean {
    return this.#listed.has(link.host.toLowerCase()) || this.#listed.has(link.hostname.toLowerCase());
  }
}
