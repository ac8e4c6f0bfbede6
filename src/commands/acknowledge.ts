/**
 * Acknowledging without waiting: the deferred reply ("thinking…") is sent at once, within Discord's 3 seconds,
 * but not awaited, so downloading references, reserving quota and sending the gateway request overlap its round
 * trip (around 100 ms against real Discord). Its outcome is kept in the context: the responder awaits it before
 * its first edit, a failed acknowledgement cancels the job (and refunds it), and the router awaits it before
 * answering an error.
 */
import type { RepliableInteraction } from 'discord.js';
import type { InteractionContext } from './command.js';

/** Sends the public deferred acknowledgement and records it in `ctx` without waiting for it. */
export function deferInBackground(interaction: RepliableInteraction, ctx: InteractionContext): void {
  const pending = interaction.deferReply().then(() => undefined);
  // Handled by whoever awaits ctx.acknowledgement; without this a failure before then would be "unhandled".
  pending.catch(() => undefined);
  ctx.acknowledgement = pending;
}
