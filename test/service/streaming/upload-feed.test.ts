/**
 * The feed between the gateway's decoded images and the responder's upload: it opens the upload with the first
 * bytes, gives it up when an image outgrows the file limit or the upload refuses, and hands it over at the end only
 * when it carries exactly the files to deliver; otherwise it abandons it.
 */
import { describe, expect, it } from 'vitest';
import type { DeliveryFile } from '../../../src/core/jobs.js';
import type { ImageUpload } from '../../../src/ports/responder.js';
import { UploadFeed } from '../../../src/service/streaming/upload-feed.js';
import { RecordingUpload } from '../../fakes/recording-upload.js';

const file = (bytes: Buffer): DeliveryFile => ({ bytes, format: 'png', width: 1, height: 1 });

function feedWith(upload: ImageUpload | undefined, maxFileBytes = 100): { feed: UploadFeed; opened: () => number } {
  let opened = 0;
  const feed = new UploadFeed(() => {
    opened += 1;
    return upload;
  }, maxFileBytes);
  return { feed, opened: () => opened };
}

describe('UploadFeed', () => {
  it('opens the upload once, with the first bytes, and hands it over when it carries exactly the files', async () => {
    const upload = new RecordingUpload();
    const { feed, opened } = feedWith(upload);
    expect(opened()).toBe(0);
    const first = Buffer.from('ab');
    const second = Buffer.from('c');
    feed.data(0, first.subarray(0, 1));
    feed.data(0, first.subarray(1));
    feed.end(0, first);
    feed.data(1, second);
    feed.end(1, second);
    expect(opened()).toBe(1);
    expect(upload.writes).toEqual([
      [0, 'a'],
      [0, 'b'],
      [1, 'c'],
    ]);
    expect(await feed.settle([file(first), file(second)])).toBe(upload);
    expect(upload.abandoned).toBe(0);
  });

  it('abandons the upload when the files differ from what it carries (re-encoded, dropped, reordered)', async () => {
    const images = [Buffer.from('one'), Buffer.from('two')];
    for (const files of [[file(images[0]!)], [file(Buffer.from('one')), file(images[1]!)], [file(images[1]!), file(images[0]!)]]) {
      const upload = new RecordingUpload();
      const { feed } = feedWith(upload);
      images.forEach((bytes, i) => {
        feed.data(i, bytes);
        feed.end(i, bytes);
      });
      expect(await feed.settle(files)).toBeUndefined();
      expect(upload.abandoned).toBe(1);
    }
  });

  it('gives up as soon as an image outgrows the file limit, and stops feeding it', async () => {
    const upload = new RecordingUpload();
    const { feed } = feedWith(upload, 4);
    feed.data(0, Buffer.from('abc'));
    feed.data(0, Buffer.from('de'));
    feed.data(0, Buffer.from('f'));
    expect(upload.abandoned).toBe(1);
    expect(upload.writes).toEqual([[0, 'abc']]);
    expect(await feed.settle([file(Buffer.from('abcdef'))])).toBeUndefined();
  });

  it('gives up when the upload refuses an image', async () => {
    const upload = new RecordingUpload();
    upload.refuseFrom = 1;
    const { feed } = feedWith(upload);
    feed.data(0, Buffer.from('a'));
    feed.end(0, Buffer.from('a'));
    feed.data(1, Buffer.from('b'));
    feed.data(2, Buffer.from('c'));
    expect(upload.abandoned).toBe(1);
    expect(upload.writes).toEqual([[0, 'a']]);
    expect(await feed.settle([file(upload.images[0]!)])).toBeUndefined();
  });

  it('abandons the upload when the job failed (no files)', async () => {
    const upload = new RecordingUpload();
    const { feed } = feedWith(upload);
    feed.data(0, Buffer.from('a'));
    expect(await feed.settle(undefined)).toBeUndefined();
    expect(upload.abandoned).toBe(1);
  });

  it('asks only once when the responder cannot upload now, and then settles to nothing', async () => {
    const { feed, opened } = feedWith(undefined);
    feed.data(0, Buffer.from('a'));
    feed.data(0, Buffer.from('b'));
    feed.end(0, Buffer.from('ab'));
    expect(opened()).toBe(1);
    expect(await feed.settle([file(Buffer.from('ab'))])).toBeUndefined();
  });
});
