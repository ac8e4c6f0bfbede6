/**
 * Passes a gateway answer's images to the responder's upload while they are decoded (Responder.openUpload), so
 * posting them overlaps reading them. The upload is only ever a head start: it is opened with the first image
 * bytes, given up as soon as it could not carry the result as is (an image over the destination's file limit, an
 * image it cannot name), and used at the end only when its images are exactly the files to deliver. Otherwise it
 * is abandoned, which posts nothing, and delivery happens the usual way.
 */
import type { DeliveryFile } from '../../core/jobs.js';
import type { ImageUpload } from '../../ports/responder.js';

/** Opens the responder's upload (called with the first image bytes); undefined when it cannot. */
export type OpenUpload = () => ImageUpload | undefined;

/** See the module comment. */
export class UploadFeed {
  private readonly open: OpenUpload;
  private readonly maxFileBytes: number;
  private upload: ImageUpload | undefined;
  private state: 'idle' | 'open' | 'off' = 'idle';
  private imageBytes = 0;
  private image = -1;

  constructor(open: OpenUpload, maxFileBytes: number) {
    this.open = open;
    this.maxFileBytes = maxFileBytes;
  }

  data(index: number, bytes: Buffer): void {
    if (this.state === 'off') return;
    if (this.state === 'idle') {
      this.upload = this.open();
      this.state = this.upload ? 'open' : 'off';
      if (!this.upload) return;
    }
    if (index !== this.image) {
      this.image = index;
      this.imageBytes = 0;
    }
    this.imageBytes += bytes.length;
    // Too large to post as it is: it will be re-encoded (or dropped) after the answer, so the head start is lost.
    if (this.imageBytes > this.maxFileBytes || !this.upload?.write(index, bytes)) this.giveUp();
  }

  end(index: number, bytes: Buffer): void {
    if (this.state === 'open') this.upload?.end(index, bytes);
  }

  /**
   * The upload to complete with `files`, when it carries exactly those bytes in that order; otherwise (or with no
   * files: the job failed) abandons it and resolves once it has stopped.
   */
  async settle(files: readonly DeliveryFile[] | undefined): Promise<ImageUpload | undefined> {
    const upload = this.upload;
    if (!upload) return undefined;
    const images = upload.images;
    const same = files !== undefined && this.state === 'open' && images.length === files.length && files.every((file, i) => file.bytes === images[i]);
    if (same) return upload;
    this.state = 'off';
    await upload.abandon();
    return undefined;
  }

  private giveUp(): void {
    this.state = 'off';
    // Not awaited: abandon() never rejects (ImageUpload's contract), and settle() awaits it again (idempotent) before delivering.
    void this.upload?.abandon();
  }
}
