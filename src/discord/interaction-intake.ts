/**
 * The bot's intake of interactions: each one is routed (or, once the bot is stopping, refused), counted while it is
 * in flight, and its REST rate-limit handlers are dropped when it settles (rest-sweeps.ts). Shutdown waits for the
 * interactions in flight, up to its grace period.
 */
import { Events, MessageFlags, type Client, type Interaction, type REST } from 'discord.js';
import { t } from '../i18n/translate.js';
import { forgetInteractionHandlers } from './rest-sweeps.js';

/** Options of {@link InteractionIntake}. */
export interface InteractionIntakeOptions {
  client: Client;
  /** The REST clients whose per-interaction handlers are dropped as each interaction settles. */
  rests: readonly REST[];
  /** Answers every failure itself and never rejects. */
  route: (interaction: Interaction) => Promise<void>;
  /** Told of each interaction as it arrives (the metrics). */
  observe: (interaction: Interaction) => void;
}

/** See the module comment. */
export class InteractionIntake {
  readonly #options: InteractionIntakeOptions;
  readonly #inFlight = new Set<Promise<void>>();
  #stopping = false;

  constructor(options: InteractionIntakeOptions) {
    this.#options = options;
    options.client.on(Events.InteractionCreate, (interaction) => {
      this.#take(interaction);
    });
  }

  /** How many interactions are in flight. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** Refuses every later interaction; false when the intake was already stopping. */
  stop(): boolean {
    if (this.#stopping) return false;
    this.#stopping = true;
    return true;
  }

  /** Waits for the interactions in flight for up to `ms`; resolves with how many had not settled by then. */
  async settle(ms: number): Promise<number> {
    const work = [...this.#inFlight];
    let settled = 0;
    const all = Promise.allSettled(work.map((w) => w.finally(() => (settled += 1))));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
    return work.length - settled;
  }

  #take(interaction: Interaction): void {
    this.#options.observe(interaction);
    const work = this.#stopping ? refuseWhileStopping(interaction) : this.#options.route(interaction);
    this.#inFlight.add(work);
    // Not awaited: route() and refuseWhileStopping() answer every failure themselves and never reject; settle() awaits them.
    void work.finally(() => {
      this.#inFlight.delete(work);
      if ('token' in interaction) forgetInteractionHandlers(this.#options.rests, interaction);
    });
  }
}

async function refuseWhileStopping(interaction: Interaction): Promise<void> {
  if (!interaction.isRepliable()) return;
  await interaction.reply({ content: t(interaction.locale, 'error.restarting'), flags: MessageFlags.Ephemeral }).catch(() => undefined);
}
