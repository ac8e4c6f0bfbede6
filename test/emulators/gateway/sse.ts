/**
 * Server-sent events in the two framings seen in the field.
 * - 'event': OpenAI, an `event:` line then a `data:` line per event, no sentinel (image-gateway.md §2.5).
 * - 'bare': new-api's StringData, `data:` lines only, `: PING` keep-alive comments, `data: [DONE]` (§4.2.1, §4.2.2).
 */
import type { ServerResponse } from 'node:http';

/** SSE framing. */
export type SseFraming = 'event' | 'bare';

/** The response headers of an event stream. */
export function sseHeaders(): Record<string, string> {
  return { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' };
}

/** The wire text of a whole stream. Each element is one write, so a client sees the events arrive separately. */
export function sseFrames(events: Record<string, unknown>[], framing: SseFraming): string[] {
  if (framing === 'event') {
    return events.map((event) => `event: ${String(event['type'])}\ndata: ${JSON.stringify(event)}\n\n`);
  }
  const frames: string[] = [': PING\n\n'];
  for (const event of events) {
    frames.push(`data: ${JSON.stringify(event)}\n\n`);
    frames.push(': PING\n\n');
  }
  frames.push('data: [DONE]\n\n');
  return frames;
}

/** Writes frames one by one, waiting for drain, then ends the response. Stops quietly if the socket closes. */
export async function writeFrames(res: ServerResponse, frames: (string | Buffer)[]): Promise<void> {
  for (const frame of frames) {
    if (res.destroyed) return;
    if (!res.write(frame))
      await new Promise<void>((resolve) => {
        res.once('drain', resolve);
        res.once('close', resolve);
      });
  }
  if (!res.destroyed) res.end();
}
