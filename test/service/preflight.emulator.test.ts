/**
 * The pre-flight rules where they now run, once: the real ImageService over the real GatewayClient against the
 * gateway emulator. A refused request answers the member, reaches no gateway and charges nothing; an accepted one
 * goes out as the rules normalised it. (The gateway client itself sends what it is given: see
 * test/gateway/requests.emulator.test.ts.)
 */
import type { Agent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { optionNameOf } from '../../src/commands/option-names.js';
import { describeUserError, UserFacingError } from '../../src/errors.js';
import { FairQueue } from '../../src/service/fair-queue.js';
import { ImageService } from '../../src/service/image-service.js';
import type { AttachmentRef, ImageJob } from '../../src/core/jobs.js';
import type { GenerateRequest } from '../../src/core/images.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';
import { startGatewayEmulator, type GatewayEmulator } from '../emulators/gateway/index.js';
import { FakeResponder } from '../fakes/fake-responder.js';
import { imagineJob, memberSubject } from '../fakes/jobs.js';
import { ManualClock } from '../fakes/manual-clock.js';
import { silentLogger } from '../fakes/memory-logger.js';
import { clientFor, makeImage } from '../gateway/fixtures.js';

let gw: GatewayEmulator;
let agent: Agent;
let storage: Storage;
let service: ImageService;
/** What the fake download serves, by attachment URL. */
let attachments: Map<string, Buffer>;

beforeEach(async () => {
  gw = await startGatewayEmulator();
  const { client, agent: clientAgent } = clientFor(gw);
  agent = clientAgent;
  const clock = new ManualClock('2025-06-01T12:00:00Z');
  storage = await openStorage({ url: 'memory://', defaults: { limit: 5, period: 'day' }, jobLeaseMs: 60_000, logger: silentLogger, clock });
  attachments = new Map();
  service = new ImageService({
    gateway: client,
    logger: silentLogger,
    clock,
    holds: {
      quotas: storage.quotas,
    },
    produce: {
      queue: new FairQueue(),
      download: async (ref) => {
        const bytes = attachments.get(ref.url);
        if (!bytes) throw new Error(`no attachment at ${ref.url}`);
        return bytes;
      },
      partialImages: 0,
    },
  });
});

afterEach(async () => {
  expect(gw.specViolations).toEqual([]);
  await storage.close();
  await agent.close();
  await gw.close();
});

/** A reference to `bytes`, served by the fake download. */
function attach(filename: string, bytes: Buffer): AttachmentRef {
  const url = `https://cdn.discordapp.com/attachments/1/${attachments.size + 1}/${filename}`;
  attachments.set(url, bytes);
  return { url, filename, size: bytes.length, contentType: 'image/png' };
}

function editJob(request: GenerateRequest, edit: NonNullable<ImageJob['edit']>): ImageJob {
  return { ...imagineJob(request), kind: 'edit', edit };
}

/** Runs the job and returns the UserFacingError it failed with. */
async function refusal(job: ImageJob, responder: FakeResponder): Promise<UserFacingError> {
  const error = await service.run(job, responder).then(
    () => undefined,
    (err: unknown) => err,
  );
  if (error instanceof UserFacingError) return error;
  throw new Error(`expected a UserFacingError, got ${String(error)}`);
}

describe('pre-flight refusals', () => {
  const refusals: [string, () => Promise<ImageJob>, string, string][] = [
    [
      'a bad size',
      async () => imagineJob({ size: { width: 1000, height: 1000 } }),
      'size',
      "That size doesn't work: both sides must be multiples of 16. Allowed: auto, 1024x1024",
    ],
    ['n of 11', async () => imagineJob({ n: 11 }), 'n', "That count doesn't work. Allowed: a whole number from 1 to 10."],
    ['an empty prompt', async () => imagineJob({ prompt: '' }), 'prompt', "That prompt doesn't work. Allowed: 1 to 32,000 characters."],
    ['a long prompt', async () => imagineJob({ prompt: 'x'.repeat(32_001) }), 'prompt', "That prompt doesn't work. Allowed: 1 to 32,000 characters."],
    [
      'transparent jpeg',
      async () => imagineJob({ background: 'transparent', outputFormat: 'jpeg' }),
      'background',
      "That background doesn't work. Allowed: transparent needs png or webp output; jpeg has no transparency.",
    ],
    [
      'compression with png',
      async () => imagineJob({ outputFormat: 'png', outputCompression: 5 }),
      'outputCompression',
      "That compression doesn't work. Allowed: only with jpeg or webp output.",
    ],
    ['an edit without images', async () => editJob({ prompt: 'p' }, { images: [] }), 'images', "That image doesn't work. Allowed: 1 to 16 images."],
    [
      'an edit with a gif',
      async () => editJob({ prompt: 'p' }, { images: [attach('x.png', Buffer.from('GIF89a-not-really'))] }),
      'images',
      "That image doesn't work. Allowed: a png, jpeg, webp image.",
    ],
    [
      'a mask without alpha',
      async () => editJob({ prompt: 'p' }, { images: [attach('a.png', await makeImage('png'))], mask: attach('mask.png', await makeImage('png')) }),
      'mask',
      "That mask doesn't work. Allowed: a PNG with an alpha channel (transparent where the image should change).",
    ],
  ];

  it.each(refusals)('refuses %s, telling the member, before anything reaches the gateway or is charged', async (_name, make, field, text) => {
    const before = await storage.quotas.status(memberSubject());
    const responder = new FakeResponder();

    const error = await refusal(await make(), responder);

    expect(error.identifier).toBe('input.invalid');
    expect(error.context.param).toBe(field);
    expect(describeUserError(error, 'ref', optionNameOf)).toContain(text);
    expect(gw.requests).toEqual([]);
    expect(await storage.quotas.status(memberSubject())).toEqual(before);
    expect(before).toMatchObject({ used: 0, reserved: 0 });
    expect(responder.deliveries).toEqual([]);
  });
});

describe('what the rules send on', () => {
  it('sends transparent with png when no format was given, and charges the image', async () => {
    const responder = new FakeResponder();
    await service.run(imagineJob({ prompt: 'a sticker', background: 'transparent' }), responder);
    expect(gw.imageRequests().at(-1)?.json).toMatchObject({ background: 'transparent', output_format: 'png' });
    expect(responder.deliveries[0]?.files[0]?.format).toBe('png');
    expect(await storage.quotas.status(memberSubject())).toMatchObject({ used: 1, reserved: 0 });
  });

  it('sends an edit whose mask fits, with the size and prompt as the rules spelt them', async () => {
    const job = editJob(
      { prompt: '  make it blue ', size: { width: 1024, height: 1536 } },
      { images: [attach('a.png', await makeImage('png', 64, 48))], mask: attach('mask.png', await makeImage('png', 64, 48, true)) },
    );
    await service.run(job, new FakeResponder());
    const sent = gw.imageRequests().at(-1);
    expect(sent?.path).toBe('/v1/images/edits');
    expect(sent?.form?.fields).toMatchObject({ prompt: 'make it blue', size: '1024x1536' });
    expect(sent?.form?.order).toEqual(['model', 'prompt', 'size', 'image[]', 'mask']);
  });
});
