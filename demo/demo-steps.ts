/**
 * The demo's steps: what a member does, in order. A step dispatches interactions through the context (so the
 * transcript knows which command each response answers) and returns its result, which later steps build on
 * (`/edit` edits the first image `/imagine` made; a button step would click on `ctx.last.message`).
 */
import type { DemoContext, DemoResult } from './demo-context.js';

/** One thing the member does. */
export interface DemoStep {
  /** A short name: the saved images are called `{name}-{filename}`. */
  readonly name: string;
  run(ctx: DemoContext): Promise<DemoResult>;
}

/** `/imagine prompt:… count:…`. */
export function imagineStep(prompt: string, count = 1): DemoStep {
  return {
    name: 'imagine',
    run: async (ctx) => {
      ctx.say(`${ctx.member.username}: /imagine prompt:"${prompt}" count:${count}`);
      const options = [
        { name: 'prompt', type: 3, value: prompt },
        { name: 'count', type: 4, value: count },
      ];
      return ctx.awaitResult(ctx.slash('imagine', options), 'imagine');
    },
  };
}

/** `/edit prompt:… image:…` on the first image of the previous step's result. */
export function editStep(prompt: string): DemoStep {
  return {
    name: 'edit',
    run: async (ctx) => {
      const first = ctx.last?.images[0];
      if (!first) throw new Error('/edit needs an image from an earlier step');
      const upload = ctx.harness.discord.uploadAttachment(first.bytes, first.filename, 'image/png');
      ctx.say(`\n${ctx.member.username}: /edit prompt:"${prompt}" image:${first.filename}`);
      const options = [
        { name: 'prompt', type: 3, value: prompt },
        { name: 'image', type: 11, value: upload.id },
      ];
      return ctx.awaitResult(ctx.slash('edit', options, { resolvedAttachments: [upload] }), 'edit');
    },
  };
}

/** What `npm run demo` does. Vary and Zoom out come next, as steps that click the result's buttons. */
export const DEMO_STEPS: readonly DemoStep[] = [imagineStep('a watercolor fox in a misty forest', 2), editStep('the same scene in deep winter')];
