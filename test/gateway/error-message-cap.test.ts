/**
 * A gateway's error message is cut before it can reach a log (issue 29): a relay that echoes the request puts prompts
 * and data URLs in `error.message`, up to the 1 MiB error-body cap. Classification still reads the whole message.
 */
import { describe, expect, it } from 'vitest';
import { GatewayHttpError } from '../../src/gateway/errors.js';

describe('GatewayHttpError from a relay that echoes the request', () => {
  const echoed = `invalid request: {"prompt":"a secret prompt","image":"data:image/png;base64,${'A'.repeat(200_000)}"} rejected by our content policy`;
  const error = GatewayHttpError.fromResponse(400, JSON.stringify({ error: { message: echoed, type: 'invalid_request_error' } }), {});

  it('carries at most about 300 characters of the message, saying how long it was', () => {
    expect(error.message.length).toBeLessThan(360);
    expect(error.message).toMatch(
      /^gateway answered 400: invalid request: \{"prompt":"a secret prompt","image":"data:image\/png;base64,A+… \(\d+ characters\)$/,
    );
    expect(error.message).not.toContain('content policy');
  });

  it('still classifies it by the whole message (the refusal is at its end)', () => {
    expect(error.category).toBe('content_rejected');
  });

  it('keeps a short message whole, keys redacted', () => {
    const short = GatewayHttpError.fromResponse(401, JSON.stringify({ error: { message: 'Incorrect API key provided: sk-abcdEFGHijkl' } }), {});
    expect(short.message).toBe('gateway answered 401: Incorrect API key provided: sk-abcd***');
  });
});
