/**
 * Draws an SVG to PNG in a child process that can be killed (issue 28). sharp's own timeout is checked only between
 * the strips libvips renders, and librsvg may draw a whole document in one strip: a filter-heavy SVG then runs past
 * any timeout, holding one of libuv's threads (sharp runs each pipeline on one) for as long as it lasts. A child
 * process is stopped with SIGKILL at the time limit, whatever librsvg is doing, takes none of this process's libuv
 * threads (a dns.lookup never waits behind a render), and its memory is given back to the system when it ends.
 *
 * The child is plain Node with sharp (`node -e`, sharp resolved from here), an empty environment (no secret reaches
 * it), libvips on one thread (the render takes one core at most), a small JavaScript heap, and sharp's pixel limit.
 * It reads the document on stdin and writes the PNG's width, height and bytes on stdout; its output is read no
 * further than `maxOutputBytes`. It exits on its own a second after its time limit, or as soon as the bot is gone
 * (its parent changes), so a bot killed mid-render leaves no render running. A spawn costs about a tenth of a second: SVG answers are few, and a process kept
 * alive between them would add its memory to the bot's at rest.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

/** The bounds of one drawing. */
export interface RasteriseLimits {
  /** sharp's limitInputPixels: the document is drawn at no more pixels than this. */
  maxPixels: number;
  /** The child is killed after this long. */
  timeoutMs: number;
  /** The PNG is read no further than this. */
  maxOutputBytes: number;
}

/** A drawing. */
export interface Rasterised {
  bytes: Buffer;
  width: number;
  height: number;
}

/** Why a drawing failed: out of time, too large, or refused by librsvg. */
export class RasteriseError extends Error {
  override readonly name = 'RasteriseError';
  readonly reason: 'timeout' | 'too_large' | 'failed';

  constructor(reason: RasteriseError['reason'], message: string) {
    super(message);
    this.reason = reason;
  }
}

const SHARP = createRequire(import.meta.url).resolve('sharp');

const CHILD = `
const sharp = require(${JSON.stringify(SHARP)});
sharp.concurrency(1);
sharp.cache(false);
// Never outlives the bot (a bot killed with SIGKILL cannot kill it) nor its own deadline.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && process.exit(3), 250).unref();
setTimeout(() => process.exit(2), Number(process.argv[2])).unref();
const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', async () => {
  try {
    const { data, info } = await sharp(Buffer.concat(chunks), { limitInputPixels: Number(process.argv[1]) }).png().toBuffer({ resolveWithObject: true });
    const head = Buffer.alloc(8);
    head.writeUInt32BE(info.width, 0);
    head.writeUInt32BE(info.height, 4);
    process.stdout.end(Buffer.concat([head, data]), () => process.exit(0));
  } catch (err) {
    process.stderr.end(String(err && err.message).slice(0, 300), () => process.exit(1));
  }
});
`;

/**
 * Draws `svg` (a document sized as it should be drawn) in a child process within `limits`.
 * @throws RasteriseError
 */
export function rasteriseSvg(svg: Buffer, limits: RasteriseLimits): Promise<Rasterised> {
  return new Promise<Rasterised>((resolve, reject) => {
    const child = spawn(process.execPath, ['--max-old-space-size=64', '-e', CHILD, String(limits.maxPixels), String(limits.timeoutMs + 1_000)], {
      env: {},
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    let failure: RasteriseError | undefined;
    const stop = (reason: RasteriseError['reason'], message: string) => {
      failure ??= new RasteriseError(reason, message);
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop('timeout', `the SVG took longer than ${limits.timeoutMs} ms to draw`), limits.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > limits.maxOutputBytes + 8) stop('too_large', `the drawing is larger than ${limits.maxOutputBytes} bytes`);
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < 300) err += chunk.toString('utf8');
    });
    // A child that exits before reading all of stdin (refused at once) closes the pipe: that is its exit's story.
    child.stdin.on('error', () => undefined);
    child.on('error', (e) => stop('failed', `the SVG renderer could not start: ${e.message}`));
    child.on('close', (code) => {
      clearTimeout(timer);
      const data = Buffer.concat(out);
      if (failure) reject(failure);
      else if (code !== 0 || data.length < 8)
        reject(new RasteriseError('failed', `the SVG renderer failed: ${err.trim().slice(0, 300) || `exit ${String(code)}`}`));
      else resolve({ width: data.readUInt32BE(0), height: data.readUInt32BE(4), bytes: data.subarray(8) });
    });
    child.stdin.end(svg);
  });
}
