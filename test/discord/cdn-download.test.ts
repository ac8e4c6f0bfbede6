import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CDN_DOWNLOAD_TIMEOUT_MS, cdnDownloader, downloadAttachment, isAllowedAttachmentUrl, type DownloadOptions } from '../../src/discord/cdn-download.js';
import { AttachmentDownloadError } from '../../src/core/attachment-download.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let handler: Handler;
let requests: string[] = [];
let base: string;
let host: string;
const agent = new Agent({ keepAliveTimeout: 10 });

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('server is not listening on TCP');
  host = `127.0.0.1:${address.port}`;
  base = `http://${host}`;
});

afterEach(() => {
  server.closeAllConnections();
  requests = [];
});

afterAll(async () => {
  await agent.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function options(overrides: Partial<DownloadOptions> = {}): DownloadOptions {
  return { allowedHosts: [host], maxBytes: 1024 * 1024, timeoutMs: 10_000, dispatcher: agent, ...overrides };
}

async function failure(promise: Promise<unknown>): Promise<AttachmentDownloadError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AttachmentDownloadError)) throw new Error(`expected a download error, got ${String(error)}`);
  return error;
}

/** Resolves when the server side of the response's connection closes. */
function closed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => res.on('close', () => resolve()));
}

describe('isAllowedAttachmentUrl', () => {
  const discord = ['cdn.discordapp.com', 'media.discordapp.net'];
  it.each([
    ['https://cdn.discordapp.com/attachments/1/2/cat.png?ex=1&is=2&hm=3', discord, true],
    ['https://MEDIA.discordapp.net/attachments/1/2/cat.png', discord, true],
    ['https://cdn.discordapp.com:443/a.png', discord, true],
    ['http://cdn.discordapp.com/a.png', discord, false],
    ['https://cdn.discordapp.com:8443/a.png', discord, false],
    ['https://cdn.discordapp.com.evil.example/a.png', discord, false],
    ['https://evil.example/cdn.discordapp.com/a.png', discord, false],
    ['https://user:pass@cdn.discordapp.com/a.png', discord, false],
    ['ftp://cdn.discordapp.com/a.png', discord, false],
    ['not a url', discord, false],
    ['http://127.0.0.1:40123/a.png', ['127.0.0.1:40123'], true],
    ['https://127.0.0.1:40123/a.png', ['127.0.0.1:40123'], true],
    ['http://127.0.0.1:40124/a.png', ['127.0.0.1:40123'], false],
    ['http://127.0.0.1/a.png', ['127.0.0.1:40123'], false],
    ['http://[::1]:40123/a.png', ['[::1]:40123'], true],
  ] as const)('GIVEN %s and %j THEN %s', (url, allowed, expected) => {
    expect(isAllowedAttachmentUrl(url, allowed)).toBe(expected);
  });
});

describe('downloadAttachment', () => {
  it('returns the exact bytes served', async () => {
    const payload = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
    handler = (_req, res) => res.end(payload);
    const bytes = await downloadAttachment(`${base}/cat.png?ex=1`, options());
    expect(bytes.equals(payload)).toBe(true);
    expect(requests).toEqual(['/cat.png?ex=1']);
  });

  it('accepts a body of exactly maxBytes', async () => {
    handler = (_req, res) => res.end(Buffer.alloc(1000, 1));
    await expect(downloadAttachment(`${base}/a.png`, options({ maxBytes: 1000 }))).resolves.toHaveLength(1000);
  });

  it('refuses a host outside the list without making a request', async () => {
    handler = (_req, res) => res.end('should not be fetched');
    const error = await failure(downloadAttachment(`${base}/a.png`, options({ allowedHosts: ['cdn.discordapp.com'] })));
    expect(error.reason).toBe('host_not_allowed');
    expect(requests).toEqual([]);
  });

  it('refuses a body whose Content-Length is over the cap and closes the connection', async () => {
    let connectionClosed: Promise<void> | undefined;
    handler = (_req, res) => {
      connectionClosed = closed(res);
      res.writeHead(200, { 'content-length': String(10 * 1024 * 1024) });
      res.write(Buffer.alloc(1024));
    };
    const error = await failure(downloadAttachment(`${base}/big.png`, options({ maxBytes: 64 * 1024 })));
    expect(error.reason).toBe('too_large');
    await connectionClosed;
  });

  it('stops reading a chunked body as soon as it passes the cap', async () => {
    // 32 MiB without Content-Length: a client that ignored the cap would succeed after buffering all of it.
    const total = 32 * 1024 * 1024;
    const chunk = Buffer.alloc(16 * 1024, 7);
    let finishedWhenClosed: boolean | undefined;
    let connectionClosed: Promise<void> | undefined;
    handler = (_req, res) => {
      connectionClosed = closed(res).then(() => {
        finishedWhenClosed = res.writableFinished;
      });
      res.writeHead(200, { 'content-type': 'image/png' });
      let served = 0;
      const pump = (): void => {
        while (!res.destroyed && served < total) {
          served += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        if (!res.destroyed) res.end();
      };
      pump();
    };
    const error = await failure(downloadAttachment(`${base}/endless.png`, options({ maxBytes: 100_000 })));
    expect(error.reason).toBe('too_large');
    await connectionClosed;
    expect(finishedWhenClosed).toBe(false);
  });

  it('asks admit for the whole Content-Length before holding any of it, and for the running total without one', async () => {
    const body = Buffer.alloc(40_000, 3);
    handler = (_req, res) => {
      // Not kept alive: afterEach closes the server's connections under the agent.
      res.writeHead(200, { 'content-length': String(body.length), connection: 'close' });
      res.end(body);
    };
    const sized: number[] = [];
    expect((await downloadAttachment(`${base}/sized.png`, options({ admit: (bytes) => sized.push(bytes) }))).equals(body)).toBe(true);
    expect(sized).toEqual([body.length]);

    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png', connection: 'close' });
      res.write(body.subarray(0, 20_000));
      setImmediate(() => res.end(body.subarray(20_000)));
    };
    const chunked: number[] = [];
    expect((await downloadAttachment(`${base}/chunked.png`, options({ admit: (bytes) => chunked.push(bytes) }))).equals(body)).toBe(true);
    expect(chunked.at(-1)).toBe(body.length);
    expect(chunked).toEqual([...chunked].sort((a, b) => a - b));
  });

  it('stops, closing the connection, when admit refuses, and passes the refusal on as it is', async () => {
    let connectionClosed: Promise<void> | undefined;
    handler = (_req, res) => {
      connectionClosed = closed(res);
      res.writeHead(200, { 'content-length': String(10 * 1024 * 1024) });
      res.write(Buffer.alloc(1024));
    };
    const refusal = new Error('no room');
    const thrown = await downloadAttachment(
      `${base}/big.png`,
      options({
        maxBytes: 20 * 1024 * 1024,
        admit: () => {
          throw refusal;
        },
      }),
    ).catch((err: unknown) => err);
    expect(thrown).toBe(refusal);
    await connectionClosed;
  });

  it.each([404, 403, 500])('reports HTTP %i as http_status', async (status) => {
    handler = (_req, res) => {
      res.statusCode = status;
      res.end('nope');
    };
    const error = await failure(downloadAttachment(`${base}/gone.png`, options()));
    expect(error.reason).toBe('http_status');
    expect(error.status).toBe(status);
  });

  it('does not follow a redirect', async () => {
    handler = (_req, res) => {
      res.writeHead(302, { location: 'https://evil.example/a.png' });
      res.end();
    };
    const error = await failure(downloadAttachment(`${base}/moved.png`, options()));
    expect(error.reason).toBe('http_status');
    expect(error.status).toBe(302);
    expect(requests).toEqual(['/moved.png']);
  });

  it('times out when the server never answers', async () => {
    handler = () => undefined;
    const error = await failure(downloadAttachment(`${base}/slow.png`, options({ timeoutMs: 50 })));
    expect(error.reason).toBe('timeout');
  });

  it('stops when cancelled through the signal', async () => {
    const controller = new AbortController();
    handler = () => controller.abort();
    const error = await failure(downloadAttachment(`${base}/a.png`, options({ signal: controller.signal })));
    expect(error.reason).toBe('cancelled');
  });

  it('reports a connection failure as network', async () => {
    handler = (req) => req.socket.destroy();
    const error = await failure(downloadAttachment(`${base}/a.png`, options()));
    expect(error.reason).toBe('network');
  });
});

describe('cdnDownloader (the one download the bot builds)', () => {
  it('downloads from the allowed hosts only, to the cap asked, telling admit', async () => {
    const body = Buffer.alloc(2000, 7);
    handler = (_req, res) => res.end(body);
    const download = cdnDownloader({ allowedHosts: [host], dispatcher: agent });
    const admitted: number[] = [];
    expect((await download(`${base}/a.png`, 4096, undefined, (bytes) => admitted.push(bytes))).equals(body)).toBe(true);
    expect(admitted).toEqual([2000]);
    expect((await failure(download(`${base}/a.png`, 1000))).reason).toBe('too_large');
    expect((await failure(cdnDownloader({ allowedHosts: ['cdn.discordapp.com'], dispatcher: agent })(`${base}/a.png`, 4096))).reason).toBe('host_not_allowed');
  });

  it('gives up after its timeout, a minute unless told otherwise', async () => {
    expect(CDN_DOWNLOAD_TIMEOUT_MS).toBe(60_000);
    handler = () => undefined;
    // Its own Agent: no kept-alive socket of an earlier test that the server has since closed.
    const fresh = new Agent();
    const error = await failure(cdnDownloader({ allowedHosts: [host], dispatcher: fresh, timeoutMs: 50 })(`${base}/slow.png`, 4096));
    await fresh.destroy();
    expect(error.reason).toBe('timeout');
  });
});
