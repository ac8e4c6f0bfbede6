/**
 * Saved styles (issue 32): a member's presets (per server) and a server's presets for everyone, each a name, a prompt
 * suffix and up to three small copies of images (preset-image.ts), in the record store, one record per preset and one
 * index of names per owner, bounded in count (core/style-presets.ts). Saving is rate-limited per member, its images
 * downloaded as references are (declared size, room in the memory budget first, within a time limit), and a server's
 * presets are saved and deleted only by its managers (Manage Server). Using a preset turns its images into references
 * of the job (`preset:` addresses read back here by the job's download step) and its suffix into the prompt's end.
 */
import { UserFacingError } from '../errors.js';
import { largerThan } from '../core/phrase.js';
import type { AttachmentRef } from '../core/jobs.js';
import {
  PRESET_MAX_IMAGES,
  PRESET_SUFFIX_MAX,
  PresetName,
  parsePresetImageUrl,
  presetImageUrl,
  presetLimit,
  presetOwner,
  type PresetSummary,
  type PresetScope,
  type StylePreset,
} from '../core/style-presets.js';
import type { Clock } from '../ports/clock.js';
import type { RecordStore } from '../ports/record-store.js';
import type { PresetIndexStore } from '../ports/preset-index-store.js';
import type { MemoryBudget } from './memory-budget.js';
export type { PresetSummary };
import { MemberRateLimit } from './member-rate-limit.js';
import { PRESET_IMAGE_WORK_BYTES, presetImage } from './preset-image.js';
import type { MemberActions } from './member-actions.js';

/** Saves per member per ten minutes. */
const SAVES_PER_WINDOW = 5;
const SAVE_WINDOW_MS = 10 * 60_000;
/** The longest a save's room, downloads and copies take. */
const SAVE_TIME_LIMIT_MS = 60_000;
/** Presets are kept until deleted; the record store wants an expiry: ten years. */
const KEEP_MS = 10 * 365 * 86_400_000;

/** Options of {@link StylePresets}. */
export interface StylePresetsOptions {
  presets: RecordStore<StylePreset>;
  indexes: PresetIndexStore;
  download: (ref: AttachmentRef, maxBytes: number, signal: AbortSignal) => Promise<Buffer>;
  memory: Pick<MemoryBudget, 'takeReferences'>;
  maxAttachmentBytes: number;
  maxDecodePixels: number;
  clock: Clock;
  /** Counts saves in /usage and tells saves and deletes to the audit channel. */
  actions?: Pick<MemberActions, 'record'> | undefined;
}

/** Who asks, and where. */
export interface PresetMember {
  guildId: string | null;
  userId: string;
  /** Has Manage Server there (may save and delete the server's presets). */
  manager: boolean;
  /** The server's preferred language (its audit line is written in it). */
  locale?: string | null | undefined;
}

/** A preset as a job uses it. */
export interface ResolvedPreset {
  images: AttachmentRef[];
  suffix: string;
}

/** See the module comment. */
export class StylePresets {
  readonly #options: StylePresetsOptions;
  readonly #rate: MemberRateLimit;

  constructor(options: StylePresetsOptions) {
    this.#options = options;
    this.#rate = new MemberRateLimit({ count: SAVES_PER_WINDOW, windowMs: SAVE_WINDOW_MS, clock: options.clock, refusal: 'preset.tooFast' });
  }

  /**
   * Saves (or replaces) preset `name` of `scope` with `images` (at most 3) and `suffix`.
   * @throws UserFacingError preset.* or permission.manageServer or input.attachmentInvalid
   */
  async save(member: PresetMember, order: { scope: PresetScope; name: string; suffix: string; images: AttachmentRef[] }): Promise<PresetSummary> {
    const owner = this.#ownerFor(member, order.scope);
    const name = parseName(order.name);
    const suffix = order.suffix.trim();
    if (suffix.length > PRESET_SUFFIX_MAX) throw new UserFacingError('preset.suffixTooLong', { limit: PRESET_SUFFIX_MAX });
    if (order.images.length > PRESET_MAX_IMAGES) throw new UserFacingError('preset.tooManyImages', { limit: PRESET_MAX_IMAGES });
    if (order.images.length === 0 && suffix === '') throw new UserFacingError('preset.empty');
    const names = await this.#options.indexes.names(owner);
    const limit = presetLimit(order.scope);
    // A quick refusal before anything is downloaded; the atomic add below is what holds the limit.
    if (!names.includes(name) && names.length >= limit) throw new UserFacingError('preset.full', { limit });
    this.#rate.take(member.userId);
    const images = await this.#copies(order.images);
    if ((await this.#options.indexes.add(owner, name, limit, KEEP_MS)) === 'full') throw new UserFacingError('preset.full', { limit });
    const preset = { name, suffix, images, savedBy: member.userId, savedAt: this.#options.clock.now() };
    await this.#options.presets.set(`${owner}/${name}`, preset, KEEP_MS);
    await this.#options.actions?.record({ ...told(member, order.scope, name), action: 'style' });
    return { name, suffix, images: images.length };
  }

  /** The member's presets here and the server's. */
  async list(member: Pick<PresetMember, 'guildId' | 'userId'>): Promise<{ mine: PresetSummary[]; server: PresetSummary[] }> {
    const [mine, server] = await Promise.all([this.#summaries(presetOwner('member', member.guildId, member.userId)), this.#serverSummaries(member.guildId)]);
    return { mine, server };
  }

  /** The names of the member's presets here, then the server's, for autocomplete. */
  async names(member: Pick<PresetMember, 'guildId' | 'userId'>): Promise<string[]> {
    const own = await this.#options.indexes.names(presetOwner('member', member.guildId, member.userId));
    const server = member.guildId === null ? [] : await this.#options.indexes.names(presetOwner('server', member.guildId, ''));
    return [...new Set([...own, ...server])];
  }

  /**
   * Deletes preset `name` of `scope`.
   * @throws UserFacingError preset.notFound, permission.manageServer
   */
  async delete(member: PresetMember, scope: PresetScope, rawName: string): Promise<void> {
    const owner = this.#ownerFor(member, scope);
    const name = parseName(rawName);
    if (!(await this.#options.indexes.remove(owner, name, KEEP_MS))) throw new UserFacingError('preset.notFound', { param: name });
    await this.#options.presets.delete(`${owner}/${name}`);
    await this.#options.actions?.record({ ...told(member, scope, name), action: 'styleDeleted' });
  }

  /**
   * Preset `name` as a job uses it: the member's own first, else the server's.
   * @throws UserFacingError preset.notFound
   */
  async resolve(member: Pick<PresetMember, 'guildId' | 'userId'>, rawName: string): Promise<ResolvedPreset> {
    const name = parseName(rawName);
    const owners = [presetOwner('member', member.guildId, member.userId), ...(member.guildId === null ? [] : [presetOwner('server', member.guildId, '')])];
    for (const owner of owners) {
      const preset = await this.#options.presets.get(`${owner}/${name}`);
      if (!preset) continue;
      const images = preset.images.map((image, i) => ({
        url: presetImageUrl(owner, name, i),
        filename: image.filename,
        size: Buffer.byteLength(image.data, 'base64'),
        contentType: 'image/webp',
        width: image.width,
        height: image.height,
      }));
      return { images, suffix: preset.suffix };
    }
    throw new UserFacingError('preset.notFound', { param: name });
  }

  /** The bytes of a preset image address (`preset:`), or undefined for any other URL; a deleted one is refused. */
  async image(url: string): Promise<Buffer | undefined> {
    const address = parsePresetImageUrl(url);
    if (!address) return undefined;
    const preset = await this.#options.presets.get(`${address.owner}/${address.name}`);
    const image = preset?.images[address.index];
    if (!image) throw new UserFacingError('preset.notFound', { param: address.name });
    return Buffer.from(image.data, 'base64');
  }

  #ownerFor(member: PresetMember, scope: PresetScope): string {
    if (scope === 'server' && (member.guildId === null || !member.manager)) throw new UserFacingError('permission.manageServer');
    return presetOwner(scope, member.guildId, member.userId);
  }

  async #serverSummaries(guildId: string | null): Promise<PresetSummary[]> {
    return guildId === null ? [] : this.#summaries(presetOwner('server', guildId, ''));
  }

  async #summaries(owner: string): Promise<PresetSummary[]> {
    const names = await this.#options.indexes.names(owner);
    const presets = await Promise.all(names.map((name) => this.#options.presets.get(`${owner}/${name}`)));
    return presets.filter((p) => p !== undefined).map((p) => ({ name: p.name, suffix: p.suffix, images: p.images.length }));
  }

  /** The small copies of `refs`: room for them all first, each read no further than declared, within a time limit. */
  async #copies(refs: AttachmentRef[]): Promise<StylePreset['images']> {
    const { maxAttachmentBytes, memory, download, maxDecodePixels } = this.#options;
    const oversize = refs.find((ref) => (ref.size ?? maxAttachmentBytes) > maxAttachmentBytes);
    if (oversize) throw new UserFacingError('input.attachmentInvalid', { param: oversize.filename, detail: largerThan(maxAttachmentBytes) });
    const signal = AbortSignal.timeout(SAVE_TIME_LIMIT_MS);
    const room = refs.reduce((sum, ref) => sum + (ref.size ?? maxAttachmentBytes) + PRESET_IMAGE_WORK_BYTES, 0);
    const release = await memory.takeReferences(room, signal).catch((err: unknown) => {
      throw new UserFacingError('memory.busy', {}, { cause: err });
    });
    try {
      const copies: StylePreset['images'] = [];
      for (const [i, ref] of refs.entries()) {
        const bytes = await download(ref, ref.size ?? maxAttachmentBytes, signal);
        const copy = await presetImage(bytes, { filename: ref.filename, maxPixels: maxDecodePixels, timeoutSeconds: 20 });
        copies.push({ data: copy.bytes.toString('base64'), filename: `style-${String(i + 1)}.webp`, width: copy.width, height: copy.height });
      }
      return copies;
    } finally {
      release();
    }
  }
}

/** A save or delete as the audit channel reads it. */
const told = (member: PresetMember, scope: PresetScope, name: string) => ({
  guildId: member.guildId,
  userId: member.userId,
  name,
  serverStyle: scope === 'server',
  locale: member.locale,
});

function parseName(raw: string): string {
  const parsed = PresetName.safeParse(raw);
  if (!parsed.success) throw new UserFacingError('preset.badName');
  return parsed.data;
}
