/**
 * What the dialects (azure.ts, openrouter.ts) share: the request as the server hands it over, and the catalogue
 * answer driven by `enqueueModels`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { runBehaviour } from '../behaviours.js';
import type { PresetContext } from '../error-presets.js';
import type { EmulatorState } from '../state.js';
import type { RecordedRequest } from '../types.js';

/** One request, read and not yet recorded. */
export interface DialectRequest {
  req: IncomingMessage;
  res: ServerResponse;
  record: RecordedRequest;
  body: Buffer;
  presetCtx: PresetContext;
  /** performance.now() on arrival. */
  arrivedAt: number;
}

/** Answers a catalogue GET with the next `enqueueModels` behaviour; `success` is `text` (default: OpenAI's list of `models`). */
export function answerModels(state: EmulatorState, x: DialectRequest, models: readonly string[], text?: string): Promise<void> {
  const behaviour = state.modelsQueue.shift() ?? { type: 'success' };
  const body = text ?? JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model', created: 1_714_000_000, owned_by: 'system' })) });
  return runBehaviour(behaviour, x.res, {
    preset: x.presetCtx,
    startedAt: x.arrivedAt,
    defaultDelayMs: 0,
    sleep: (ms) => state.sleep(ms),
    success: () => Promise.resolve({ status: 200, headers: { 'content-type': 'application/json' }, frames: [body] }),
    streams: () => false,
    takeBodyHold: () => undefined,
  });
}
