/**
 * The admins' cap on describes (issue 29): at most `count` per member per day, week or month on a server
 * (`/settings prompt-help describes:`). Counted atomically in the store (storage/describe-counts-store.ts), so
 * several processes never let a member past it: a describe takes its place first (the count goes up and comes back
 * with its new value), and one that finds itself past the cap, or fails, gives its place back.
 */
import { UserFacingError } from '../errors.js';
import { periodWindow } from '../core/periods.js';
import type { DescribeCounts } from '../ports/describe-counts.js';
import type { QuotaPeriod } from '../core/quota.js';

/** A server's cap on describes per member. */
export interface DescribeLimit {
  count: number;
  period: QuotaPeriod;
}

/** A place taken under the cap; `giveBack` returns it (a failed describe does not count). */
export interface DescribePlaceTaken {
  giveBack(): Promise<void>;
}

const NOTHING: DescribePlaceTaken = { giveBack: () => Promise.resolve() };

/**
 * Takes the member's place under `limit` (none: nothing to take).
 * @throws UserFacingError describe.limit when the member has used their describes of the period
 */
export async function takeDescribePlace(
  counts: DescribeCounts | undefined,
  limit: DescribeLimit | undefined,
  where: { guildId: string | null; userId: string },
  now: number,
): Promise<DescribePlaceTaken> {
  if (!counts || !limit || where.guildId === null) return NOTHING;
  const guildId = where.guildId;
  const window = periodWindow(limit.period, now);
  const giveBack = async () => {
    await counts.add(guildId, where.userId, window, -1);
  };
  const refusal = () => new UserFacingError('describe.limit', { limit: limit.count, resetsAt: window.end });
  if (limit.count === 0) throw refusal();
  if ((await counts.add(guildId, where.userId, window, 1)) <= limit.count) return { giveBack };
  await giveBack();
  throw refusal();
}
