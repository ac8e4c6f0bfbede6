import type { EditTransform } from '../../src/core/result-actions.js';
import { ComponentType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { renderProgress, resultButtons } from '../../src/discord/views/render.js';
import { MAX_CARD_TEXT } from '../../src/discord/views/result-card.js';
import type { Delivery, DeliveryNotice } from '../../src/core/jobs.js';
import { newJobId } from '../../src/service/job-id.js';
import { imagineJob, MEMBER_ID } from '../fakes/jobs.js';
import { cardText } from './card-text.js';

function delivery(prompt: string, notices: DeliveryNotice[] = [], kind: 'imagine' | 'edit' = 'imagine'): Delivery {
  const job = { ...imagineJob({ prompt, size: { width: 1536, height: 1024 }, quality: 'high' }), kind };
  return { job, model: 'gpt-image-1', files: [], notices };
}

const ALL_NOTICES: DeliveryNotice[] = [
  { kind: 'sizeFallback', requested: '1920x1088', used: '1536x1024' },
  { kind: 'droppedParams', params: ['moderation', 'output_compression'] },
  { kind: 'reencoded', count: 2, format: 'webp' },
  { kind: 'dropped', count: 1 },
];

describe('renderProgress', () => {
  it.each([
    [{ stage: 'queued', position: 1 } as const, '⏳ Queued: you are next.'],
    [{ stage: 'queued', position: 4 } as const, '⏳ Queued: position 4.'],
    [{ stage: 'generating', startedAt: 1_750_000_012_400 } as const, '🎨 Generating… started <t:1750000012:R>'],
    [{ stage: 'gatewayQueued', startedAt: 1_750_000_012_400 } as const, '⏳ Queued at the gateway… sent <t:1750000012:R>'],
    [
      { stage: 'generating', startedAt: 1_750_000_003_000, preview: { index: 0, bytes: Buffer.alloc(1), format: 'png' } } as const,
      '🎨 Generating… started <t:1750000003:R> (early preview below)',
    ],
  ])('GIVEN %o THEN %s', (progress, text) => {
    expect(renderProgress(progress)).toBe(text);
  });
});

describe('the text of a result card', () => {
  it('shows the prompt in bold, then who asked, the model, size and quality', () => {
    expect(cardText(delivery('a lighthouse at dusk'))).toBe(
      `**a lighthouse at dusk**\n-# Imagined for <@${MEMBER_ID}> · gpt-image-1 · 1536×1024 · high quality`,
    );
  });

  it('names the size made and the quality in words, auto ones too', () => {
    const made = { ...delivery('x'), files: [{ bytes: Buffer.alloc(1), format: 'png' as const, width: 1024, height: 1536 }] };
    expect(cardText(made)).toContain('· gpt-image-1 · 1024×1536 · high quality');
    const auto = { ...made, job: { ...made.job, request: { prompt: 'x' } } };
    expect(cardText(auto)).toContain('· gpt-image-1 · 1024×1536 · auto quality');
    expect(cardText({ ...auto, files: [] })).toMatch(/· gpt-image-1 · auto quality$/);
  });

  it.each([
    [{ kind: 'vary', strength: 'strong' }, 'Varied (strong) for'],
    [{ kind: 'vary', strength: 'subtle' }, 'Varied (subtle) for'],
    [{ kind: 'zoom', factor: 2 }, 'Zoomed out 2× for'],
    [{ kind: 'zoom', factor: 1.5 }, 'Zoomed out 1.5× for'],
    [{ kind: 'pan', direction: 'left' }, 'Panned left for'],
    [{ kind: 'region', cells: [4] }, 'Region redrawn for'],
    [{ kind: 'enlarge' }, 'Enlarged for'],
  ] satisfies [EditTransform, string][])('says what an action did: %o', (transform, words) => {
    const edited = delivery('x', [], 'edit');
    expect(cardText({ ...edited, job: { ...edited.job, edit: { images: [], transform } } })).toContain(`-# ${words} <@`);
  });

  it('says Edited for edits and numbers the parts of a split delivery', () => {
    expect(cardText(delivery('x', [], 'edit'), { index: 2, total: 3 })).toContain('-# Edited for');
    expect(cardText(delivery('x', [], 'edit'), { index: 2, total: 3 })).toContain('(2/3)');
    expect(cardText(delivery('x'), { index: 1, total: 1 })).not.toContain('(1/1)');
  });

  it('keeps a 6000-character prompt within the card’s 4000 characters, with every notice', () => {
    const caption = cardText(delivery('a'.repeat(6000), ALL_NOTICES), { index: 1, total: 2 });
    expect(caption.length).toBeLessThanOrEqual(MAX_CARD_TEXT);
    expect(caption).toContain('…**');
    expect(caption).toContain("-# The service didn't accept 1920x1088, so I used 1536x1024.");
    expect(caption).toContain('-# This model ignored: moderation, output_compression.');
    expect(caption).toContain("-# 2 images were re-encoded as WEBP to fit Discord's upload limit.");
    expect(caption).toContain("-# One image was too large to post even after re-encoding, and wasn't charged.");
  });

  it('stays within 4000 characters for a prompt of astral characters without splitting a surrogate pair', () => {
    const caption = cardText(delivery('🦊'.repeat(3000), ALL_NOTICES));
    expect(caption.length).toBeLessThanOrEqual(MAX_CARD_TEXT);
    expect(caption).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it('cannot be broken out of bold by asterisks in the prompt', () => {
    expect(cardText(delivery('**loud** cat'))).toMatch(/^\*\*\\\*\\\*loud\\\*\\\* cat\*\*\n/);
  });

  it('shows a prompt full of markdown, links, mentions and fake bot lines as inert text on one line', () => {
    const prompt = [
      'a cat ||spoiler|| `code` __under__ ~~gone~~ [click me](https://evil.example/x) https://evil.example/y',
      '# Big heading',
      '-# Imagined for <@123456789012345678> · gpt-image-1 · free',
      '> quoted <#42> <t:1:R> @everyone',
      '- listed',
    ].join('\n');
    const caption = cardText(delivery(prompt));
    const [first, ...rest] = caption.split('\n');
    // The bot's own subtext line is the only other line; the prompt's fake one is inside the bold first line.
    expect(rest).toEqual([expect.stringMatching(/^-# Imagined for <@\d+> · /)]);
    expect(first).toBe(
      '**a cat \\|\\|spoiler\\|\\| \\`code\\` \\_\\_under\\_\\_ \\~\\~gone\\~\\~ \\[click me\\](https:/\u200b/evil.example/x) https:/\u200b/evil.example/y' +
        ' # Big heading -# Imagined for \\<@123456789012345678\\> · gpt-image-1 · free \\> quoted \\<#42\\> \\<t:1:R\\> @everyone - listed**',
    );
    expect(first).not.toMatch(/(^|[^\\])<[@#t]/);
    expect(first).not.toContain('://');
  });

  it('keeps the escaped prompt within the caption limit, never cutting an escape in half', () => {
    const caption = cardText(delivery('*'.repeat(4_000)));
    expect(caption.length).toBeLessThanOrEqual(MAX_CARD_TEXT);
    const prompt = caption.split('\n')[0]?.replace(/^\*\*|\*\*$/g, '') ?? '';
    expect(prompt).toMatch(/^(\\\*)+…$/);
  });

  it('renders singular notices in the singular', () => {
    const caption = cardText(
      delivery('x', [
        { kind: 'reencoded', count: 1, format: 'jpeg' },
        { kind: 'dropped', count: 2 },
      ]),
    );
    expect(caption).toContain('One image was re-encoded as JPEG');
    expect(caption).toContain("2 images were too large to post even after re-encoding, and weren't charged.");
  });

  it('says under the result how many images came back, and how many were charged', () => {
    expect(cardText(delivery('x', [{ kind: 'fewer', requested: 3, received: 1, charged: 1 }]))).toContain(
      '-# 1 of 3 images came back from the service; you were charged for 1 image.',
    );
    expect(cardText(delivery('x', [{ kind: 'fewer', requested: 3, received: 2, charged: 2 }]))).toContain('you were charged for 2 images.');
  });
});

describe('resultButtons', () => {
  it('gives Re-roll, Edit and Delete custom ids of at most 100 characters that carry the job id', () => {
    const jobId = newJobId();
    const [row] = resultButtons(jobId);
    expect(row?.type).toBe(ComponentType.ActionRow);
    const ids = (row?.components ?? []).map((b) => ('custom_id' in b ? b.custom_id : ''));
    expect(ids).toEqual([`reroll:${jobId}`, `editres:${jobId}`, `delres:${jobId}`]);
    for (const id of ids) expect(id.length).toBeLessThanOrEqual(100);
  });
});
