/**
 * Style and subject references and saved styles (issue 32): the prompt that tells the model which reference image is
 * which, a preset's name and suffix rules, what a stored preset holds and how many an owner may keep, and the
 * address of a preset's image among an edit's references. Pure.
 */
import { z } from 'zod';

/** A preset's name: 1–32 of a-z, 0-9, `-`, `_` and space (lower-cased and trimmed first). */
export const PRESET_NAME_MAX = 32;
export const PresetName = z
  .string()
  .trim()
  .toLowerCase()
  .regex(new RegExp(`^[a-z0-9_ -]{1,${PRESET_NAME_MAX}}$`));

/** What a preset appends to the prompt: at most 200 characters. */
export const PRESET_SUFFIX_MAX = 200;
/** A preset keeps at most 3 images. */
export const PRESET_MAX_IMAGES = 3;
/** Each kept image: at most 512 pixels on its long side and 200 KB. */
export const PRESET_IMAGE_SIDE = 512;
export const PRESET_IMAGE_MAX_BYTES = 200 * 1024;
/** How many presets one member keeps (per server), and one server for everyone. */
export const PRESETS_PER_MEMBER = 20;
export const PRESETS_PER_SERVER = 50;

/** Whose preset: one member's (in one server, or `null` outside servers), or a server's for everyone. */
export type PresetScope = 'member' | 'server';

/** One kept image: its bytes in base64 (WebP, within the bounds above). */
export const PresetImage = z.object({
  data: z
    .string()
    .max(Math.ceil((PRESET_IMAGE_MAX_BYTES * 4) / 3) + 4)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/),
  filename: z.string().max(64),
  /** Its pixels, for the cost estimate of the jobs that use it. */
  width: z.number().int().min(1).max(PRESET_IMAGE_SIDE),
  height: z.number().int().min(1).max(PRESET_IMAGE_SIDE),
});
export type PresetImage = z.infer<typeof PresetImage>;

/** A stored preset: its name, suffix and images (a bounded record: at most about 800 KB). */
export const StylePreset = z.object({
  name: PresetName,
  suffix: z.string().max(PRESET_SUFFIX_MAX),
  images: z.array(PresetImage).max(PRESET_MAX_IMAGES),
  savedBy: z.string().max(32),
  savedAt: z.number(),
});
export type StylePreset = z.infer<typeof StylePreset>;

/** The names an owner keeps (one small record beside the presets). */
export const PresetIndex = z.object({ names: z.array(PresetName).max(PRESETS_PER_SERVER) });
export type PresetIndex = z.infer<typeof PresetIndex>;

/** A preset as listed. */
export interface PresetSummary {
  name: string;
  suffix: string;
  images: number;
}

/** The most presets `scope` keeps. */
export const presetLimit = (scope: PresetScope): number => (scope === 'server' ? PRESETS_PER_SERVER : PRESETS_PER_MEMBER);

/** The owner key of a scope: the server's, or the member's in that server (`dm` outside servers). */
export function presetOwner(scope: PresetScope, guildId: string | null, userId: string): string {
  return scope === 'server' ? `s:${guildId ?? 'dm'}` : `m:${guildId ?? 'dm'}:${userId}`;
}

/**
 * A preset image's address among an edit's references: not a URL anyone can post (Discord's are https), so the
 * download step knows it reads the record store, not the CDN.
 */
const PRESET_URL = /^preset:([ms]:[0-9a-z:]+)\/([a-z0-9_ -]{1,32})\/([0-9])$/;
export function presetImageUrl(owner: string, name: string, index: number): string {
  return `preset:${owner}/${name}/${String(index)}`;
}
export function parsePresetImageUrl(url: string): { owner: string; name: string; index: number } | undefined {
  const match = PRESET_URL.exec(url);
  if (!match?.[1] || match[2] === undefined || match[3] === undefined) return undefined;
  return { owner: match[1], name: match[2], index: Number(match[3]) };
}

/** Which reference images a job has, in the order they are sent (kept with the job, so a re-roll says it again). */
export const ReferenceRoles = z.object({
  /** A style reference comes first, then a subject reference. */
  style: z.boolean(),
  subject: z.boolean(),
  /** A preset's images, after the member's own. */
  presetImages: z.number().int().min(0).max(PRESET_MAX_IMAGES),
  /** The member's own images before them (/edit's), which keep their meaning. */
  ownImages: z.number().int().min(0).max(16).optional(),
});
export type ReferenceRoles = z.infer<typeof ReferenceRoles>;

/** The prompt with a saved style's suffix at its end (the member sees this one on the card). */
export function withSuffix(prompt: string, suffix = ''): string {
  return suffix.trim() === '' ? prompt : `${prompt}\n${suffix.trim()}`;
}

/**
 * The prompt sent with reference images: each role's image named by its place (Image 1, Image 2…), then the member's
 * prompt, then the preset's suffix. Without roles or a preset's images, the prompt (and suffix) as written.
 */
export function referencePrompt(prompt: string, roles: ReferenceRoles, suffix = ''): string {
  const lines: string[] = [];
  let at = roles.ownImages ?? 0;
  if (roles.style) lines.push(`Image ${String(++at)} is the style reference: use its style, palette and rendering, not its content.`);
  if (roles.subject) lines.push(`Image ${String(++at)} is the subject reference: keep this subject recognisable.`);
  if (roles.presetImages > 0) {
    const first = at + 1;
    const last = at + roles.presetImages;
    lines.push(
      first === last
        ? `Image ${String(first)} is a style reference: use its style, palette and rendering, not its content.`
        : `Images ${String(first)} to ${String(last)} are style references: use their style, palette and rendering, not their content.`,
    );
  }
  const body = withSuffix(prompt, suffix);
  return lines.length === 0 ? body : `${lines.join(' ')}\n${body}`;
}
