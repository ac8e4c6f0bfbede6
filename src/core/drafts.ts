/**
 * Drafts, then HD (issue 32): where a server drafts, a request that names no quality is made at the cheapest quality
 * its model offers; the HD action on a draft's card makes the chosen image again at high quality (the draft as the
 * reference of an edit, the same prompt). /usage tells what drafting saved against making every draft at high
 * quality: what the drafts would have cost at high quality, less what the drafts and their HD re-renders cost. Pure.
 */
import type { IMAGE_QUALITIES } from './image-request.js';

type ImageQuality = (typeof IMAGE_QUALITIES)[number];

/** Qualities from the cheapest up (dall-e-3's standard and hd beside the GPT ones); auto is the model's own choice. */
export const QUALITY_ORDER = ['auto', 'low', 'medium', 'standard', 'high', 'hd', 'xhigh', 'max'] as const;

/** A quality's place in {@link QUALITY_ORDER}; auto counts as the cheapest (0). */
export const qualityRank = (quality: string): number => (quality === 'auto' ? 0 : QUALITY_ORDER.indexOf(quality as (typeof QUALITY_ORDER)[number]));

const HIGH_RANK = qualityRank('high');

/** Where a server drafts: everywhere, or in the listed channels (and their threads). */
export interface DraftPlaces {
  everywhere: boolean;
  channelIds: readonly string[];
}

/** Whether a job asked in `channelId` (a thread's parent) is drafted; outside servers (null), never. */
export function draftsHere(places: DraftPlaces, channelId: string | null): boolean {
  if (channelId === null) return false;
  return places.everywhere || places.channelIds.includes(channelId);
}

/**
 * The draft quality of a model offering `qualities`: the cheapest it lists below high (auto aside); undefined when
 * it lists none (no quality parameter, or nothing cheaper than high).
 */
export function draftQuality(qualities: readonly ImageQuality[]): ImageQuality | undefined {
  const below = qualities.filter((q) => q !== 'auto' && qualityRank(q) < HIGH_RANK);
  return below.sort((a, b) => qualityRank(a) - qualityRank(b))[0];
}

/** The quality an HD re-render asks a model offering `qualities` for: high, else hd; undefined when it has neither. */
export function hdQuality(qualities: readonly ImageQuality[]): ImageQuality | undefined {
  return qualities.find((q) => q === 'high') ?? qualities.find((q) => q === 'hd');
}

/** Whether a result made at `quality` (as sent; absent or auto: the model's own, not a draft) is a draft. */
export function isDraft(quality: string | undefined): boolean {
  return quality !== undefined && quality !== 'auto' && qualityRank(quality) < HIGH_RANK;
}

/** What a settled job tells the drafting figures: a draft, with its estimate at high quality; or an HD re-render. */
export type DraftUse = { kind: 'draft'; highEstimateUsd: number } | { kind: 'hd' };

/**
 * What a delivered job adds to the drafting figures, in USD: what its images would have cost at high quality (a
 * draft's high estimate, for the images delivered of those asked; an HD re-render: nothing, it would not have been
 * needed) and what they cost.
 */
export function draftFigures(use: DraftUse, job: { requested: number; delivered: number; costUsd: number }): { wouldBeUsd: number; costUsd: number } {
  if (use.kind === 'hd') return { wouldBeUsd: 0, costUsd: job.costUsd };
  const share = job.requested > 0 ? Math.min(job.delivered / job.requested, 1) : 0;
  return { wouldBeUsd: use.highEstimateUsd * share, costUsd: job.costUsd };
}

/**
 * Where a server drafts after `/settings drafts enabled:… [channel]`: with no channel, everywhere (enabled) or nowhere
 * (not); with one, that channel added to the list or taken off it. Refused: taking one channel off drafts that are on
 * everywhere (`everywhere`), or listing more than `max` channels (`full`).
 */
export function changeDrafts(
  places: DraftPlaces,
  change: { enabled: boolean; channelId?: string | undefined },
  max: number,
): { places: DraftPlaces } | { refused: 'everywhere' | 'full' } {
  const { enabled, channelId } = change;
  if (channelId === undefined) return { places: { everywhere: enabled, channelIds: [] } };
  if (!enabled) {
    if (places.everywhere) return { refused: 'everywhere' };
    return { places: { everywhere: false, channelIds: places.channelIds.filter((id) => id !== channelId) } };
  }
  if (places.everywhere || places.channelIds.includes(channelId)) return { places };
  if (places.channelIds.length >= max) return { refused: 'full' };
  return { places: { everywhere: false, channelIds: [...places.channelIds, channelId] } };
}

/**
 * What drafting saved, in USD (to a millionth): what the drafts would have cost at high quality less what the drafts
 * and their HD re-renders cost; never below nothing (HD re-renders costing more than drafting saved: it saved none).
 */
export function draftsSaved(figures: { wouldBeUsd: number; costUsd: number }): number {
  return Math.max(0, Math.round((figures.wouldBeUsd - figures.costUsd) * 1e6) / 1e6);
}
