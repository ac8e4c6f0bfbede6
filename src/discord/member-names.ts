/**
 * Members' display names for /usage's chart (issue 32): the server nickname of a member the bot has seen (cached from
 * an interaction or an event), else the account's display name (global name, else username), fetched by id. An id
 * the bot cannot find (an account since deleted) is left out; the chart shows it as its id. Names are member text:
 * the chart treats them as data (core/usage-chart.ts).
 */

/** Where names are found: the parts of an interaction (its client, its guild) that are read. */
export interface NamePlaces {
  client: { users: { fetch: (id: string) => Promise<{ displayName: string }> } };
  guild: { members: { cache: { get: (id: string) => { displayName: string } | undefined } } } | null;
}

/** Display names by id, of those found; fetched at once. */
export async function displayNames(where: NamePlaces, userIds: readonly string[]): Promise<Map<string, string>> {
  const found = await Promise.allSettled(
    userIds.map(async (id): Promise<[string, string]> => {
      const member = where.guild?.members.cache.get(id);
      if (member) return [id, member.displayName];
      const user = await where.client.users.fetch(id);
      return [id, user.displayName];
    }),
  );
  return new Map(found.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : [])));
}
