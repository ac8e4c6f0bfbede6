/** Durations as operators read them in messages: `30 s`, `1.5 s`, `500 ms`. */
export function formatDuration(ms: number): string {
  return ms < 1_000 ? `${ms} ms` : `${Number((ms / 1_000).toFixed(1))} s`;
}
