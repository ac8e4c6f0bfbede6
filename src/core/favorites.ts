/**
 * Favorites and the showcase (issue 32): ⭐ on a result saves it to the member's favorites on that server (at most
 * {@link MAX_FAVORITES}, newest first: a new one pushes the oldest out, and the member is told), each entry of bounded
 * size (its prompt cut to {@link MAX_FAVORITE_PROMPT} characters, ids as Discord writes them). Where the server has a
 * showcase channel, the first star of a result posts it there; the post is claimed atomically in the store per result
 * (`showcase:{guild}:{job}`), so two stars, by two members or in two processes, post it once. Pure (zod only).
 */
import { z } from 'zod';
import { pageOf } from './paging.js';

/** Favorites kept per member and server; a new one pushes the oldest out. */
export const MAX_FAVORITES = 100;
/** The most of a prompt a favorite keeps. */
export const MAX_FAVORITE_PROMPT = 300;

const Snowflake = z.string().regex(/^\d{1,20}$/);
const JobId = z.string().regex(/^[\w-]{1,64}$/);

/** One starred result, as /history favorites lists it. */
export const FavoriteEntry = z.object({
  jobId: JobId,
  prompt: z.string().max(MAX_FAVORITE_PROMPT),
  /** Who the result was made for (its card credits them). */
  authorId: Snowflake,
  /** Where its card is: the server (null in a direct message), channel and message. */
  guildId: Snowflake.nullable(),
  channelId: Snowflake,
  messageId: Snowflake,
  /** When the member starred it (ms since epoch). */
  starredAt: z.number(),
});
export type FavoriteEntry = z.infer<typeof FavoriteEntry>;

/** A member's favorites on one server, newest first. */
export const FavoritesRecord = z.object({ v: z.literal(1), entries: z.array(FavoriteEntry).max(MAX_FAVORITES) });
export type FavoritesRecord = z.infer<typeof FavoritesRecord>;

/** What adding a favorite did: how many the member has now, how many old ones it pushed out, whether it was there already. */
export interface FavoriteAdded {
  total: number;
  dropped: number;
  already: boolean;
}

/** What removing a favorite did: whether it was there, and how many the member has now. */
export interface FavoriteRemoved {
  removed: boolean;
  total: number;
  /** The prompt of the favorite removed (as kept), to name it in the answer. */
  prompt?: string | undefined;
}

/** Favorites on one page of /history favorites (a message holds 10 embeds). */
export const FAVORITES_PAGE_SIZE = 10;

/** One page of a member's favorites, newest first. */
export interface FavoritesPage {
  entries: FavoriteEntry[];
  /** 0-based, within [0, pages). */
  page: number;
  pages: number;
  total: number;
  /** The page counts only favorites starred until then (ms since epoch), so later stars do not shift the pages. */
  asOf: number;
}

/** Why a starred result was not posted to the showcase. */
export type ShowcaseRefusal = 'channelRules' | 'gone' | 'noAccess' | 'ageRestricted' | 'failed';

/** What became of the showcase for one star. */
export type ShowcaseOutcome =
  { kind: 'none' } | { kind: 'posted' | 'already'; channelId: string } | { kind: 'refused'; channelId: string; reason: ShowcaseRefusal };

/** What a star did. */
export interface StarOutcome {
  added: FavoriteAdded;
  showcase: ShowcaseOutcome;
}

/** A prompt as a favorite keeps it: on one line, at most {@link MAX_FAVORITE_PROMPT} characters (never half a surrogate pair). */
export function favoritePrompt(prompt: string): string {
  const line = prompt.replace(/\s+/g, ' ').trim();
  if (line.length <= MAX_FAVORITE_PROMPT) return line;
  const cut = line.slice(0, MAX_FAVORITE_PROMPT - 1);
  return `${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}

/**
 * `record` with `entry` first (a result starred again moves to the top and keeps one entry), at most
 * {@link MAX_FAVORITES}: the oldest beyond them are dropped.
 */
export function withFavorite(record: FavoritesRecord | undefined, entry: FavoriteEntry): { record: FavoritesRecord; added: FavoriteAdded } {
  const before = record?.entries ?? [];
  const rest = before.filter((e) => e.jobId !== entry.jobId);
  const entries = [entry, ...rest].slice(0, MAX_FAVORITES);
  const already = rest.length < before.length;
  return { record: { v: 1, entries }, added: { total: entries.length, dropped: rest.length + 1 - entries.length, already } };
}

/** `record` without result `jobId`; the rest keep their order. */
export function withoutFavorite(record: FavoritesRecord | undefined, jobId: string): { record: FavoritesRecord; removed: FavoriteRemoved } {
  const before = record?.entries ?? [];
  const gone = before.find((e) => e.jobId === jobId);
  const entries = before.filter((e) => e.jobId !== jobId);
  return { record: { v: 1, entries }, removed: { removed: gone !== undefined, total: entries.length, prompt: gone?.prompt } };
}

/** Page `page` (clamped into range) of `entries` (newest first), counting only those starred until `asOf`. */
export function favoritesPage(entries: readonly FavoriteEntry[], page: number, asOf: number): FavoritesPage {
  return {
    ...pageOf(
      entries.filter((e) => e.starredAt <= asOf),
      page,
      FAVORITES_PAGE_SIZE,
    ),
    asOf,
  };
}

/**
 * A result's place in a server's showcase: claimed by one star while it is posted, then posted (with its message), or
 * released when the post failed (another star may claim it).
 */
export const ShowcaseRecord = z.object({
  v: z.literal(1),
  state: z.enum(['posting', 'posted', 'released']),
  /** The star that claimed it (one click), so only it settles the claim. */
  holder: z.string().max(64),
  /** Who starred it. */
  by: Snowflake,
  messageId: Snowflake.optional(),
  at: z.number(),
});
export type ShowcaseRecord = z.infer<typeof ShowcaseRecord>;

/** Why a showcase post failed, as the Discord adapter tells the service. */
export type ShowcaseFailure = 'noAccess' | 'gone' | 'unavailable';

/** Discord refused (or could not take) a showcase post (thrown by the ShowcasePoster port). */
export class ShowcasePostError extends Error {
  override name = 'ShowcasePostError';
  readonly reason: ShowcaseFailure;

  constructor(reason: ShowcaseFailure, options?: ErrorOptions) {
    super(`the showcase post failed: ${reason}`, options);
    this.reason = reason;
  }
}
