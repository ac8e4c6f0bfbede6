/**
 * An ImageUpload that records what it is written and how often it is abandoned; it can refuse images from an index on.
 */
import type { ImageUpload } from '../../src/ports/responder.js';

export class RecordingUpload implements ImageUpload {
  /** Each write: the image index and its bytes as text. */
  readonly writes: [number, string][] = [];
  readonly images: Buffer[] = [];
  abandoned = 0;
  refuseFrom = Number.POSITIVE_INFINITY;

  write(index: number, bytes: Buffer): boolean {
    if (index >= this.refuseFrom) return false;
    this.writes.push([index, bytes.toString()]);
    return true;
  }

  end(_index: number, bytes: Buffer): void {
    this.images.push(bytes);
  }

  abandon(): Promise<void> {
    this.abandoned += 1;
    return Promise.resolve();
  }
}
