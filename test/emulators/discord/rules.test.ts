/**
 * Platform rules the emulator enforces, proven through the real discord.js client: the ack deadline, single ack,
 * callback types, token lifetime, upload and content limits, attachment edit semantics and spec validation.
 */
import { AttachmentBuilder, type ChatInputCommandInteraction, type Interaction, Routes } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specTest } from '../../support/openapi.js';
import { connectClient, type HarnessedClient } from './client-harness.js';
import { type DiscordEmulator, IS_SPOILER, startDiscordEmulator } from './index.js';

let emulator: DiscordEmulator;
let harness: HarnessedClient;

beforeAll(async () => {
  emulator = await startDiscordEmulator({ log: false });
  harness = await connectClient(emulator);
});

afterAll(async () => {
  await (harness as HarnessedClient | undefined)?.destroy();
  await (emulator as DiscordEmulator | undefined)?.close();
});

/** Dispatches /imagine, runs `body` as the bot's handler and returns the handle once `body` has finished. */
async function runSlash(body: (interaction: ChatInputCommandInteraction) => Promise<void>, ctx: { attachmentSizeLimit?: number } = {}) {
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const errors: unknown[] = [];
  harness.onInteraction(async (interaction: Interaction) => {
    if (!interaction.isChatInputCommand()) return;
    try {
      await body(interaction);
    } catch (err) {
      errors.push(err);
    } finally {
      finished();
    }
  });
  const handle = emulator.slash('imagine', [{ name: 'prompt', type: 3, value: 'a cat' }], { user: emulator.fixtures.member, ...ctx });
  await done;
  return { handle, errors };
}

function rejection(promise: Promise<unknown>): Promise<{ code?: unknown; status?: unknown }> {
  return promise.then(
    () => {
      throw new Error('expected the request to be rejected');
    },
    (err: unknown) => err as { code?: unknown; status?: unknown },
  );
}

const bytes = (n: number) => Buffer.alloc(n, 7);

describe('initial response', () => {
  it('rejects an ack after the (clock-advanced) deadline with 404/10062', async () => {
    const { handle, errors } = await runSlash(async (interaction) => {
      emulator.clock.advance(3_001);
      await interaction.deferReply();
    });
    expect(handle.acks).toEqual([expect.objectContaining({ type: 5, status: 404, errorCode: 10062 })]);
    expect(errors).toEqual([expect.objectContaining({ code: 10062 })]);
  });

  it('rejects a second initial ack with 400/40060', async () => {
    let second: { code?: unknown; status?: unknown } | undefined;
    const { handle } = await runSlash(async (interaction) => {
      await interaction.deferReply();
      // discord.js guards this client-side; go around it as a buggy bot would.
      second = await rejection(harness.client.rest.post(Routes.interactionCallback(interaction.id, interaction.token), { body: { type: 5 }, auth: false }));
    });
    expect(second).toMatchObject({ code: 40060, status: 400 });
    expect(handle.acks.map((a) => [a.status, a.errorCode])).toEqual([
      [204, undefined],
      [400, 40060],
    ]);
  });

  it('rejects callback types that do not suit the interaction and type-5 flags other than 64, without consuming the ack', async () => {
    const results: unknown[] = [];
    const { handle } = await runSlash(async (interaction) => {
      const post = (body: unknown) => rejection(harness.client.rest.post(Routes.interactionCallback(interaction.id, interaction.token), { body, auth: false }));
      results.push(await post({ type: 6 }), await post({ type: 8, data: { choices: [] } }), await post({ type: 5, data: { flags: 4 } }));
      await interaction.deferReply();
    });
    expect(results).toEqual([0, 1, 2].map((): unknown => expect.objectContaining({ code: 50035, status: 400 })));
    expect(handle.acks.map((a) => a.status)).toEqual([400, 400, 400, 204]);
  });

  const spec = specTest('discord', 'records a body that violates the spec (callback type 99) in specViolations');
  it.skipIf(spec.skip)(spec.title, async () => {
    const before = emulator.specViolations.length;
    let error: { code?: unknown } | undefined;
    await runSlash(async (interaction) => {
      error = await rejection(harness.client.rest.post(Routes.interactionCallback(interaction.id, interaction.token), { body: { type: 99 }, auth: false }));
    });
    expect(error).toMatchObject({ code: 50035 });
    expect(emulator.specViolations.slice(before).join('\n')).toMatch(/callback/);
    emulator.specViolations.splice(before);
  });
});

describe('interaction webhook', () => {
  it('answers 401/50027 once the token is older than 15 minutes', async () => {
    const { handle, errors } = await runSlash(async (interaction) => {
      await interaction.deferReply();
      emulator.clock.advance(15 * 60_000 + 1);
      await interaction.editReply('too late');
    });
    expect(errors).toEqual([expect.objectContaining({ code: 50027, status: 401 })]);
    expect(handle.edits).toEqual([expect.objectContaining({ status: 401, errorCode: 50027 })]);
  });

  it('answers 413/40005 for a file over the interaction attachment_size_limit', async () => {
    const { handle, errors } = await runSlash(
      async (interaction) => {
        await interaction.deferReply();
        await interaction.editReply({ files: [new AttachmentBuilder(bytes(1001), { name: 'big.png' })] });
      },
      { attachmentSizeLimit: 1000 },
    );
    expect(errors).toEqual([expect.objectContaining({ code: 40005, status: 413 })]);
    expect(handle.edits[0]).toMatchObject({ status: 413, errorCode: 40005 });
  });

  it('rejects more than 10 files and content over 2000 characters with 400/50035', async () => {
    const before = emulator.specViolations.length;
    const rejected: unknown[] = [];
    const { handle, errors } = await runSlash(async (interaction) => {
      await interaction.deferReply();
      const files = Array.from({ length: 11 }, (_, i) => new AttachmentBuilder(bytes(10), { name: `f${i}.png` }));
      rejected.push(await rejection(interaction.editReply({ files })));
      rejected.push(await rejection(interaction.followUp({ content: 'x'.repeat(2001) })));
    });
    expect(errors).toEqual([]);
    expect(rejected).toEqual([expect.objectContaining({ code: 50035, status: 400 }), expect.objectContaining({ code: 50035, status: 400 })]);
    expect(handle.edits[0]?.files).toHaveLength(11);
    expect(handle.lastMessage()?.attachments).toEqual([]);
    emulator.specViolations.splice(before);
  });

  it('applies PATCH attachments semantics: listed existing ids stay, unlisted ones go, new files are added', async () => {
    const { handle, errors } = await runSlash(async (interaction) => {
      await interaction.deferReply();
      const first = await interaction.editReply({ files: [0, 1].map((i) => new AttachmentBuilder(bytes(5 + i), { name: `a${i}.png` })) });
      const keep = first.attachments.find((a) => a.name === 'a0.png')!;
      await interaction.editReply({ files: [new AttachmentBuilder(bytes(9), { name: 'new.png' })], attachments: [keep] });
    });
    expect(errors).toEqual([]);
    const first = handle.edits[0];
    expect(first?.status).toBe(200);
    const names = handle
      .lastMessage()
      ?.attachments.map((a) => a.filename)
      .sort();
    expect(names).toEqual(['a0.png', 'new.png']);
    expect(emulator.specViolations).toEqual([]);
  });

  it('keeps is_spoiler (and a SPOILER_ name) as the attachment flag IS_SPOILER, kept by id on an edit; refuses a non-boolean', async () => {
    const before = emulator.specViolations.length;
    let refused: { code?: unknown; status?: unknown } | undefined;
    const seen: boolean[] = [];
    const { handle, errors } = await runSlash(async (interaction) => {
      await interaction.deferReply();
      const route = Routes.webhookMessage(interaction.applicationId, interaction.token, '@original');
      const files = [
        { name: 'a.png', data: bytes(5) },
        { name: 'SPOILER_b.png', data: bytes(6) },
        { name: 'c.png', data: bytes(7) },
      ];
      const attachments = [{ id: '0', is_spoiler: true }, { id: '1' }, { id: '2', is_spoiler: false }];
      await harness.client.rest.patch(route, { body: { content: 'x', attachments }, files, auth: false });
      const message = await interaction.fetchReply();
      seen.push(...message.attachments.map((a) => a.spoiler));
      // Kept by id: the flags stay as they were.
      await interaction.editReply({ content: 'y', attachments: [...message.attachments.values()] });
      refused = await rejection(harness.client.rest.patch(route, { body: { attachments: [{ id: '0', is_spoiler: 'yes' }] }, files: [files[0]!], auth: false }));
    });
    expect(errors).toEqual([]);
    expect(seen).toEqual([true, true, false]);
    expect(handle.lastMessage()?.attachments.map((a) => a.flags ?? 0)).toEqual([IS_SPOILER, IS_SPOILER, 0]);
    // With the spec saved, its check refuses it first (and names the field); without, the emulator's own rule does.
    expect(refused).toMatchObject({ code: 50035, status: 400 });
    // (Checked only with the spec there: test/spec-dependence.test.ts's rule, kept in line.)
    const violations = emulator.specViolations.slice(before).join('\n');
    if (!specTest('discord', '').skip) expect(violations).toMatch(/is_spoiler/);
    emulator.specViolations.splice(before);
  });

  it('refuses webhook requests with an unknown token (401/50027)', async () => {
    const error = await rejection(
      harness.client.rest.patch(Routes.webhookMessage(emulator.applicationId, 'not-a-token', '@original'), { body: { content: 'x' }, auth: false }),
    );
    expect(error).toMatchObject({ code: 50027, status: 401 });
  });
});
