/**
 * What members make of results beside images (issue 32): emoji and stickers added to a server, results posted to its
 * showcase, styles saved. Each is counted in the server's day (usage-totals.ts, shown by /usage) and told to its audit
 * channel. Pure (zod only).
 */
import { z } from 'zod';

export const MEMBER_ACTIONS = ['emoji', 'sticker', 'showcase', 'style'] as const;
export type MemberAction = (typeof MEMBER_ACTIONS)[number];

const Count = z.number().int().nonnegative();
/** A day's (or a period's) count of each. */
export const Actions = z.object({ emoji: Count, sticker: Count, showcase: Count, style: Count });
export type Actions = z.infer<typeof Actions>;
export const NO_ACTIONS: Actions = { emoji: 0, sticker: 0, showcase: 0, style: 0 };

export const isAction = (id: string): id is MemberAction => (MEMBER_ACTIONS as readonly string[]).includes(id);

/** Two days' counts together. */
export function mergeActions(a: Actions, b: Actions): Actions {
  return { emoji: a.emoji + b.emoji, sticker: a.sticker + b.sticker, showcase: a.showcase + b.showcase, style: a.style + b.style };
}

/** Whether any was made. */
export const anyActions = (a: Actions): boolean => MEMBER_ACTIONS.some((kind) => a[kind] > 0);
