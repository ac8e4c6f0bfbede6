/**
 * The member views and modals in the member's language, end to end (issue 19): /history in Japanese (its page
 * turned by a member whose Discord speaks Korean comes back in Korean: a click is answered in the clicker's
 * language), /show's caption in French, the Edit image modal in Chinese, the Edit, Remix and Vary region modals in
 * German, Korean and Spanish, and the describe card's buttons in French. The results themselves are asked for in
 * English, so the texts checked here come from the views alone.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REALISTIC_MODELS } from '../emulators/gateway/index.js';
import type { EmulatedMessage, InteractionHandle, UserFixture } from '../emulators/discord/index.js';
import { startHarness, type Harness } from './harness.js';
import { customIds, resultPost, lastText, settled, textOf } from './support.js';

/** Every label in a payload (buttons, modal labels, select options), in order. */
const labelsOf = (payload: unknown): string[] => [...JSON.stringify(payload).matchAll(/"label":"([^"]*)"/g)].map((m) => m[1]!);

/** A modal's title and the texts of its components (labels, descriptions, placeholders, options). */
interface ModalSeen {
  title: string;
  texts: string[];
}

describe('the member views and modals in the member’s language, end to end', () => {
  let h: Harness;
  let asker: UserFixture;
  const cards: EmulatedMessage[] = [];
  let png: Buffer;
  beforeAll(async () => {
    h = await startHarness({
      sqlite: true,
      gateway: { models: REALISTIC_MODELS },
      env: { QUOTA_DEFAULT_LIMIT: '50', VISION_MODEL: 'gpt-4o-mini' },
    });
    png = await sharp({ create: { width: 24, height: 16, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    asker = h.discord.fixtures.members[1]!;
    // Six results (two pages of history), asked for in English.
    for (let i = 0; i < 6; i++) {
      const handle = h.discord.slash(
        'imagine',
        [
          { name: 'prompt', type: 3, value: `harbour at night ${i}` },
          { name: 'size', type: 3, value: '1024x1024' },
        ],
        { user: asker },
      );
      await handle.waitFor((x) => resultPost(x) !== undefined);
      const card = handle.lastMessage()!;
      const jobId = customIds(card)[0]!.split(':')[1]!;
      await h.waitForLog((entry) => entry.msg === 'image job delivered' && entry['jobId'] === jobId);
      cards.push(card);
    }
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  const answered = (x: InteractionHandle) => x.edits.some((e) => e.status === 200) || x.acks.some((a) => a.type === 4);
  const lastPayload = (handle: InteractionHandle) => handle.edits.filter((e) => e.status === 200).at(-1)?.payload;
  const modalOf = async (handle: InteractionHandle): Promise<ModalSeen> => {
    const ack = await handle.waitForAck();
    expect(ack.type).toBe(9);
    const data = ack.body!.data! as { title: string; components: unknown };
    const texts = [...JSON.stringify(data.components).matchAll(/"(?:label|description|placeholder)":"([^"]*)"/g)].map((m) => m[1]!);
    return { title: data.title, texts };
  };
  const clickOn = (card: EmulatedMessage, code: string, user: UserFixture, locale: string) =>
    h.discord.button(
      card,
      customIds(card).find((c) => c.endsWith(`:${code}`))!,
      { user, locale },
    );

  it('shows /history in Japanese, and a page turned by a member whose Discord speaks Korean in Korean', async () => {
    const list = h.discord.slash('history', [{ name: 'list', type: 1, options: [] }], { user: asker, locale: 'ja' });
    await list.waitFor(answered);
    expect(lastText(list)).toBe('**最近の画像** · 1 / 2 ページ · 6 件のジョブ');
    const embeds = (lastPayload(list)?.embeds ?? []) as { description?: string }[];
    expect(embeds).toHaveLength(5);
    expect(embeds[0]?.description).toMatch(
      /<t:\d+:f> · gpt-image-\S+ · 1024x1024 · 1 枚\n\[メッセージを開く\]\(https:\/\/discord\.com\/channels\/.+\) · `\/show job:\S+` でもう一度投稿$/,
    );
    const page = list.lastMessage()!;
    expect(labelsOf(page.components)).toEqual(['前へ', '次へ']);

    const next = h.discord.button(
      page,
      customIds(page).find((id) => id.startsWith('histpage:1:'))!,
      { user: asker, locale: 'ko' },
    );
    await next.waitFor((x) => x.edits.some((e) => e.status === 200));
    expect(lastText(next)).toBe('**최근 이미지** · 2/2 페이지 · 작업 6개');
    expect(String((lastPayload(next)?.embeds?.[0] as { description?: string }).description)).toContain('[메시지 열기](');
    expect(labelsOf(next.lastMessage()!.components)).toEqual(['이전', '다음']);
    expect(h.discord.specViolations).toEqual([]);
  });

  it('posts /show’s caption in French', async () => {
    const jobId = customIds(cards[2])[0]!.split(':')[1]!;
    const shown = h.discord.slash('show', [{ name: 'job', type: 3, value: jobId }], { user: asker, locale: 'fr' });
    await shown.waitFor((x) => x.followUps.some((e) => e.status === 200 && e.files.length > 0));
    const text = textOf(shown.lastMessage());
    expect(text).toContain('**harbour at night 2**');
    expect(text).toMatch(
      new RegExp(`-# Imaginé pour <@${asker.id}> <t:\\d+:f> · gpt-image-\\S+ · 1024x1024 · \\[original\\]\\(https://discord\\.com/channels/`),
    );
    expect(text).not.toContain('Imagined for');
    expect(labelsOf(shown.lastMessage()!.components)).toEqual(expect.arrayContaining(['Remixer', 'Supprimer']));
  });

  it('opens the Edit image modal in Chinese, its note too', async () => {
    const target = h.discord.createUserMessage(h.discord.fixtures.guild.channels.general.id, h.discord.fixtures.users.member2, 'look', [
      h.discord.uploadAttachment(png, 'photo.png', 'image/png'),
      h.discord.uploadAttachment(Buffer.from('just text'), 'notes.txt', 'text/plain'),
    ]);
    const modal = await modalOf(h.discord.messageCommand('Edit image', target, { user: h.discord.fixtures.members[2]!, locale: 'zh-CN' }));
    expect(modal).toEqual({ title: '编辑图片', texts: ['提示词', '要改变什么？（1 张图片；已忽略 1 个其他附件）'] });
  });

  it('opens the Edit modal in German, Remix in Korean and Vary region in Spanish', async () => {
    const card = cards[5]!;
    const clicker = h.discord.fixtures.members[3]!;
    const edit = await modalOf(
      h.discord.button(
        card,
        customIds(card).find((c) => c.startsWith('editres:'))!,
        { user: clicker, locale: 'de' },
      ),
    );
    expect(edit).toEqual({ title: 'Dieses Bild bearbeiten', texts: ['Prompt', 'Was soll sich ändern? (dieses Ergebnis ist die Vorlage)'] });

    const remix = await modalOf(clickOn(card, 'rm', clicker, 'ko'));
    expect(remix).toEqual({
      title: '리믹스',
      texts: [
        '프롬프트',
        '프롬프트를 바꾼 뒤 리믹스하세요',
        '크기',
        'auto 또는 너비x높이(예: 1536x1024)',
        '품질',
        'auto, low, medium 또는 high',
        '시작점',
        '프롬프트로 새 이미지 만들기',
        '이 이미지를 프롬프트대로 바꾸기',
      ],
    });

    const region = await modalOf(clickOn(card, 'rg', clicker, 'es-ES'));
    expect(region.title).toBe('Variar zona');
    expect(region.texts.slice(0, 3)).toEqual([
      'Partes que cambiar',
      'La imagen en una cuadrícula de 3×3; el resto se queda como está',
      'arriba a la izquierda',
    ]);
    expect(region.texts.slice(-3)).toEqual(['abajo a la derecha', 'Prompt', '¿Qué debería haber ahí?']);
    expect(h.discord.specViolations).toEqual([]);
  });

  it('answers /describe with its buttons and hint in French', async () => {
    h.gateway.enqueueChat({
      type: 'success',
      content: [
        'A harbour at night.',
        '1. a harbour at night, oil painting',
        '2. a harbour at night, photograph',
        '3. a harbour, flat vector art',
        '4. a harbour, watercolour',
      ].join('\n'),
    });
    const attachment = h.discord.uploadAttachment(png, 'harbour.png', 'image/png');
    const handle = h.discord.slash('describe', [{ name: 'image', type: 11, value: attachment.id }], { user: h.discord.fixtures.members[4]!, locale: 'fr' });
    await handle.waitFor((x) => x.edits.some((e) => e.status === 200 && customIds(e.payload).length > 0) || settled(x));
    const card = handle.lastMessage()!;
    expect(labelsOf(card.components)).toEqual(['Imaginer ceci 1', 'Imaginer ceci 2', 'Imaginer ceci 3', 'Imaginer ceci 4']);
    expect(textOf(card)).toContain('-# Appuyez sur Imaginer ceci pour générer à partir d’un prompt (cela compte dans votre quota).');
    expect(textOf(card)).toContain('A harbour at night.');
    expect(h.discord.specViolations).toEqual([]);
  });

  it('clears the history in Japanese', async () => {
    const clear = h.discord.slash('history', [{ name: 'clear', type: 1, options: [] }], { user: asker, locale: 'ja' });
    await clear.waitFor(answered);
    expect(lastText(clear)).toBe('ここでの履歴を消去しました。画像は投稿された場所にそのまま残っています。');
    const empty = h.discord.slash('history', [{ name: 'list', type: 1, options: [] }], { user: asker, locale: 'ja' });
    await empty.waitFor(answered);
    expect(lastText(empty)).toBe('ここでの履歴にはまだ画像がありません。');
  });
});
