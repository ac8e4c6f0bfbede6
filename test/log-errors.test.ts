/**
 * What an error looks like in the log: a Discord REST error from a failed delivery edit keeps its status, code,
 * method and route, and loses the interaction token and the image bytes of its body.
 */
import { DiscordAPIError } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { redactRoutes } from '../src/log-errors.js';
import { logProblems } from './e2e/harness.js';

const TOKEN = 'aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OkFCQ0RFRg';
const URL_WITH_TOKEN = `https://discord.com/api/v10/webhooks/100000000000000001/${TOKEN}/messages/@original`;

function logged(err: unknown): string[] {
  const lines: string[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } });
  logger.warn({ err }, 'delivery edit failed');
  return lines;
}

describe('errors in the log', () => {
  it('keeps status, code, method and the route of a Discord error, without its token or its body', () => {
    const image = Buffer.alloc(1_000_000, 7);
    const err = new DiscordAPIError({ code: 50035, message: 'Invalid Form Body' }, 50035, 400, 'PATCH', URL_WITH_TOKEN, {
      body: { content: 'a prompt' },
      files: [{ name: 'image.png', data: image }],
    });
    const lines = logged(new Error('delivery failed', { cause: err }));

    expect(lines).toHaveLength(1);
    expect(logProblems(lines, [TOKEN])).toEqual([]);
    const entry = JSON.parse(lines[0] ?? '{}') as { err: { cause: Record<string, unknown> } };
    expect(entry.err.cause).toMatchObject({
      type: 'DiscordAPIError',
      status: 400,
      code: 50035,
      method: 'PATCH',
      url: 'https://discord.com/api/v10/webhooks/100000000000000001/:token/messages/@original',
    });
    expect(entry.err.cause).not.toHaveProperty('requestBody');
  });

  it('replaces the token in webhook and interaction routes wherever they appear in text', () => {
    expect(redactRoutes(`PATCH /api/v10/interactions/123/${TOKEN}/callback failed; see /webhooks/9/${TOKEN}?wait=true`)).toBe(
      'PATCH /api/v10/interactions/123/:token/callback failed; see /webhooks/9/:token?wait=true',
    );
  });

  it('leaves what is not an error as it is', () => {
    const lines = logged({ code: 'E1' });
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ err: { code: 'E1' } });
  });
});

describe('the log scan of the end-to-end harness', () => {
  it('reports a secret and a line over 16 KiB, and nothing else', () => {
    expect(logProblems(['{"msg":"fine"}', `{"msg":"${TOKEN}"}`, `{"msg":"${'x'.repeat(17_000)}"}`], [TOKEN])).toEqual([
      expect.stringMatching(/^line 2 holds 1 secret\(s\): \{"msg":"<secret>"\}/),
      expect.stringMatching(/^line 3 is 17010 bytes/),
    ]);
  });
});
