/**
 * Components V2 rules (discord-platform.md §1.9; components/reference.mdx) that the OpenAPI description cannot say,
 * checked on a message as it would stand after a create or an edit:
 * - with IS_COMPONENTS_V2 (32768) the message has no content and no embeds; layout components (section 9, text
 *   display 10, thumbnail 11, media gallery 12, file 13, separator 14, container 17) need the flag;
 * - the flag, once set, cannot be removed;
 * - at most 40 components in all, nested ones included; a media gallery holds 1–10 items;
 * - an `attachment://name` reference names one of the message's attachments.
 */
import { Errors, type RestResult } from './rules.js';

export const IS_COMPONENTS_V2 = 32768;
const MAX_COMPONENTS = 40;
const LAYOUT_TYPES = new Set([9, 10, 11, 12, 13, 14, 17]);

interface AnyComponent {
  type?: number;
  components?: AnyComponent[];
  accessory?: AnyComponent;
  items?: { media?: { url?: string } }[];
  media?: { url?: string };
  file?: { url?: string };
}

/** The components of a message, nested ones included, in document order. */
export function allComponents(components: readonly unknown[]): AnyComponent[] {
  const out: AnyComponent[] = [];
  const visit = (component: AnyComponent) => {
    out.push(component);
    for (const child of component.components ?? []) visit(child);
    if (component.accessory) visit(component.accessory);
  };
  for (const component of components as AnyComponent[]) visit(component);
  return out;
}

/** Every media URL the components reference (gallery items, thumbnails, files). */
export function mediaUrls(components: readonly unknown[]): string[] {
  return allComponents(components)
    .flatMap((c) => [...(c.items ?? []).map((item) => item.media?.url), c.type === 11 ? c.media?.url : undefined, c.type === 13 ? c.file?.url : undefined])
    .filter((url): url is string => typeof url === 'string');
}

/** A 400 when the message (as it would stand) breaks a rule above; undefined when it is acceptable. */
export function checkComponentsV2(
  message: { content: string; embeds: readonly unknown[]; components?: readonly unknown[]; flags?: number; attachments: readonly { filename: string }[] },
  previousFlags: number | undefined,
): RestResult | undefined {
  const v2 = ((message.flags ?? 0) & IS_COMPONENTS_V2) !== 0;
  const top = message.components ?? [];
  if (previousFlags !== undefined && (previousFlags & IS_COMPONENTS_V2) !== 0 && !v2)
    return Errors.invalidForm(['flags'], 'MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG', 'The IS_COMPONENTS_V2 flag cannot be removed.');
  const components = allComponents(top);
  if (!v2) {
    if (components.some((c) => LAYOUT_TYPES.has(Number(c.type))))
      return Errors.invalidForm(['components'], 'COMPONENT_LAYOUT_REQUIRES_FLAG', 'These components need the IS_COMPONENTS_V2 flag.');
    return undefined;
  }
  if (message.content !== '')
    return Errors.invalidForm(['content'], 'MESSAGE_CONTENT_NOT_ALLOWED_WITH_COMPONENTS_V2', 'Content cannot be used with IS_COMPONENTS_V2.');
  if (message.embeds.length > 0)
    return Errors.invalidForm(['embeds'], 'MESSAGE_EMBEDS_NOT_ALLOWED_WITH_COMPONENTS_V2', 'Embeds cannot be used with IS_COMPONENTS_V2.');
  if (components.length > MAX_COMPONENTS)
    return Errors.invalidForm(['components'], 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_COMPONENTS} or fewer components in total.`);
  if (components.some((c) => c.type === 12 && ((c.items?.length ?? 0) < 1 || (c.items?.length ?? 0) > 10)))
    return Errors.invalidForm(['components'], 'BASE_TYPE_BAD_LENGTH', 'A media gallery holds 1 to 10 items.');
  const names = new Set(message.attachments.map((a) => a.filename));
  const missing = mediaUrls(top).find((url) => url.startsWith('attachment://') && !names.has(url.slice('attachment://'.length)));
  if (missing !== undefined) return Errors.invalidForm(['components'], 'UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND', `No attachment for ${missing}.`);
  return undefined;
}
