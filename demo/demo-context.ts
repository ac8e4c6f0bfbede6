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

/** One thing the member (or the admin) does. */
export interface DemoStep {
  /** A short name: the saved images are called `{name}-{filename}`, and later steps find the result by it. */
  readonly name: string;
  /** The step's result, or undefined for a side step (a setting) that leaves the previous result the one to build on. */
  run(ctx: DemoContext): Promise<DemoResult | undefined>;
}

export interface DemoContext {
  readonly harness: Harness;
  readonly member: UserFixture;
  /** The server's admin, for the steps that change its settings or read its usage. */
  readonly admin: UserFixture;
  /** The previous step's result (side steps, such as a setting, leave it as it was). */
  readonly last: DemoResult | undefined;
  /** Every result so far, by step name (a later step can use an earlier image). */
  readonly results: ReadonlyMap<string, DemoResult>;
  say(line: string): void;
  /** Remembers an interaction for the transcript ("member used /imagine"); returns it. */
  track(handle: InteractionHandle): InteractionHandle;
  /** Dispatches a slash command as the member and tracks it. */
  slash(name: string, options: SlashOption[], extra?: Partial<InteractionContext>): InteractionHandle;
  /** Waits until the job delivered, prints the interaction's timeline and saves its images as `{label}-{filename}`. */
  awaitResult(handle: InteractionHandle, label: string): Promise<DemoResult>;
  /** Waits until the interaction's reply carries images (a card posted without a job), then as awaitResult. */
  awaitCard(handle: InteractionHandle, label: string): Promise<DemoResult>;
  /** Waits for an answer that runs no job (a reply, or the edit of a deferred one), prints its timeline, saves its images. */
  awaitAnswer(handle: InteractionHandle, label: string): Promise<DemoResult>;
  /** Saves the images of `message` (a post the bot made elsewhere, such as the showcase's) as `{label}-{filename}`. */
  saveImages(message: EmulatedMessage | undefined, label: string): Promise<DemoResult>;
}

/** A context over `harness`; `tracked` collects every interaction dispatched through it. */
export function createDemoContext(options: {
  harness: Harness;
  outputDir: string;
  say: (line: string) => void;
  tracked: InteractionHandle[];
}): DemoContext & { last: DemoResult | undefined; results: Map<string, DemoResult> } {
  const { harness, outputDir, say, tracked } = options;
  const { member, admin } = harness.discord.fixtures;
  const track = (handle: InteractionHandle) => (tracked.push(handle), handle);
  return {
    harness,
    member,
    admin,
    last: undefined,
    results: new Map(),
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
    awaitAnswer: async (handle, label) => {
      // A reply at once (type 4), or the edit of a deferred one; a modal (type 9) is no answer.
      await within(
        RESULT_TIMEOUT_MS,
        handle.waitFor((x) => x.acks.some((a) => a.type === 4) || x.edits.some((e) => e.status === 200)),
        handle,
      );
      return saved(handle, label);
    },
    saveImages: (message, label) => savedImages(message, label),
  };

  async function saved(handle: InteractionHandle, label: string): Promise<DemoResult> {
    printTimeline(handle, say);
    return savedImages(handle.lastMessage(), label);
  }

  async function savedImages(message: EmulatedMessage | undefined, label: string): Promise<DemoResult> {
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

/** The custom id of the button of `message` whose action code is `code` (`u0`, `vs`, `hd`, `fv`…). */
export function buttonOf(message: EmulatedMessage | undefined, code: string): { message: EmulatedMessage; customId: string } {
  const ids: string[] = [];
  const visit = (component: { custom_id?: string; components?: unknown[] }) => {
    if (typeof component.custom_id === 'string') ids.push(component.custom_id);
    for (const child of component.components ?? []) visit(child as typeof component);
  };
  for (const component of (message?.components ?? []) as { custom_id?: string }[]) visit(component);
  const customId = ids.find((id) => id.endsWith(`:${code}`));
  if (!message || !customId) throw new Error(`the previous result has no ${code} button`);
  return { message, customId };
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
