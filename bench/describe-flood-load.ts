/**
 * The describe-flood scenario's members, run in the Discord emulator's process: `floodMembers` members keep
 * describing one large image (each first fires `burst` describes at once, then describes again as soon as their
 * last one has settled), while another member runs `edits` edits of a small reference one after another. Without
 * the flood (`flood: false`) only the edits run: the same edits' end-to-end times are the comparison.
 */
import sharp from 'sharp';
import { customIds, resultPost, settled } from '../test/e2e/support.js';
import type { DiscordEmulator, InteractionHandle, UserFixture } from '../test/emulators/discord/index.js';

export interface DescribeFloodSpec {
  floodMembers: number;
  /** Describes each flooding member fires at once at the start (one runs, the rest are refused). */
  burst: number;
  /** Width and height of the described image (a noisy PNG stored uncompressed: width × height × 3 bytes and more). */
  imageWidth: number;
  imageHeight: number;
  edits: number;
  timeoutMs: number;
  flood: boolean;
}

export interface DescribeFloodOutcome {
  /** Each edit's time from dispatch to its result received (ms); null when it did not come. */
  editMs: (number | null)[];
  imageBytes: number;
  describesAnswered: number;
  describesRefused: number;
  describesUnsettled: number;
}

const answered = (h: InteractionHandle) => h.edits.some((e) => e.status === 200 && customIds(e.payload).length > 0);

/** Runs the load; `flooders` describe, `editor` edits. */
export async function describeFloodLoad(
  discord: DiscordEmulator,
  flooders: UserFixture[],
  editor: UserFixture,
  spec: DescribeFloodSpec,
): Promise<DescribeFloodOutcome> {
  const image = await sharp({
    create: { width: spec.imageWidth, height: spec.imageHeight, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .png({ compressionLevel: 0 })
    .toBuffer();
  const reference = await sharp({
    create: { width: 1024, height: 1024, channels: 3, background: '#646464', noise: { type: 'gaussian', mean: 100, sigma: 20 } },
  })
    .png()
    .toBuffer();
  // Stored once: every describe points at the same upload.
  const attachment = discord.uploadAttachment(image, 'large.png', 'image/png');
  const describes: InteractionHandle[] = [];
  const describe = async (user: UserFixture) => {
    const handle = discord.slash('describe', [{ name: 'image', type: 11, value: attachment.id }], { user });
    describes.push(handle);
    await handle.waitFor((h) => answered(h) || settled(h), spec.timeoutMs).catch(() => undefined);
  };
  const state = { stop: !spec.flood };
  const floods = flooders.map(async (user) => {
    if (!spec.flood) return;
    await Promise.all(Array.from({ length: spec.burst }, () => describe(user)));
    while (!state.stop) await describe(user);
  });
  const editMs: (number | null)[] = [];
  for (let i = 0; i < spec.edits; i++) {
    const attachment = discord.uploadAttachment(reference, `ref-${i}.png`, 'image/png');
    const handle = discord.slash(
      'edit',
      [
        { name: 'prompt', type: 3, value: `make it night, take ${i}` },
        { name: 'image', type: 11, value: attachment.id },
      ],
      { user: editor },
    );
    await handle.waitFor((h) => resultPost(h) !== undefined || settled(h), spec.timeoutMs).catch(() => undefined);
    const result = resultPost(handle);
    editMs.push(result ? result.receivedAt - handle.dispatchedAt : null);
  }
  state.stop = true;
  await Promise.all(floods);
  return {
    editMs,
    imageBytes: image.length,
    describesAnswered: describes.filter(answered).length,
    describesRefused: describes.filter((h) => !answered(h) && settled(h)).length,
    describesUnsettled: describes.filter((h) => !answered(h) && !settled(h)).length,
  };
}
