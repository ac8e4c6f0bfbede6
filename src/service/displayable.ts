/**
 * Images as Discord can show them. PNG, JPEG, WebP and GIF (animated too) are shown as they are; an SVG is not
 * shown at all, so it is sanitised and rendered to a PNG within bounds (svg-render.ts), and its sanitised original
 * is posted beside it.
 */
import { UserFacingError } from '../errors.js';
import type { GeneratedImage } from '../core/images.js';
import { SvgRenderError, type AdmitBytes, type SvgRenderer } from './svg-render.js';
import type { SvgChanges } from '../core/svg-sanitise.js';

/** The image to show, and for an SVG its sanitised original and what the sanitiser changed. */
export interface Displayable {
  image: GeneratedImage;
  original?: GeneratedImage | undefined;
  changes?: SvgChanges | undefined;
}

/** How SVGs are rendered: the process's renderer, the job's memory to admit each render's bytes to, and whose job it is. */
export interface SvgRendering {
  renderer: SvgRenderer;
  admit: AdmitBytes;
  /** The member, whose renders take their turn with other members' (svg-render.ts). */
  member?: string | undefined;
}

/**
 * Every image made displayable, in order. SVGs are rendered one after another (a job takes one render slot at a
 * time), each admitted with what the job already holds: the answer's images and the renderings made so far.
 * @throws UserFacingError `delivery.svgRefused` when an SVG cannot be rendered within bounds
 */
export async function displayable(images: readonly GeneratedImage[], svg: SvgRendering): Promise<Displayable[]> {
  let held = images.reduce((sum, image) => sum + image.bytes.length, 0);
  const shown: Displayable[] = [];
  for (const image of images) {
    if (image.format !== 'svg') {
      shown.push({ image });
      continue;
    }
    try {
      const rendering = await svg.renderer.render(image, svg.admit, held, svg.member);
      held += rendering.image.bytes.length + rendering.original.bytes.length;
      shown.push(rendering);
    } catch (err) {
      if (err instanceof SvgRenderError) throw new UserFacingError('delivery.svgRefused', {}, { cause: err });
      throw err;
    }
  }
  return shown;
}
