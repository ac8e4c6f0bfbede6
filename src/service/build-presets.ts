/**
 * Saved styles' part of the service room (issue 32): the presets and their index in the record store, and the
 * download step of image jobs, which reads a preset image's `preset:` address from there and anything else from
 * Discord's CDN.
 */
import { StylePreset } from '../core/style-presets.js';
import type { PresetIndexStore } from '../ports/preset-index-store.js';
import type { AttachmentRef } from '../core/jobs.js';
import type { Clock } from '../ports/clock.js';
import type { RecordStore } from '../ports/record-store.js';
import type { z } from 'zod';
import type { MemoryBudget } from './memory-budget.js';
import { StylePresets } from './style-presets.js';
import type { MemberActions } from './member-actions.js';

type Download = (ref: AttachmentRef, maxBytes: number, signal?: AbortSignal) => Promise<Buffer>;
type UrlDownload = (url: string, maxBytes: number, signal?: AbortSignal) => Promise<Buffer>;

/** What the presets are built over: the record store, the clock and Discord's CDN. */
interface PresetParts {
  storage: { records: <T>(namespace: string, schema: z.ZodType<T>) => RecordStore<T>; presetIndexes: PresetIndexStore };
  clock: Clock;
  discord: { download: UrlDownload };
}

/** Builds the presets over the record store; their images are downloaded from Discord's CDN when saved. */
export function buildStylePresets(
  config: { ATTACHMENT_MAX_BYTES: number; MAX_DECODE_PIXELS: number },
  parts: PresetParts,
  memory: MemoryBudget,
  actions: MemberActions,
): StylePresets {
  return new StylePresets({
    presets: parts.storage.records('style-presets', StylePreset),
    indexes: parts.storage.presetIndexes,
    download: (ref, maxBytes, signal) => parts.discord.download(ref.url, maxBytes, signal),
    memory,
    maxAttachmentBytes: config.ATTACHMENT_MAX_BYTES,
    maxDecodePixels: config.MAX_DECODE_PIXELS,
    clock: parts.clock,
    actions,
  });
}

/** A job's download: a preset's image from the store, anything else from Discord's CDN (counted by `metrics`). */
export function jobDownload(presets: Pick<StylePresets, 'image'>, cdn: UrlDownload, metrics: { downloaded: (bytes: number) => void } | undefined): Download {
  return async (ref, maxBytes, signal) => {
    const own = await presets.image(ref.url);
    if (own) return own;
    const bytes = await cdn(ref.url, maxBytes, signal);
    metrics?.downloaded(bytes.length);
    return bytes;
  };
}
