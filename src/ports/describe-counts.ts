/** Members' describes per period (the admins' describes cap, describe-cap.ts), counted atomically across processes. */
export interface DescribeCounts {
  /** Adds `by` (1, or −1 to give a place back) to the member's count in `window`; answers the new count. */
  add(guildId: string, userId: string, window: { label: string; end: number }, by: number): Promise<number>;
}
