import { describe, expect, it } from 'vitest';
import { ModelProfiles } from '../../src/core/model-profiles.js';
import { changeDrafts, draftFigures, draftQuality, draftsHere, draftsSaved, hdQuality, isDraft } from '../../src/core/drafts.js';
import { actionRequest, actionsOf } from '../../src/core/result-actions.js';
import { countsOf, dayFromCounts } from '../../src/core/usage-totals.js';
import { DEFAULT_SETTINGS, ServerSettings } from '../../src/core/server-settings.js';
import { renderSettings } from '../../src/discord/views/settings-text.js';

const profiles = new ModelProfiles();
const qualitiesOf = (model: string) => profiles.of(model).profile.qualities;
const square = { width: 1024, height: 1024 };
const CHANNEL = '100000000000000001';
const OTHER = '100000000000000002';

describe('drafts', () => {
  it('drafts at the cheapest quality each model offers below high, and remakes in HD at its high quality', () => {
    expect(draftQuality(qualitiesOf('gpt-image-1'))).toBe('low');
    expect(draftQuality(qualitiesOf('gpt-image-2.5'))).toBe('low');
    expect(draftQuality(qualitiesOf('dall-e-3'))).toBe('standard');
    // No quality parameter: nothing to draft with.
    expect(draftQuality(qualitiesOf('dall-e-2'))).toBeUndefined();
    expect(draftQuality(['medium', 'auto', 'high'])).toBe('medium');
    expect(draftQuality(['high', 'xhigh'])).toBeUndefined();
    expect(hdQuality(qualitiesOf('gpt-image-1'))).toBe('high');
    expect(hdQuality(qualitiesOf('dall-e-3'))).toBe('hd');
    expect(hdQuality(['low', 'medium'])).toBeUndefined();
  });

  it('calls a result a draft only when it was made below high quality', () => {
    expect(['low', 'medium', 'standard'].map(isDraft)).toEqual([true, true, true]);
    expect(['high', 'hd', 'xhigh', 'max', 'auto', undefined].map(isDraft)).toEqual([false, false, false, false, false, false]);
  });

  it('drafts everywhere or in the listed channels, never outside servers', () => {
    expect(draftsHere({ everywhere: true, channelIds: [] }, CHANNEL)).toBe(true);
    expect(draftsHere({ everywhere: false, channelIds: [CHANNEL] }, CHANNEL)).toBe(true);
    expect(draftsHere({ everywhere: false, channelIds: [CHANNEL] }, OTHER)).toBe(false);
    expect(draftsHere({ everywhere: true, channelIds: [] }, null)).toBe(false);
  });

  it('/settings drafts: the whole server, or channels added and taken off one by one, at most the bound', () => {
    const off = { everywhere: false, channelIds: [] };
    expect(changeDrafts(off, { enabled: true }, 25)).toEqual({ places: { everywhere: true, channelIds: [] } });
    const one = changeDrafts(off, { enabled: true, channelId: CHANNEL }, 25);
    expect(one).toEqual({ places: { everywhere: false, channelIds: [CHANNEL] } });
    const two = changeDrafts({ everywhere: false, channelIds: [CHANNEL] }, { enabled: true, channelId: OTHER }, 25);
    expect(two).toEqual({ places: { everywhere: false, channelIds: [CHANNEL, OTHER] } });
    expect(changeDrafts({ everywhere: false, channelIds: [CHANNEL, OTHER] }, { enabled: false, channelId: CHANNEL }, 25)).toEqual({
      places: { everywhere: false, channelIds: [OTHER] },
    });
    expect(changeDrafts({ everywhere: false, channelIds: [CHANNEL] }, { enabled: true, channelId: OTHER }, 1)).toEqual({ refused: 'full' });
    expect(changeDrafts({ everywhere: true, channelIds: [] }, { enabled: false, channelId: CHANNEL }, 25)).toEqual({ refused: 'everywhere' });
    expect(changeDrafts({ everywhere: true, channelIds: [] }, { enabled: false }, 25)).toEqual({ places: off });
  });

  it('is off by default, holds at most 25 channels, and /settings show says where it drafts', () => {
    expect(DEFAULT_SETTINGS.drafts).toEqual({ everywhere: false, channelIds: [] });
    const many = Array.from({ length: 26 }, (_, i) => String(100000000000000000n + BigInt(i)));
    expect(ServerSettings.safeParse({ drafts: { everywhere: false, channelIds: many } }).success).toBe(false);
    expect(renderSettings(DEFAULT_SETTINGS)).toContain('Drafts: off');
    expect(renderSettings({ ...DEFAULT_SETTINGS, drafts: { everywhere: false, channelIds: [CHANNEL] } })).toContain(
      `Drafts: requests without a quality are made at the cheapest quality in <#${CHANNEL}>`,
    );
    expect(renderSettings({ ...DEFAULT_SETTINGS, drafts: { everywhere: true, channelIds: [] } }, 'de')).toContain(
      'Entwürfe: Anfragen ohne Qualität werden überall',
    );
  });

  it('offers HD on a draft of a model that edits and has a high quality, and asks for it at the draft size', () => {
    const gpt = profiles.of('gpt-image-1').profile;
    expect(actionsOf(gpt, square, 'low').hd).toBe(true);
    expect(actionsOf(gpt, square, 'high').hd).toBe(false);
    expect(actionsOf(gpt, square, undefined).hd).toBe(false);
    // dall-e-3 drafts at standard but takes no edits; dall-e-2 edits only square PNGs and has no quality.
    expect(actionsOf(profiles.of('dall-e-3').profile, square, 'standard').hd).toBe(false);
    expect(actionsOf(profiles.of('dall-e-2').profile, square, 'standard').hd).toBe(false);
    expect(actionRequest({ kind: 'hd' }, { width: 1536, height: 1024 }, gpt, 'gpt-image-1')).toEqual({
      size: { width: 1536, height: 1024 },
      inputFidelity: 'high',
      quality: 'high',
    });
    expect(() => actionRequest({ kind: 'hd' }, square, profiles.of('dall-e-3').profile, 'dall-e-3')).toThrow();
  });

  it('counts what drafting saved: the drafts at high quality, less what the drafts and their HD re-renders cost', () => {
    expect(draftFigures({ kind: 'draft', highEstimateUsd: 0.8 }, { requested: 4, delivered: 4, costUsd: 0.05 })).toEqual({ wouldBeUsd: 0.8, costUsd: 0.05 });
    // Fewer images than asked: only theirs would have been made.
    expect(draftFigures({ kind: 'draft', highEstimateUsd: 0.8 }, { requested: 4, delivered: 2, costUsd: 0.02 })).toEqual({ wouldBeUsd: 0.4, costUsd: 0.02 });
    expect(draftFigures({ kind: 'hd' }, { requested: 1, delivered: 1, costUsd: 0.22 })).toEqual({ wouldBeUsd: 0, costUsd: 0.22 });
    expect(draftsSaved({ wouldBeUsd: 0.8, costUsd: 0.27 })).toBe(0.53);
    expect(draftsSaved({ wouldBeUsd: 0.1, costUsd: 0.27 })).toBe(0);

    const job = { userId: 'u', outcome: 'delivered' as const, reachedGateway: true };
    const counts = new Map<string, number>();
    const add = (more: [string, number][]) => more.forEach(([field, by]) => counts.set(field, (counts.get(field) ?? 0) + by));
    add(
      countsOf({
        ...job,
        jobId: 'a',
        delivered: 4,
        cost: { usd: 0.05, source: 'estimated' },
        drafting: { use: { kind: 'draft', highEstimateUsd: 0.8 }, requested: 4 },
      }),
    );
    add(countsOf({ ...job, jobId: 'b', delivered: 1, cost: { usd: 0.22, source: 'reported' }, drafting: { use: { kind: 'hd' }, requested: 1 } }));
    add(countsOf({ ...job, jobId: 'c', delivered: 1, cost: { usd: 0.17, source: 'reported' } }));
    // Refused and failed drafts add nothing.
    add(countsOf({ ...job, jobId: 'd', outcome: 'failed', delivered: 0, drafting: { use: { kind: 'draft', highEstimateUsd: 0.8 }, requested: 4 } }));
    expect(dayFromCounts(counts).drafts).toEqual({ jobs: 4, hd: 1, wouldBeUsd: 0.8, costUsd: 0.27 });
  });
});
