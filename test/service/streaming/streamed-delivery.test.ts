/**
 * The streamed delivery as one seam: with it, the job answers the gateway call's `buffer` events with leased
 * Buffers and feeds its image bytes to the responder's upload; without it (STREAM_DELIVERIES=false), the job
 * supplies no Buffer and opens no upload at all.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FairQueue } from '../../../src/service/fair-queue.js';
import { ImageService } from '../../../src/service/image-service.js';
import type { ImageJob } from '../../../src/core/jobs.js';
import type { ImageUpload } from '../../../src/ports/responder.js';
import { StreamedDelivery } from '../../../src/service/streaming/streamed-delivery.js';
import { openStorage, type Storage } from '../../../src/storage/open-storage.js';
import { FakeGateway } from '../../fakes/fake-gateway.js';
import { FakeResponder } from '../../fakes/fake-responder.js';
import { flatPng } from '../../fakes/images.js';
import { imageResult, imagineJob } from '../../fakes/jobs.js';
import { memoryLogger } from '../../fakes/memory-logger.js';
import { RecordingUpload } from '../../fakes/recording-upload.js';

const opened: Storage[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

/** A responder that can open a RecordingUpload and remembers what deliver() was handed. */
class UploadingResponder extends FakeResponder {
  readonly opens: { job: ImageJob; expectedImages: number }[] = [];
  readonly upload = new RecordingUpload();
  handed: ImageUpload | undefined;
  openUpload(job: ImageJob, options: { expectedImages: number }): ImageUpload {
    this.opens.push({ job, expectedImages: options.expectedImages });
    return this.upload;
  }
  override async deliver(delivery: Parameters<FakeResponder['deliver']>[0], upload?: ImageUpload): Promise<{ messageIds: string[] }> {
    this.handed = upload;
    return super.deliver(delivery);
  }
}

async function serviceWith(streaming: StreamedDelivery | undefined) {
  const { logger } = memoryLogger();
  const storage = await openStorage({ url: 'memory://', defaults: { limit: 10, period: 'day' }, jobLeaseMs: 600_000, logger });
  opened.push(storage);
  const gateway = new FakeGateway();
  const service = new ImageService({
    gateway,
    logger,
    holds: {
      quotas: storage.quotas,
    },
    produce: {
      queue: new FairQueue(),
      download: async () => Buffer.alloc(0),
      streaming,
    },
  });
  return { gateway, service };
}

describe('the streamed delivery seam', () => {
  it('feeds the answer to the upload it opened and hands that upload to deliver()', async () => {
    const { gateway, service } = await serviceWith(new StreamedDelivery());
    const image = await flatPng(16, 16);
    gateway.next(async (_request, options) => {
      const supplied = await options.buffer(image.bytes.length);
      if (!supplied) throw new Error('the job supplied no Buffer to decode into');
      const bytes = supplied.subarray(0, image.bytes.length);
      image.bytes.copy(bytes);
      options.data(0, bytes);
      options.end(0, bytes);
      return imageResult([{ ...image, bytes }]);
    });
    const responder = new UploadingResponder();
    await service.run(imagineJob({ prompt: 'streamed', n: 1 }), responder);
    expect(responder.opens.map((o) => o.expectedImages)).toEqual([1]);
    expect(responder.upload.writes.map(([index]) => index)).toEqual([0]);
    expect(responder.handed).toBe(responder.upload);
    expect(responder.upload.abandoned).toBe(0);
  });

  it('abandons the upload when the job fails after the answer arrived', async () => {
    const { gateway, service } = await serviceWith(new StreamedDelivery());
    const image = await flatPng(16, 16);
    gateway.next(async (_request, options) => {
      options.data(0, image.bytes);
      options.end(0, image.bytes);
      return imageResult([image]);
    });
    const responder = new UploadingResponder();
    responder.deliverError = new Error('Discord is down');
    await expect(service.run(imagineJob({ prompt: 'fails' }), responder)).rejects.toThrow();
    expect(responder.upload.abandoned).toBeGreaterThan(0);
  });

  it('is bypassed entirely without a StreamedDelivery: no Buffer supplied, no upload', async () => {
    const { gateway, service } = await serviceWith(undefined);
    const image = await flatPng(16, 16);
    const supplied: (Buffer | undefined)[] = [];
    gateway.next(async (_request, options) => {
      supplied.push(await options.buffer(image.bytes.length));
      options.data(0, image.bytes);
      options.end(0, image.bytes);
      return imageResult([image]);
    });
    const responder = new UploadingResponder();
    await service.run(imagineJob({ prompt: 'plain' }), responder);
    expect(supplied).toEqual([undefined]);
    expect(responder.opens).toEqual([]);
    expect(responder.handed).toBeUndefined();
    expect(responder.deliveries).toHaveLength(1);
  });
});

describe('JobStream', () => {
  it('gives its Buffers back to the pool when it is closed, and the pool keeps them for the next job', async () => {
    const streaming = new StreamedDelivery({ idleBufferBytes: 1_000 });
    const first = streaming.forJob({ openUpload: () => undefined, maxFileBytes: 1_000 });
    const taken = first.buffer(800);
    expect(streaming.idleBufferBytes).toBe(0);
    await first.close(true);
    expect(streaming.idleBufferBytes).toBe(800);
    const second = streaming.forJob({ openUpload: () => undefined, maxFileBytes: 1_000 });
    expect(second.buffer(700)).toBe(taken);
    await second.close(false);
  });
});
