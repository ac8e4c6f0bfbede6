import { describe, expect, it } from 'vitest';
import { describeUserError, UserFacingError, type UserErrorIdentifier } from '../../src/errors.js';
import { AttachmentDownloadError, type AttachmentDownloadFailure } from '../../src/core/attachment-download.js';
import { toUserFacingError } from '../../src/service/error-mapping.js';
import { QueueCancelledError, QueueClosedError } from '../../src/service/fair-queue.js';
import { GatewayCancelledError, GatewayError, GatewayTimeoutError } from '../../src/gateway/errors.js';
import { ImageInputError, validateGenerateRequest } from '../../src/core/image-rules.js';
import { StorageCorruptError, StorageUnavailableError } from '../../src/storage/errors.js';
import { optionNameOf } from '../../src/commands/option-names.js';
import { english } from '../support/phrases.js';

const MODELS = ['gpt-image-1', 'dall-e-3'];
const map = (err: unknown): unknown => toUserFacingError(err, () => MODELS);

function mapped(err: unknown): UserFacingError {
  const result = map(err);
  if (!(result instanceof UserFacingError)) throw new Error(`expected a UserFacingError for ${String(err)}`);
  return result;
}

function inputError(request: Parameters<typeof validateGenerateRequest>[0]): ImageInputError {
  try {
    validateGenerateRequest(request);
  } catch (err) {
    if (err instanceof ImageInputError) return err;
  }
  throw new Error('expected an ImageInputError');
}

describe('toUserFacingError', () => {
  it('passes a UserFacingError through unchanged', () => {
    const error = new UserFacingError('quota.blocked');
    expect(map(error)).toBe(error);
  });

  it('returns anything unrecognised unchanged, so the router treats it as unexpected', () => {
    const bug = new TypeError('cannot read properties of undefined');
    expect(map(bug)).toBe(bug);
    expect(map('a string')).toBe('a string');
  });

  it.each<[string, Parameters<typeof validateGenerateRequest>[0], string, string]>([
    ['compression with png', { prompt: 'x', outputFormat: 'png', outputCompression: 50 }, 'outputCompression', 'compression'],
    ['eleven images', { prompt: 'x', n: 11 }, 'n', 'count'],
    ['a bad size', { prompt: 'x', size: { width: 999, height: 999 } }, 'size', 'size'],
    ['transparent jpeg', { prompt: 'x', background: 'transparent', outputFormat: 'jpeg' }, 'background', 'background'],
  ])(
    'GIVEN %s THEN input.invalid naming the request field (%s), which the commands word as the option the member typed (%s)',
    (_name, request, field, option) => {
      const cause = inputError(request);
      const error = mapped(cause);
      expect(error.identifier).toBe('input.invalid');
      expect(error.context.param).toBe(field);
      expect(optionNameOf(field)).toBe(option);
      expect(error.context.allowed).toBe(cause.allowed);
      expect(error.cause).toBe(cause);
    },
  );

  it("words a service-side input error once, naming the option through the commands' naming", () => {
    const error = mapped(inputError({ prompt: 'x', outputFormat: 'png', outputCompression: 50 }));
    const text = describeUserError(error, 'ref', optionNameOf);
    expect(text).toMatch(/^That compression doesn't work\. Allowed: only with jpeg or webp output\./);
    expect(text).not.toContain('output_compression');
    expect(text).not.toContain('outputCompression');
    // The service itself knows no option names: without the commands' naming, the field shows.
    expect(describeUserError(error, 'ref')).toMatch(/^That outputCompression doesn't work\./);
  });

  it.each<AttachmentDownloadFailure>(['host_not_allowed', 'too_large', 'http_status', 'timeout', 'network', 'cancelled'])(
    'GIVEN a download that failed with %s THEN input.attachmentInvalid with member-facing detail',
    (reason) => {
      const error = mapped(new AttachmentDownloadError(reason, `internal: https://cdn.example/${reason}?sig=secret`));
      expect(error.identifier).toBe('input.attachmentInvalid');
      expect(english(error.context.detail)).toEqual(expect.any(String));
      expect(english(error.context.detail)).not.toContain('secret');
    },
  );

  it('GIVEN a download cut off at its cap THEN the detail names the cap', () => {
    const error = mapped(new AttachmentDownloadError('too_large', 'Attachment is larger than 8388608 bytes', { maxBytes: 8 * 1024 * 1024 }));
    expect(english(error.context.detail)).toBe('it is larger than 8 MB');
  });

  it.each([new QueueClosedError('closed'), new GatewayCancelledError()])('GIVEN %s THEN job.cancelled', (err) => {
    expect(mapped(err).identifier).toBe('job.cancelled');
  });

  it('GIVEN a job cancelled through its ticket (its acknowledgement failed) THEN job.unacknowledged', () => {
    expect(mapped(new QueueCancelledError('cancelled')).identifier).toBe('job.unacknowledged');
  });

  it('maps a gateway timeout to gateway.timedOut', () => {
    expect(mapped(new GatewayTimeoutError('deadline passed', {})).identifier).toBe('gateway.timedOut');
  });

  it.each<[string, GatewayError, UserErrorIdentifier]>([
    ["Cloudflare's 524", new GatewayError('cut', { category: 'timed_out', status: 524, proxy: 'cloudflare' }), 'gateway.cutOff'],
    ['a 524 without Cloudflare headers', new GatewayError('cut', { category: 'timed_out', status: 524 }), 'gateway.timedOut'],
    ['a 504 through Cloudflare', new GatewayError('slow', { category: 'timed_out', status: 504, proxy: 'cloudflare' }), 'gateway.timedOut'],
  ])('GIVEN %s THEN %s', (_name, err, identifier) => {
    expect(mapped(err).identifier).toBe(identifier);
  });

  it('tells the member that a cut-off generation finishes sooner at a lower quality or smaller size, and cost nothing', () => {
    const text = describeUserError(new UserFacingError('gateway.cutOff'), 'r', undefined, 'en');
    expect(text).toMatch(/cut this generation off.*lower quality or a smaller size finishes sooner.*You were not charged/);
    expect(describeUserError(new UserFacingError('gateway.cutOff'), 'r', undefined, 'de')).toContain('niedrigeren Qualität oder einer kleineren Größe');
  });

  it.each<[string, UserErrorIdentifier, string, string]>([
    ['output_compression', 'gateway.badParameter', 'outputCompression', 'compression'],
    ['output_format', 'gateway.badParameter', 'outputFormat', 'format'],
    ['input_fidelity', 'gateway.badParameter', 'inputFidelity', 'fidelity'],
    ['n', 'gateway.badParameter', 'n', 'count'],
    ['quality', 'gateway.badParameter', 'quality', 'quality'],
    ['partial_images', 'gateway.badParameter', 'partial_images', 'partial_images'],
  ])('GIVEN the gateway refused %s THEN %s naming the field %s, worded as the option %s', (param, identifier, field, option) => {
    const error = mapped(new GatewayError('bad', { category: 'bad_parameter', param }));
    expect(error).toMatchObject({ identifier, context: { param: field } });
    expect(describeUserError(error, 'ref', optionNameOf)).toMatch(new RegExp(`^The image service didn't accept \`${option}\`\\. Try the default for it\\.`));
  });

  it.each([
    ['a long text', 'x'.repeat(41)],
    ['markdown and a mention', '`@everyone` **click** [here](https://evil.example)'],
    ['a fake bot line', 'size\n-# Imagined for <@1>'],
  ])('GIVEN the gateway named %s as the parameter THEN the member reads "one of the options", never its words', (_name, param) => {
    const error = mapped(new GatewayError('bad', { category: 'bad_parameter', param }));
    expect(error.context.param).toBeUndefined();
    expect(describeUserError(error, 'ref', optionNameOf)).toMatch(/^The image service didn't accept one of the options\. Try the default for it\./);
  });

  it('names the models on offer when the model is unknown', () => {
    expect(mapped(new GatewayError('no such model', { category: 'unknown_model' })).context.models).toEqual(MODELS);
  });

  it('maps storage that cannot be reached to storage.unavailable', () => {
    expect(mapped(new StorageUnavailableError('redis://cache: connection refused')).identifier).toBe('storage.unavailable');
  });

  it('tells a member whose usage record is corrupt to ask an admin for a reset', () => {
    const corrupt = new StorageCorruptError('usage', 'unreadable');
    const error = mapped(corrupt);
    expect(error.identifier).toBe('storage.corrupt');
    expect(error.cause).toBe(corrupt);
    expect(describeUserError(error, '1')).toContain('/quota reset');
  });
});
