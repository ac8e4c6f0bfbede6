/**
 * The demo's steps: what a member does, in order. A step dispatches interactions through the context (so the
 * transcript knows which command each response answers) and returns its result, which later steps build on
 * (`/edit` edits the first image `/imagine` made; a button step would click on `ctx.last.message`).
 */
import type { EmulatedMessage } from '../test/emulators/discord/index.js';
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

/** The custom id of the button of the previous step's card whose action code is `code` (`u0`, `vs`, `z2`…). */
function buttonOf(ctx: DemoContext, code: string): { message: EmulatedMessage; customId: string } {
  const message = ctx.last?.message;
  const ids: string[] = [];
  const visit = (component: { custom_id?: string; components?: unknown[] }) => {
    if (typeof component.custom_id === 'string') ids.push(component.custom_id);
    for (const child of component.components ?? []) visit(child as typeof component);
  };
  for (const component of (message?.components ?? []) as { custom_id?: string }[]) visit(component);
  const customId = ids.find((id) => id.endsWith(`:${code}`));
  if (!message || !customId) throw new Error(`the previous result has no ${code} button`);
  return { message, customId };
}

/** Clicks a button of the previous step's card (U1 picks an image; Vary, Zoom out… run a job) and waits for its card. */
export function clickStep(name: string, code: string, label: string): DemoStep {
  return {
    name,
    run: async (ctx) => {
      const { message, customId } = buttonOf(ctx, code);
      ctx.say(`\n${ctx.member.username} clicks ${label}`);
      const handle = ctx.track(ctx.harness.discord.button(message, customId, { user: ctx.member }));
      // U buttons post a card without a new job: wait for the card itself.
      if (code.startsWith('u')) return ctx.awaitCard(handle, name);
      return ctx.awaitResult(handle, name);
    },
  };
}

/** What `npm run demo` does: two images, the first on a card of its own, a Vary and a Zoom out of it, then an edit. */
export const DEMO_STEPS: readonly DemoStep[] = [
  imagineStep('a watercolor fox in a misty forest', 2),
  clickStep('pick', 'u0', 'U1'),
  clickStep('vary', 'vs', 'Vary (Subtle)'),
  clickStep('zoom', 'z2', 'Zoom Out 2x'),
  editStep('the same scene in deep winter'),
];
