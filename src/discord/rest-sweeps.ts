/**
 * What discord.js keeps per interaction, let go once the interaction is done (issue 28). Its REST clients keep one
 * rate-limit handler per route and major parameter, and an interaction webhook's major parameter is
 * `application id/token`: every interaction leaves handlers behind, which the client sweeps only hourly by default
 * (about 1.3 KB per job at 80 jobs/s). Messages the client sees are not kept either: the bot never reads them back.
 */
import { Options, type ClientOptions, type REST, type RESTOptions } from 'discord.js';

/**
 * REST options: idle handlers swept every 10 s, a backstop for those {@link forgetInteractionHandlers} does not reach:
 * a handler still rate-limited when its interaction settles (its bucket's reset not yet passed), or one made by a
 * request after it settled. Every minute, as before, left about a minute of interactions' handlers standing
 * (700 at 80 jobs/s, about 1 MB of live heap in the soak); one sweep is a pass over a few hundred entries.
 */
export const REST_SWEEPS = { handlerSweepInterval: 10_000 } satisfies Partial<RESTOptions>;

/**
 * The client's caches: no messages, and a bounded number of users and members (the bot's own always kept; discord.js
 * asks keepOverLimit only once a cache is full, long after READY has set client.user).
 */
export function boundedCaches(): NonNullable<ClientOptions['makeCache']> {
  return Options.cacheWithLimits({
    ...Options.DefaultMakeCacheSettings,
    MessageManager: 0,
    UserManager: { maxSize: 1_000, keepOverLimit: (user) => user.id === user.client.user.id },
    GuildMemberManager: { maxSize: 200, keepOverLimit: (member) => member.id === member.client.user.id },
  });
}

/** Drops the idle rate-limit handlers of one interaction's webhook routes from each REST client. */
export function forgetInteractionHandlers(rests: readonly REST[], interaction: { applicationId: string; token: string }): void {
  const suffix = `:${interaction.applicationId}/${interaction.token}`;
  for (const rest of rests) rest.handlers.sweep((handler) => handler.inactive && handler.id.endsWith(suffix));
}
