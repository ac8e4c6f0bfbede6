/**
 * The transcript page's renderer (demo/transcript-html.ts) over hand-built messages: hostile text stays text wherever
 * it lands (content, names, file names, labels, URLs), Discord's markdown is shown as Discord shows it, and both a
 * plain result and a Components V2 card render with their images, buttons and selects.
 */
import { MessageType, type APIMessage } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { renderTranscriptPage, type TranscriptInput } from '../../demo/transcript-html.js';
import { renderMarkdown } from '../../demo/transcript-markdown.js';
import { inertText } from '../../src/discord/text.js';

const BOT = { id: '1000000000000000001', username: 'imagine-bot', discriminator: '0', global_name: null, avatar: null, bot: true };
const MEMBER = { id: '1000000000000000002', username: 'member', discriminator: '0', global_name: 'Member', avatar: null };
const CHANNEL = '1000000000000000010';
const names = { users: new Map([[MEMBER.id, 'Member']]), channels: new Map([[CHANNEL, 'general']]), roles: new Map([['1000000000000000020', 'artist']]) };

/** A message as the emulator stores it; `fields` overrides the defaults. */
function message(fields: Record<string, unknown>): APIMessage {
  return {
    id: '1000000000000000100',
    type: MessageType.ChatInputCommand,
    channel_id: CHANNEL,
    author: BOT,
    content: '',
    embeds: [],
    components: [],
    attachments: [],
    mentions: [],
    mention_roles: [],
    mention_everyone: false,
    pinned: false,
    tts: false,
    timestamp: '2026-06-01T12:00:00.000Z',
    edited_timestamp: null,
    ...fields,
  };
}

function page(messages: APIMessage[], extra: Partial<TranscriptInput> = {}): string {
  return renderTranscriptPage({ title: 'demo', messages, names, commands: new Map(), files: new Map(), ...extra });
}

const HOSTILE = `<script>window.pwned=1</script><img src=x onerror="window.pwned=1"> "quoted" & 'single'`;
const image = (id: string, filename: string) => ({
  id,
  filename,
  size: 2048,
  url: `http://127.0.0.1:1/attachments/${CHANNEL}/${id}/${filename}`,
  proxy_url: `http://127.0.0.1:1/attachments/${CHANNEL}/${id}/${filename}`,
  content_type: 'image/png',
  width: 64,
  height: 64,
});

/**
 * No markup from the hostile text survived: every `<` in the page starts one of the renderer's own tags (text is
 * escaped), none of them is a script or the planted image, and no tag carries an event handler or a javascript: URL.
 */
function expectInert(html: string): void {
  const tags = html.match(/<[^>]*>/g) ?? [];
  expect(tags.filter((tag) => /^<\/?(script|img src=x)/i.test(tag))).toEqual([]);
  // Quotes are escaped inside values, so `"…"` is exactly one value: what is left is the tag's names.
  expect(tags.filter((tag) => /\son\w+\s*=/i.test(tag.replace(/"[^"]*"/g, '""')))).toEqual([]);
  expect(tags.filter((tag) => /(href|src)="\s*javascript:/i.test(tag))).toEqual([]);
}

describe('transcript page: escaping', () => {
  it('shows a prompt with <script> and <img onerror> as text, whether raw or as the bot escapes it', () => {
    const html = page([message({ content: `**${inertText(HOSTILE, 500)}**\n${HOSTILE}` })]);
    expectInert(html);
    const shown = '&#60;script&#62;window.pwned=1&#60;/script&#62;&#60;img src=x onerror=&#34;window.pwned=1&#34;&#62; &#34;quoted&#34; &#38; &#39;single&#39;';
    expect(html).toContain(`<strong>${shown}</strong>`);
    expect(html.split(shown)).toHaveLength(3);
  });

  it('escapes names, file names, descriptions, labels, placeholders, embeds and the title, and drops javascript: URLs', () => {
    const hostileUser = { ...MEMBER, id: '1000000000000000003', global_name: HOSTILE };
    const attachment = { ...image('1000000000000000200', `"><script>x</script>.png`), description: HOSTILE };
    const html = page(
      [
        message({ author: hostileUser, content: `<@${hostileUser.id}> [link](javascript:alert(1)) javascript:alert(1)` }),
        message({
          interaction_metadata: { id: '1000000000000000300', type: 2, user: hostileUser, authorizing_integration_owners: {} },
          attachments: [attachment],
          embeds: [
            {
              title: HOSTILE,
              url: 'javascript:alert(1)',
              description: HOSTILE,
              image: { url: 'javascript:alert(1)' },
              fields: [{ name: HOSTILE, value: HOSTILE }],
            },
          ],
          components: [
            {
              type: 1,
              components: [{ type: 2, style: 5, label: HOSTILE, url: 'javascript:alert(1)', emoji: { name: HOSTILE } }],
            },
            {
              type: 1,
              components: [{ type: 3, custom_id: HOSTILE, placeholder: HOSTILE, options: [{ label: HOSTILE, value: HOSTILE, description: HOSTILE }] }],
            },
          ],
        }),
      ],
      {
        title: HOSTILE,
        subtitle: HOSTILE,
        names: { ...names, users: new Map([[hostileUser.id, HOSTILE]]), channels: new Map([[CHANNEL, HOSTILE]]) },
        commands: new Map([['1000000000000000300', HOSTILE]]),
        files: new Map([[attachment.id, `transcript-files/"onerror="x`]]),
      },
    );
    expectInert(html.replace(/transcript-files\/&#34;onerror=&#34;x/g, 'saved-file'));
    expect(html).toContain('src="transcript-files/&#34;onerror=&#34;x"');
    expect(html).toContain('[image not available: javascript:alert(1)]');
  });
});

describe('transcript page: markdown', () => {
  it.each([
    ['**bold** and *italic* and __under__ and ~~gone~~', '<strong>bold</strong> and <em>italic</em> and <u>under</u> and <s>gone</s>'],
    ['-# Imagined for <@1000000000000000002>', '<div class="subtext">Imagined for <span class="mention">@Member</span></div>'],
    ['`**not bold** <@1>`', '<code>**not bold** &#60;@1&#62;</code>'],
    ['<@&1000000000000000020> in <#1000000000000000010>', '<span class="mention">@artist</span> in <span class="mention">#general</span>'],
    ['\\*\\*kept\\*\\* \\<@1\\>', '**kept** &#60;@1&#62;'],
  ])('renders %j', (text, html) => {
    expect(renderMarkdown(text, names)).toContain(html);
  });

  it('shows <t:…:R> as a readable UTC date', () => {
    expect(renderMarkdown('started <t:1780315200:R>', names)).toContain('>1 June 2026 at 12:00:00 UTC</time>');
  });
});

describe('transcript page: messages', () => {
  it('renders a plain result: caption, images from the saved files, and its buttons with style, emoji and state', () => {
    const files = new Map([
      ['1000000000000000201', 'transcript-files/1-a.png'],
      ['1000000000000000202', 'transcript-files/2-b.png'],
    ]);
    const result = message({
      content: '**a fox**\n-# Imagined for <@1000000000000000002>',
      interaction_metadata: { id: '1000000000000000300', type: 2, user: MEMBER, authorizing_integration_owners: {} },
      attachments: [image('1000000000000000201', 'a.png'), image('1000000000000000202', 'b.png')],
      components: [
        {
          type: 1,
          components: [
            { type: 2, style: 2, custom_id: 'reroll:1', label: 'Re-roll', emoji: { name: '🔁' } },
            { type: 2, style: 4, custom_id: 'delres:1', label: 'Delete', disabled: true },
          ],
        },
      ],
    });
    const html = page([result], { files, commands: new Map([['1000000000000000300', 'imagine']]) });
    expect(html).toContain('<span class="author">Member</span> used <span class="command">/imagine</span>');
    expect(html).toContain('src="transcript-files/1-a.png"');
    expect(html).toContain('src="transcript-files/2-b.png"');
    expect(html).toContain(
      '<button type="button" class="button secondary" data-custom-id="reroll:1"><span class="emoji">🔁</span><span class="label">Re-roll</span></button>',
    );
    expect(html).toContain(
      '<button type="button" class="button danger disabled" disabled data-custom-id="delres:1"><span class="label">Delete</span></button>',
    );
  });

  it('renders a Components V2 card: accent colour, text, gallery and thumbnail from attachment://, separator, file; unreferenced attachments hidden', () => {
    const card = message({
      flags: 32768,
      attachments: [
        image('1000000000000000201', 'fox.png'),
        image('1000000000000000202', 'unused.png'),
        { ...image('1000000000000000203', 'notes.txt'), content_type: 'text/plain' },
      ],
      components: [
        {
          type: 17,
          accent_color: 0x5865f2,
          components: [
            { type: 10, content: '**a fox**' },
            { type: 12, items: [{ media: { url: 'attachment://fox.png' }, description: 'the fox' }] },
            { type: 9, components: [{ type: 10, content: 'details' }], accessory: { type: 11, media: { url: 'attachment://fox.png' } } },
            { type: 14, divider: true, spacing: 2 },
            { type: 13, file: { url: 'attachment://notes.txt' } },
            { type: 1, components: [{ type: 2, style: 1, custom_id: 'vary:1', label: 'Vary' }] },
          ],
        },
      ],
    });
    const files = new Map([
      ['1000000000000000201', 'transcript-files/fox.png'],
      ['1000000000000000202', 'transcript-files/unused.png'],
      ['1000000000000000203', 'transcript-files/notes.txt'],
    ]);
    const html = page([card], { files });
    expect(html).toContain('<div class="container accented" style="border-left-color:#5865f2">');
    expect(html).toContain('<div class="text-display"><div class="line"><strong>a fox</strong></div></div>');
    expect(html).toContain('<img class="gallery-image" src="transcript-files/fox.png" alt="the fox"');
    expect(html).toContain('<img class="thumbnail" src="transcript-files/fox.png"');
    expect(html).toContain('<div class="separator large divider"></div>');
    expect(html).toContain('<a href="transcript-files/notes.txt" download>notes.txt</a>');
    expect(html).toContain('<span class="label">Vary</span>');
    expect(html).not.toContain('unused.png');
  });

  it("says what a modal's submit filled in, as text", () => {
    const answer = message({
      flags: 64,
      content: 'Added',
      interaction_metadata: { id: '1000000000000000300', type: 5, user: MEMBER, authorizing_integration_owners: {} },
    });
    const html = page([answer], { forms: new Map([['1000000000000000300', `Make an emoji · name: ${HOSTILE}`]]) });
    expectInert(html);
    expect(html).toContain('<span class="author">Member</span> submitted a form: <span class="form">Make an emoji · name: &#60;script&#62;');
    expect(page([answer])).toContain('<span class="author">Member</span> submitted a form</div>');
  });

  it('marks an ephemeral message "Only you can see this" and a deferred one as thinking', () => {
    const html = page([message({ flags: 64, content: 'Your quota' }), message({ id: '1000000000000000101', flags: 128 })]);
    expect(html).toContain('<article class="message ephemeral"');
    expect(html).toContain('Only you can see this');
    expect(html).toContain('imagine-bot is thinking…');
  });
});
