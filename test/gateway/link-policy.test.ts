/**
 * Where url image items may be fetched from: the rules on their own, then over real sockets, with a probe server
 * on loopback standing in for an internal service that a hostile or broken gateway answer points at.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { afterEach, describe, expect, it } from 'vitest';
import { createGatewayAgent } from '../../src/gateway/agent.js';
import { isSpecialAddress, LinkPolicy, LinkRefusedError } from '../../src/gateway/link-policy.js';
import { startGatewayEmulator, type GatewayEmulator } from '../emulators/gateway/index.js';
import { clientFor, failure } from './fixtures.js';
import { finalResult } from '../support/image-stream.js';

describe('isSpecialAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.20.0.1', true],
    ['192.168.1.10', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['::1', true],
    ['::', true],
    ['fd00:ec2::254', true],
    ['fe80::1', true],
    ['::ffff:127.0.0.1', true],
    ['not an address', true],
    ['93.184.216.34', false],
    ['2606:4700::6810:85e5', false],
    ['::ffff:93.184.216.34', false],
  ])('%s → %s', (address, special) => {
    expect(isSpecialAddress(address)).toBe(special);
  });
});

describe('LinkPolicy.check', () => {
  const policy = new LinkPolicy('https://gateway.example.net/v1', ['cdn.images.net', 'files.internal:8443', '10.0.0.9']);
  const refused = (url: string) => {
    try {
      policy.check(url);
      return undefined;
    } catch (err) {
      expect(err).toBeInstanceOf(LinkRefusedError);
      return (err as Error).message;
    }
  };

  it('allows https from the gateway host and listed hosts (with their port, or any port when listed without one)', () => {
    expect(refused('https://gateway.example.net/files/a.png')).toBeUndefined();
    expect(refused('https://cdn.images.net/a.png?sig=1')).toBeUndefined();
    expect(refused('https://cdn.images.net:444/a.png')).toBeUndefined();
    expect(refused('https://files.internal:8443/a.png')).toBeUndefined();
    expect(refused('https://10.0.0.9/a.png')).toBeUndefined();
  });

  it('refuses other hosts, plain http, credentials, internal literals and what is not a URL, naming only the host', () => {
    expect(refused('https://elsewhere.net/a.png?token=secret')).toBe("elsewhere.net is neither the gateway's host nor listed in GATEWAY_URL_HOSTS");
    expect(refused('http://cdn.images.net/a.png')).toBe('the image link to cdn.images.net is not https');
    expect(refused('https://user:pw@cdn.images.net/a.png')).toBe('the image link to cdn.images.net carries credentials');
    expect(refused('https://files.internal:9000/a.png')).toContain('files.internal is neither');
    expect(refused('https://169.254.169.254/latest/meta-data')).toContain('neither');
    expect(refused('not a url')).toBe('the image link is not a valid URL');
  });

  it("trusts the gateway's own origin on an internal literal, but not another port or scheme of it, and allows http from an http gateway", () => {
    const local = new LinkPolicy('http://127.0.0.1:8080/v1');
    expect(() => local.check('http://127.0.0.1:8080/files/a.png')).not.toThrow();
    expect(() => local.check('http://127.0.0.1:9090/files/a.png')).toThrow('neither');
    expect(() => new LinkPolicy('https://10.0.0.5/v1').check('http://10.0.0.5/files/a.png')).toThrow('not https');
    const listed = new LinkPolicy('http://127.0.0.1:8080/v1', ['127.0.0.1:8080']);
    expect(() => listed.check('http://127.0.0.1:8080/files/a.png')).not.toThrow();
  });
});

describe('LinkPolicy.lookup', () => {
  /** A resolver that answers every name with `addresses`. */
  const resolver =
    (addresses: LookupAddress[]) =>
    (_host: string, _options: unknown, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void): void => {
      callback(null, addresses);
    };
  const lookup = (policy: LinkPolicy, host: string, all: boolean) =>
    new Promise<{ err: Error | null; address: unknown; family: unknown }>((resolve) => {
      policy.lookup(host, { all }, (err, address, family) => resolve({ err, address, family }));
    });

  it("refuses a name that resolves to an internal address unless the name is listed or is the gateway's own", async () => {
    const internal = resolver([
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ]);
    const policy = new LinkPolicy('https://gateway.example.net/v1', ['trusted.lan:8443'], internal as never);
    expect((await lookup(policy, 'elsewhere.example.net', false)).err).toBeInstanceOf(LinkRefusedError);
    expect((await lookup(policy, 'trusted.lan', false)).err).toBeNull();
    // check() lets the gateway's name through on its own port only, so its lookup may answer an internal address.
    expect((await lookup(policy, 'gateway.example.net', false)).err).toBeNull();
  });

  it('answers as the caller asked: one address, or all of them', async () => {
    const policy = new LinkPolicy('https://gateway.example.net/v1', [], resolver([{ address: '93.184.216.34', family: 4 }]) as never);
    expect(await lookup(policy, 'gateway.example.net', false)).toEqual({ err: null, address: '93.184.216.34', family: 4 });
    expect(await lookup(policy, 'gateway.example.net', true)).toEqual({ err: null, address: [{ address: '93.184.216.34', family: 4 }], family: undefined });
  });
});

describe('url items over real sockets', () => {
  let gw: GatewayEmulator | undefined;
  let probe: Server | undefined;
  const closers: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    expect(gw?.specViolations ?? []).toEqual([]);
    await gw?.close();
    if (probe) {
      probe.close();
      await once(probe, 'close');
    }
  });

  /** An internal service on loopback that records every request it gets. */
  async function startProbe(): Promise<{ url: string; hits: IncomingMessage[] }> {
    const hits: IncomingMessage[] = [];
    probe = createServer((req, res) => {
      hits.push(req);
      res.end('deleted everything');
    });
    probe.listen(0, '127.0.0.1');
    await once(probe, 'listening');
    return { url: `http://127.0.0.1:${(probe.address() as AddressInfo).port}`, hits };
  }

  it('never fetches an internal URL a gateway answer names, and says why', async () => {
    gw = await startGatewayEmulator();
    const { url, hits } = await startProbe();
    const { client, agent } = clientFor(gw);
    closers.push(() => agent.close());
    for (const link of [`${url}/internal/admin/delete-everything?confirm=1`, 'http://169.254.169.254/latest/meta-data/iam']) {
      gw.enqueue({ type: 'raw', status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ created: 1, data: [{ url: link }] }) });
      const err = await failure(finalResult(client.generate({ prompt: 'p' })));
      expect(err).toMatchObject({ code: 'image_download_failed' });
      expect(err.message).toMatch(/^image link refused: (127\.0\.0\.1|169\.254\.169\.254) is neither the gateway's host nor listed in GATEWAY_URL_HOSTS$/);
    }
    expect(hits).toEqual([]);
  });

  it("fetches url items on the gateway's own origin wherever it lives, but not another internal port of its host", async () => {
    gw = await startGatewayEmulator();
    const emulator = gw;
    const port = new URL(emulator.baseUrl).port;
    const downloads = () => emulator.requests.filter((r) => r.method === 'GET' && !r.path.startsWith('/v1/'));
    // A file the emulator serves, published by an ordinary url answer (fetched through its listed loopback address).
    const { client: plain, agent } = clientFor(emulator);
    closers.push(() => agent.close());
    emulator.enqueue({ type: 'success', urlItems: true });
    await finalResult(plain.generate({ prompt: 'p' }));
    const file = downloads().at(-1)?.path ?? '';
    const { url: elsewhere, hits } = await startProbe();
    const attempt = async (baseUrl: string, link: string) => {
      const policy = new LinkPolicy(baseUrl, []);
      const linkAgent = createGatewayAgent({ connectTimeoutMs: 2_000, headersTimeoutMs: 20_000, bodyTimeoutMs: 20_000, lookup: policy.lookup });
      const made = clientFor(emulator, { baseUrl, links: { policy, dispatcher: linkAgent } });
      closers.push(
        () => made.agent.close(),
        () => linkAgent.close(),
      );
      emulator.enqueue({
        type: 'raw',
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ created: 1, data: [{ url: link }] }),
      });
      return finalResult(made.client.generate({ prompt: 'p' }));
    };

    // Reached by a name that resolves to loopback, and by the loopback literal: its own origin is trusted, unlisted.
    expect((await attempt(`http://localhost:${port}/v1`, `http://localhost:${port}${file}`)).images).toHaveLength(1);
    expect((await attempt(`http://127.0.0.1:${port}/v1`, `http://127.0.0.1:${port}${file}`)).images).toHaveLength(1);
    expect(downloads()).toHaveLength(3);
    // Another port of the same loopback host is not the gateway's origin.
    for (const [base, link] of [
      [`http://127.0.0.1:${port}/v1`, `${elsewhere}/a.png`],
      [`http://localhost:${port}/v1`, `${elsewhere.replace('127.0.0.1', 'localhost')}/a.png`],
    ] as const) {
      const err = await failure(attempt(base, link));
      expect(err.message).toMatch(/^image link refused: (127\.0\.0\.1|localhost) is neither the gateway's host nor listed in GATEWAY_URL_HOSTS$/);
    }
    expect(hits).toEqual([]);
  });
});
