/**
 * A member's history (issue 18): the jobs delivered to them on one server (or in direct messages), newest first, at
 * most {@link MAX_HISTORY_ENTRIES} and none older than HISTORY_DAYS. Each delivered job adds itself to its member's
 * record in one atomic update of the store (storage/history-store.ts, over the ledger), so several processes never
 * lose an entry. Pure (zod only).
 */
import { z } from 'zod';

/** Entries kept per member and server; a new job pushes the oldest out. */
export const MAX_HISTORY_ENTRIES = 100;

/** One delivered job, as /history lists it and /show finds it. */
export const HistoryEntry = z.object({
  jobId: z.string(),
  kind: z.enum(['imagine', 'edit']),
  prompt: z.string(),
  model: z.string(),
  /** The size asked for (`1024x1536`), null for auto. */
  size: z.string().nullable(),
  images: z.number().int().nonnegative(),
  /** When it was delivered (ms since epoch, the injected clock). */
  createdAt: z.number(),
  /** Where its first message is: the server (null in a direct message), channel and message. */
  guildId: z.string().nullable(),
  channelId: z.string(),
  messageId: z.string(),
  /** The first image as Discord served it at delivery: signed, so it stops working after about a day. */
  imageUrl: z.string().optional(),
  /**
   * The job's moderation level: a `low` result may be shown again only where the server would let it be made (issue
   * 29). Missing in entries recorded before it was kept: /show then treats the result as `low` (fails closed).
   */
  moderation: z.enum(['auto', 'low']).optional(),
  /** The channel the job was asked in (a thread's parent), null in a direct message; missing in older entries. */
  originChannelId: z.string().nullable().optional(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

/** A member's stored history. */
export const HistoryRecord = z.object({ v: z.literal(1), entries: z.array(HistoryEntry) });
export type HistoryRecord = z.infer<typeof HistoryRecord>;

/** Whose history: a member of a server, or a user outside servers (direct messages: `guildId` null). */
export interface HistoryOwner {
  guildId: string | null;
  userId: string;
}

/** The entries of `record` still kept at `keepFrom` (ms since epoch), newest first. */
export function keptEntries(record: HistoryRecord | undefined, keepFrom: number): HistoryEntry[] {
  return (record?.entries ?? []).filter((entry) => entry.createdAt >= keepFrom);
}

/**
 * `record` with `entry` in its place by time (replacing an entry of the same job), newest first, without what is
 * older than `keepFrom` or beyond the newest {@link MAX_HISTORY_ENTRIES}. Jobs of several processes land in any order.
 */
export function withEntry(record: HistoryRecord | undefined, entry: HistoryEntry, keepFrom: number): HistoryRecord {
  const rest = keptEntries(record, keepFrom).filter((e) => e.jobId !== entry.jobId);
  const entries = [entry, ...rest].filter((e) => e.createdAt >= keepFrom).sort((a, b) => b.createdAt - a.createdAt);
  return { v: 1, entries: entries.slice(0, MAX_HISTORY_ENTRIES) };
}

/** The link that opens a message in Discord (`@me` for one outside servers). */
export function messageLink(place: { guildId: string | null; channelId: string; messageId: string }): string {
  return `https://discord.com/channels/${place.guildId ?? '@me'}/${place.channelId}/${place.messageId}`;
}

/** Whose history (and favorites) an interaction's asker is: them, on the server they ask from. */
export const ownerOf = (interaction: { guildId: string | null; user: { id: string } }): HistoryOwner => ({
  guildId: interaction.guildId,
  userId: interaction.user.id,
});
