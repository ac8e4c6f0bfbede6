/**
 * The soak scenario's members, run in the Discord emulator's process: one round of `jobs` mixed jobs, `concurrency`
 * at a time, from `members` members. Each job is, in turn: /imagine, /edit on a small reference, Vary (Subtle) or
 * Zoom out 2× on an earlier result card, /describe of the reference, or /imagine with a size the bot refuses. The
 * gateway failures and refusals are the orchestrator's: it queues them at the gateway before each round, and the
 * first image requests of the round get them.
 */
import sharp from 'sharp';
import { customIds, resultPost, settled } from '../test/e2e/support.js';
import type { Attachment, DiscordEmulator, EmulatedMessage, InteractionHandle, UserFixture } from '../test/emulators/discord/index.js';

export interface SoakRoundSpec {
  jobs: number;
  concurrency: number;
  /** Offset of this round's first job in the whole soak (prompts and the job mix go on where the last round ended). */
  first: number;
  timeoutMs: number;
}

export interface SoakRoundOutcome {
  delivered: number;
  /** Answered with an error (the bot's refusals and the gateway's failures and refusals). */
  refused: number;
  unsettled: number;
  /** Jobs per kind. */
  kinds: Record<string, number>;
}

const KINDS = ['imagine', 'edit', 'imagine', 'vary', 'describe', 'imagine', 'zoom', 'edit', 'imagine', 'refused'] as const;
type Kind = (typeof KINDS)[number];

/** Keeps what the rounds share: the reference upload and the last result cards. */
export class SoakLoad {
  private reference: Attachment | undefined;
  private readonly cards: EmulatedMessage[] = [];
  private readonly discord: DiscordEmulator;
  private readonly members: UserFixture[];

  constructor(discord: DiscordEmulator, members: UserFixture[]) {
    this.discord = discord;
    this.members = members;
  }

  async round(spec: SoakRoundSpec): Promise<SoakRoundOutcome> {
    this.reference ??= this.discord.uploadAttachment(
      await sharp({ create: { width: 512, height: 512, channels: 3, background: '#446688' } })
        .png()
        .toBuffer(),
      'reference.png',
      'image/png',
    );
    const outcome: SoakRoundOutcome = { delivered: 0, refused: 0, unsettled: 0, kinds: {} };
    let next = 0;
    const worker = async () => {
      while (next < spec.jobs) {
        const index = spec.first + next++;
        const kind: Kind = KINDS[index % KINDS.length] ?? 'imagine';
        outcome.kinds[kind] = (outcome.kinds[kind] ?? 0) + 1;
        const handle = this.start(kind, index);
        const delivered = (h: InteractionHandle) => (kind === 'describe' ? described(h) : resultPost(h) !== undefined);
        const done = await handle
          .waitFor((h) => delivered(h) || settled(h), spec.timeoutMs)
          .then(() => true)
          .catch(() => false);
        if (!done) outcome.unsettled++;
        else if (delivered(handle)) outcome.delivered++;
        else outcome.refused++;
        const card = resultPost(handle) ? handle.lastMessage() : undefined;
        if (card && kind === 'imagine') this.keep(card);
      }
    };
    await Promise.all(Array.from({ length: spec.concurrency }, worker));
    return outcome;
  }

  private start(kind: Kind, index: number): InteractionHandle {
    const user = this.members[index % this.members.length];
    const reference = this.reference;
    if (!user || !reference) throw new Error('soak: no members or no reference');
    const prompt = { name: 'prompt', type: 3, value: `a lighthouse at dusk, study ${index}` };
    const card = this.cards[index % Math.max(1, this.cards.length)];
    switch (kind) {
      case 'edit':
        return this.discord.slash('edit', [prompt, { name: 'image', type: 11, value: reference.id }], { user });
      case 'describe':
        return this.discord.slash('describe', [{ name: 'image', type: 11, value: reference.id }], { user });
      case 'refused':
        return this.discord.slash('imagine', [prompt, { name: 'size', type: 3, value: '17x9' }], { user });
      case 'vary':
      case 'zoom': {
        const id = card && customIds(card).find((c) => c.endsWith(kind === 'vary' ? ':vs' : ':z2'));
        if (card && id) return this.discord.button(card, id, { user });
        return this.discord.slash('imagine', [prompt, { name: 'size', type: 3, value: '1024x1024' }], { user });
      }
      case 'imagine':
        return this.discord.slash('imagine', [prompt, { name: 'size', type: 3, value: '1024x1024' }], { user });
    }
  }

  /** The last 20 result cards, for Vary and Zoom out. */
  private keep(card: EmulatedMessage): void {
    this.cards.push(card);
    if (this.cards.length > 20) this.cards.shift();
  }
}

/** A /describe answered with its prompts (buttons under the text). */
function described(h: InteractionHandle): boolean {
  return h.edits.some((e) => e.status === 200 && customIds(e.payload).length > 0);
}
