/**
 * What the demo's steps work with: the harness, the member who acts, a console line printer, and helpers that
 * dispatch interactions (remembering them for the transcript) and wait for a job's result, printing its timeline
 * (acknowledgements and edits with their time since dispatch) and saving its images.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Harness } from '../test/e2e/harness.js';
import type { EmulatedMessage, InteractionContext, InteractionHandle, SlashOption, UserFixture } from '../test/emulators/discord/index.js';
import { downloadAttachment } from './transcript-files.js';
import { textOf } from '../test/e2e/support.js';

/** An image a step produced, saved in the output folder. */
export interface SavedImage {
  readonly filename: string;
  readonly bytes: Buffer;
  readonly path: string;
}

/** A step's result: the message that holds it (for a later step's buttons) and its images. */
export interface DemoResult {
  readonly message: EmulatedMessage | undefined;
  readonly images: readonly SavedImage[];
}

export interface DemoContext {
  readonly harness: Harness;
  readonly member: UserFixture;
  /** The previous step's result. */
  readonly last: DemoResult | undefined;
  say(line: string): void;
  /** Remembers an interaction for the transcript ("member used /imagine"); returns it. */
  track(handle: InteractionHandle): InteractionHandle;
  /** Dispatches a slash command as the member and tracks it. */
  slash(name: string, options: SlashOption[], extra?: Partial<InteractionContext>): InteractionHandle;
  /** Waits until the job delivered, prints the interaction's timeline and saves its images as `{label}-{filename}`. */
  awaitResult(handle: InteractionHandle, label: string): Promise<DemoResult>;
  /** Waits until the interaction's reply carries images (a card posted without a job), then as awaitResult. */
  awaitCard(handle: InteractionHandle, label: string): Promise<DemoResult>;
}

/** A context over `harness`; `tracked` collects every interaction dispatched through it. */
export function createDemoContext(options: {
  harness: Harness;
  outputDir: string;
  say: (line: string) => void;
  tracked: InteractionHandle[];
}): DemoContext & { last: DemoResult | undefined } {
  const { harness, outputDir, say, tracked } = options;
  const member = harness.discord.fixtures.member;
  const track = (handle: InteractionHandle) => (tracked.push(handle), handle);
  return {
    harness,
    member,
    last: undefined,
    say,
    track,
    slash: (name, slashOptions, extra = {}) => track(harness.discord.slash(name, slashOptions, { user: member, ...extra })),
    awaitResult: async (handle, label) => {
      // The service logs "delivered" once the result is posted, whatever the message looks like (plain or Components
      // V2); that line names the job, and the router's "accepted" line ties the job to the interaction.
      const delivered = harness
        .waitForLog((entry) => entry.msg === 'image job accepted' && entry['interactionId'] === handle.id)
        .then((accepted) => harness.waitForLog((entry) => entry.msg === 'image job delivered' && entry['jobId'] === accepted['jobId']));
      await within(RESULT_TIMEOUT_MS, delivered, handle);
      return saved(handle, label);
    },
    awaitCard: async (handle, label) => {
      await within(
        RESULT_TIMEOUT_MS,
        // A card with images is a new message under the reply (real Discord refuses the edit: discord-api-docs#7529).
        handle.waitFor((x) => [...x.edits, ...x.followUps].some((e) => e.status === 200 && e.files.length > 0)),
        handle,
      );
      return saved(handle, label);
    },
  };

  async function saved(handle: InteractionHandle, label: string): Promise<DemoResult> {
    printTimeline(handle, say);
    const message = handle.lastMessage();
    const images: SavedImage[] = [];
    for (const attachment of message?.attachments ?? []) {
      const bytes = await downloadAttachment(attachment);
      const path = join(outputDir, `${label}-${attachment.filename}`);
      writeFileSync(path, bytes);
      images.push({ filename: attachment.filename, bytes, path });
    }
    return { message, images };
  }
}

/** How long a step waits for its result: far beyond the demo's few seconds, so only a stuck job fails. */
const RESULT_TIMEOUT_MS = 60_000;

/** `promise`, or an error after `ms` that says what `handle` recorded (a missed acknowledgement, a refused edit). */
async function within<T>(ms: number, promise: Promise<T>, handle: InteractionHandle): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const recorded = [
        ...handle.acks.map((a) => `ack type ${a.type}: ${a.status}${a.errorCode === undefined ? '' : ` (code ${a.errorCode})`}`),
        ...[...handle.edits, ...handle.followUps].map((e) => `${e.method} ${e.status}${e.errorCode === undefined ? '' : ` (code ${e.errorCode})`}`),
      ];
      reject(new Error(`no result for interaction ${handle.id} within ${ms} ms; recorded: ${recorded.join(', ') || 'nothing'}`));
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Every acknowledgement, edit of the reply and post under it (the cards) of `handle`, in order, with its time since dispatch. */
function printTimeline(handle: InteractionHandle, say: (line: string) => void): void {
  const since = (t: number) => `+${Math.round(t - handle.dispatchedAt)} ms`.padStart(9);
  for (const ack of handle.acks) say(`  ${since(ack.receivedAt)}  acknowledged (type ${ack.type}${ack.type === 5 ? ': "thinking…"' : ''})`);
  const writes = [...handle.edits.map((e) => ['edit', e] as const), ...handle.followUps.map((e) => ['card', e] as const)];
  for (const [kind, write] of writes.sort((a, b) => a[1].receivedAt - b[1].receivedAt)) {
    const text = textOf(write.payload).split('\n')[0];
    const files = write.files.length > 0 ? ` [${write.files.map((f) => `${f.filename} ${(f.bytes.length / 1024).toFixed(0)} KiB`).join(', ')}]` : '';
    say(`  ${since(write.receivedAt)}  ${kind} ${write.status}: ${text}${files}`);
  }
}
