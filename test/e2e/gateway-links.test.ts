/**
 * The gateway's own files trusted like the gateway (issue 29), end to end: with the gateway on 127.0.0.1 and
 * GATEWAY_URL_HOSTS empty, url items on the gateway's own origin are fetched and delivered, while a url on another
 * loopback port is still refused, never fetched, and the member is not charged.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imagineOptions, startHarness, type Harness } from './harness.js';
import { ephemeralError, quotaText, resultPost, settled } from './support.js';

describe('a gateway on loopback serving url items from its own origin (GATEWAY_URL_HOSTS unset)', () => {
  let h: Harness;
  let probe: Server;
  const hits: IncomingMessage[] = [];
  beforeAll(async () => {
    h = await startHarness({ env: { QUOTA_DEFAULT_LIMIT: '5' } });
    expect(h.config.GATEWAY_URL_HOSTS).toEqual([]);
    probe = createServer((req, res) => {
      hits.push(req);
      res.end('not an image');
    });
    probe.listen(0, '127.0.0.1');
    await once(probe, 'listening');
  });
  afterAll(async () => {
    probe.close();
    await (h as Harness | undefined)?.close();
  });

  it('delivers the images its url items point to on its own origin', async () => {
    h.gateway.enqueue({ type: 'success', urlItems: true });
    const handle = h.discord.slash('imagine', imagineOptions('linked'), { user: h.discord.fixtures.member });
    await handle.waitFor(settled);
    expect(resultPost(handle)?.files).toHaveLength(1);
    expect(h.gateway.requests.some((r) => r.method === 'GET' && !r.path.startsWith('/v1/'))).toBe(true);
  });

  it('refuses a url on another loopback port without fetching it, and charges nothing', async () => {
    const other = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/a.png`;
    h.gateway.enqueue({
      type: 'raw',
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ created: 1, data: [{ url: other }] }),
    });
    const user = h.discord.fixtures.users.member2;
    const handle = h.discord.slash('imagine', imagineOptions('elsewhere'), { user });
    await handle.waitFor(settled);
    expect(resultPost(handle)).toBeUndefined();
    expect(ephemeralError(handle)).toContain('You were not charged');
    expect(hits).toEqual([]);
    expect(await quotaText(h.discord, user)).toContain('5 of 5');
  });
});
