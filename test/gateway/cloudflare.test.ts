/**
 * Cloudflare in front of the gateway: telling its own 52x answers from anyone else's (both `cf-ray` and
 * `server: cloudflare`), reading its HTML page, and the retry rule: 524 never, 521–523 once and only when Cloudflare's.
 */
import { describe, expect, it } from 'vitest';
import { proxyOf } from '../../src/gateway/cloudflare.js';
import { GatewayHttpError, GatewayTimeoutError, type GatewayError } from '../../src/gateway/errors.js';
import { retryLimit } from '../../src/gateway/retry.js';

const CLOUDFLARE = { server: 'cloudflare', 'cf-ray': '8f1a2b3c4d5e6f70-FRA' };
const PAGE = (status: number, title: string) =>
  `<!DOCTYPE html>\n<html class="no-js" lang="en-US">\n<head>\n<title>api.relay.example | ${status}: ${title}</title>\n</head>\n<body><h1>${title}</h1><span>Error code ${status}</span></body></html>`;
const http = (status: number, headers: Record<string, string | string[]> = {}, body = '') => GatewayHttpError.fromResponse(status, body, headers);

describe('proxyOf', () => {
  it.each<[string, Record<string, string | string[] | undefined>, 'cloudflare' | undefined]>([
    ['both headers', CLOUDFLARE, 'cloudflare'],
    ['both, in other cases and repeated', { Server: ' Cloudflare ', 'CF-RAY': ['8f1a2b3c4d5e6f70-FRA', 'x'] }, 'cloudflare'],
    ['server only', { server: 'cloudflare' }, undefined],
    ['cf-ray only', { 'cf-ray': '8f1a2b3c4d5e6f70-FRA' }, undefined],
    ['another server with a cf-ray', { server: 'nginx', 'cf-ray': '8f1a2b3c4d5e6f70-FRA' }, undefined],
    ['an empty cf-ray', { server: 'cloudflare', 'cf-ray': '' }, undefined],
    ['no headers', {}, undefined],
  ])('%s → %s', (_name, headers, proxy) => {
    expect(proxyOf(headers)).toBe(proxy);
  });
});

describe("Cloudflare's answers as gateway errors", () => {
  it('reads the page title as the message, the Ray id as the request id, and the proxy', () => {
    const err = http(524, { ...CLOUDFLARE, 'content-type': 'text/html; charset=UTF-8' }, PAGE(524, 'A timeout occurred'));
    expect(err).toMatchObject({ status: 524, category: 'timed_out', proxy: 'cloudflare', requestId: '8f1a2b3c4d5e6f70-FRA' });
    expect(err.message).toBe('gateway answered 524: api.relay.example | 524: A timeout occurred');
  });

  it.each([521, 522, 523])('classifies %s as the gateway failing, though the 522 page says "timed out"', (status) => {
    expect(http(status, CLOUDFLARE, PAGE(status, 'Connection timed out')).category).toBe('gateway_failure');
    expect(http(status).category).toBe('gateway_failure');
  });

  it('keeps the text of a body that is not HTML, and the gateway’s own request id before the Ray id', () => {
    const err = http(502, { ...CLOUDFLARE, 'x-oneapi-request-id': '2026' }, 'upstream said < no');
    expect(err.message).toBe('gateway answered 502: upstream said < no');
    expect(err.requestId).toBe('2026');
  });

  it('has no proxy without both headers', () => {
    expect(http(522, { server: 'cloudflare' }).proxy).toBeUndefined();
  });
});

describe('retryLimit: how many earlier retries still allow one more', () => {
  it.each<[string, number, GatewayError]>([
    ["Cloudflare's 521", 1, http(521, CLOUDFLARE)],
    ["Cloudflare's 522", 1, http(522, CLOUDFLARE, PAGE(522, 'Connection timed out'))],
    ["Cloudflare's 523", 1, http(523, CLOUDFLARE)],
    ["Cloudflare's 524 (the upstream went on and billed)", 0, http(524, CLOUDFLARE, PAGE(524, 'A timeout occurred'))],
    ['a 524 without Cloudflare headers', 0, http(524)],
    ['a plain origin’s 522 (no Cloudflare headers)', 0, http(522, {}, JSON.stringify({ error: { code: 'bad_response_status_code', message: 'x' } }))],
    ['a 522 with server: cloudflare only', 0, http(522, { server: 'cloudflare' })],
    ['a 522 with a cf-ray only', 0, http(522, { 'cf-ray': '8f1a2b3c4d5e6f70-FRA' })],
    ['a 500 through Cloudflare', 0, http(500, CLOUDFLARE)],
    ['a 429 through Cloudflare', 2, http(429, CLOUDFLARE)],
    ['a 502', 2, http(502)],
    ['a timeout', 0, new GatewayTimeoutError('timeout', {})],
  ])('%s → %i', (_name, limit, err) => {
    expect(retryLimit(err, 2)).toBe(limit);
  });

  it('gives Cloudflare’s 522 no retry when retries are off', () => {
    expect(retryLimit(http(522, CLOUDFLARE), 0)).toBe(0);
    expect(retryLimit(http(522, CLOUDFLARE), 5)).toBe(1);
  });
});
