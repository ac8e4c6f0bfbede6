/**
 * The demo's steps: what a member does, in order. A step dispatches interactions through the context (so the
 * transcript knows which command each response answers) and returns its result, which later steps build on
 * (`/edit` edits the first image `/imagine` made; a button step clicks on `ctx.last.message`). The steps of the
 * issue 32 features (ratios, saved styles, drafts, ⭐, Make emoji, /usage's chart) are in feature-steps.ts.
 */
import { buttonOf, type DemoContext, type DemoStep } from './demo-context.js';
import { drafts, makeEmojiStep, showcase, starStep, styleSaveStep, usageStep, useAsStyleStep } from './feature-steps.js';

export type { DemoStep } from './demo-context.js';

/** Options of `/imagine` beyond the prompt and count, and the step's name (`imagine` unless given). */
export interface ImagineExtras {
  readonly name?: string;
  readonly options?: Readonly<Record<string, string | number>>;
}

/** `/imagine prompt:… count:…` with any other options (`ratio:16:9`, `preset:…`). */
export function imagineStep(prompt: string, count = 1, extras: ImagineExtras = {}): DemoStep {
  const name = extras.name ?? 'imagine';
  return {
    name,
    run: async (ctx) => {
      const more = Object.entries(extras.options ?? {});
      ctx.say(`\n${ctx.member.username}: /imagine prompt:"${prompt}" count:${count}${more.map(([key, value]) => ` ${key}:${value}`).join('')}`);
      const options = [
        { name: 'prompt', type: 3, value: prompt },
        { name: 'count', type: 4, value: count },
        ...more.map(([key, value]) => ({ name: key, type: typeof value === 'number' ? 4 : 3, value })),
      ];
      return ctx.awaitResult(ctx.slash('imagine', options), name);
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

/** Clicks a button of the previous step's card (U1 picks an image; Vary, Zoom out, HD… run a job) and waits for its card. */
export function clickStep(name: string, code: string, label: string): DemoStep {
  return {
    name,
    run: async (ctx: DemoContext) => {
      const { message, customId } = buttonOf(ctx.last?.message, code);
      ctx.say(`\n${ctx.member.username} clicks ${label}`);
      const handle = ctx.track(ctx.harness.discord.button(message, customId, { user: ctx.member }));
      // U buttons post a card without a new job: wait for the card itself.
      if (code.startsWith('u')) return ctx.awaitCard(handle, name);
      return ctx.awaitResult(handle, name);
    },
  };
}

/**
 * What `npm run demo` does: two images, the first on a card of its own, a Vary and a Zoom out of it, then an edit;
 * then what issue 32 added: a 16:9 image at 2K, the fox saved as a style and used on a new prompt, Use as style on
 * the edit, a draft made HD once the admin turned drafts on, Make emoji and ⭐ on it (posted to the showcase channel
 * the admin set), and the admin's /usage with its chart.
 */
export const DEMO_STEPS: readonly DemoStep[] = [
  imagineStep('a watercolor fox in a misty forest', 2),
  clickStep('pick', 'u0', 'U1'),
  clickStep('vary', 'vs', 'Vary (Subtle)'),
  clickStep('zoom', 'z2', 'Zoom Out 2x'),
  editStep('the same scene in deep winter'),
  useAsStyleStep('a lighthouse on a cliff at night'),
  imagineStep('a harbour at dawn, wide view', 1, { name: 'wide', options: { model: 'gpt-image-2', ratio: '16:9', resolution: '2K' } }),
  styleSaveStep('imagine', 'fox watercolor', 'soft watercolor washes'),
  imagineStep('an owl on a branch', 1, { name: 'styled', options: { preset: 'fox watercolor' } }),
  drafts(true),
  imagineStep('a paper boat on a pond', 1, { name: 'draft' }),
  clickStep('hd', 'hd', 'HD'),
  makeEmojiStep('paper_boat'),
  showcase(),
  starStep(),
  usageStep(),
];
