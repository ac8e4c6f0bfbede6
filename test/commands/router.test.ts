import { MessageFlags } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { ChatCommand, Command, ComponentHandler } from '../../src/commands/command.js';
import { createInteractionRouter } from '../../src/commands/router.js';
import { textOf } from '../e2e/support.js';
import { describeUnexpectedError, describeUserError, errorRef, UserFacingError } from '../../src/errors.js';
import { ERROR_ACCENT } from '../../src/discord/views/render.js';
import { FakeInteraction } from '../fakes/fake-interaction.js';
import { JobClaimedError } from '../../src/service/claimed-jobs.js';
import { phrase } from '../../src/core/phrase.js';
import { LEVEL, memoryLogger } from '../fakes/memory-logger.js';

const INTERACTION_ID = '1300000000000000042';

function chat(name: string, execute: ChatCommand['execute'], autocomplete?: ChatCommand['autocomplete']): ChatCommand {
  const command: ChatCommand = { kind: 'chat', data: { name, description: `${name} command` }, execute };
  if (autocomplete) command.autocomplete = autocomplete;
  return command;
}

function setup(commands: Command[], components: ComponentHandler[] = []) {
  const { logger, lines, find } = memoryLogger();
  const route = createInteractionRouter({ commands, components, logger });
  return { route, lines, find };
}

/** The text of an answer: errors come as cards (a container with one text display). */
function contentOf(payload: unknown): string {
  return textOf(payload as Parameters<typeof textOf>[0]);
}

/** The accent colour of an answer's card. */
function accentOf(payload: unknown): unknown {
  return (payload as { components?: { accent_color?: unknown }[] } | undefined)?.components?.[0]?.accent_color;
}

function flagsOf(payload: unknown): unknown {
  return typeof payload === 'object' && payload !== null && 'flags' in payload ? payload.flags : undefined;
}

describe('createInteractionRouter', () => {
  it('runs the command named by the interaction', async () => {
    const seen: string[] = [];
    const { route } = setup([chat('imagine', async (i) => void seen.push(i.commandName)), chat('quota', async () => void seen.push('quota'))]);
    await route(new FakeInteraction({ kind: 'chat', commandName: 'imagine' }).asInteraction());
    expect(seen).toEqual(['imagine']);
  });

  it('answers an unknown command with the expired-button copy, logs it, and does not throw', async () => {
    const { route, find } = setup([chat('imagine', async () => undefined)]);
    const interaction = new FakeInteraction({ kind: 'chat', commandName: 'gone', id: INTERACTION_ID });

    await expect(route(interaction.asInteraction())).resolves.toBeUndefined();

    expect(interaction.methods).toEqual(['reply']);
    const [payload] = interaction.payloadsOf('reply');
    expect(contentOf(payload)).toBe(describeUserError(new UserFacingError('button.expired'), INTERACTION_ID));
    expect(flagsOf(payload)).toEqual([MessageFlags.Ephemeral, MessageFlags.IsComponentsV2]);
    expect(find('unknown command')).toEqual([expect.objectContaining({ level: LEVEL.warn, command: 'gone', interactionId: INTERACTION_ID })]);
  });

  it('answers an unknown button with the expired-button copy', async () => {
    const { route, find } = setup([]);
    const interaction = new FakeInteraction({ kind: 'button', customId: 'nothing:abc', id: INTERACTION_ID });
    await route(interaction.asInteraction());
    expect(contentOf(interaction.payloadsOf('reply')[0])).toContain('This button has expired');
    expect(find('unknown component')).toEqual([expect.objectContaining({ customId: 'nothing:abc' })]);
  });

  it('routes a button to its handler by custom-id prefix, passing the rest as the argument', async () => {
    const args: string[] = [];
    const { route } = setup([], [{ prefix: 'reroll', button: async (_i, arg) => void args.push(arg) }]);
    await route(new FakeInteraction({ kind: 'button', customId: 'reroll:job:with:colons' }).asInteraction());
    expect(args).toEqual(['job:with:colons']);
  });

  it('answers autocomplete for an unknown command with no choices', async () => {
    const { route } = setup([]);
    const interaction = new FakeInteraction({ kind: 'autocomplete', commandName: 'gone' });
    await route(interaction.asInteraction());
    expect(interaction.calls).toEqual([{ method: 'respond', payload: [] }]);
  });

  it('answers a UserFacingError with its copy and the reference id, ephemerally, and logs it at warn', async () => {
    const error = new UserFacingError('quota.exceeded', { limit: 5, remaining: 0, resetsAt: 1_700_000_000_000 });
    const { route, find } = setup([
      chat('imagine', async () => {
        throw error;
      }),
    ]);
    const interaction = new FakeInteraction({ kind: 'chat', commandName: 'imagine', id: INTERACTION_ID });

    await route(interaction.asInteraction());

    const [payload] = interaction.payloadsOf('reply');
    expect(contentOf(payload)).toBe(describeUserError(error, INTERACTION_ID));
    expect(contentOf(payload)).toContain(`For admins: \`quota.exceeded\` · ref \`${errorRef(INTERACTION_ID)}\``);
    expect(flagsOf(payload)).toEqual([MessageFlags.Ephemeral, MessageFlags.IsComponentsV2]);
    expect(find('user-facing error')).toEqual([expect.objectContaining({ level: LEVEL.warn, identifier: 'quota.exceeded', ref: errorRef(INTERACTION_ID) })]);
    expect(accentOf(payload)).toBe(ERROR_ACCENT);
  });

  it.each<[string, UserFacingError, string]>([
    [
      'an invalid field',
      new UserFacingError('input.invalid', { param: 'outputCompression', allowed: phrase('allowed.compressionFormat') }),
      "That compression doesn't work. Allowed: only with jpeg or webp output.",
    ],
    [
      'a field the gateway refused',
      new UserFacingError('gateway.badParameter', { param: 'n' }),
      "The image service didn't accept `count`. Try the default for it.",
    ],
    [
      'a name that is no field',
      new UserFacingError('input.invalid', { param: 'user/role', detail: phrase('detail.target.both') }),
      "That user/role doesn't work: give a user or a role, not both.",
    ],
  ])('words %s as the option the member typed', async (_name, error, text) => {
    const { route } = setup([
      chat('imagine', async () => {
        throw error;
      }),
    ]);
    const interaction = new FakeInteraction({ kind: 'chat', commandName: 'imagine', id: INTERACTION_ID });

    await route(interaction.asInteraction());

    expect(contentOf(interaction.payloadsOf('reply')[0])).toBe(`${text}\n-# For admins: \`${error.identifier}\` · ref \`${errorRef(INTERACTION_ID)}\``);
  });

  it('answers an unexpected error with the generic apology and reference id, never its message, and logs it at error with err', async () => {
    const { route, find, lines } = setup([
      chat('imagine', async () => {
        throw new Error('postgres password=hunter2 refused');
      }),
    ]);
    const interaction = new FakeInteraction({ kind: 'chat', commandName: 'imagine', id: INTERACTION_ID });

    await route(interaction.asInteraction());

    const [payload] = interaction.payloadsOf('reply');
    expect(contentOf(payload)).toBe(describeUnexpectedError(INTERACTION_ID));
    expect(contentOf(payload)).not.toContain('hunter2');
    expect(flagsOf(payload)).toEqual([MessageFlags.Ephemeral, MessageFlags.IsComponentsV2]);
    const [logged] = find('interaction failed');
    expect(logged).toMatchObject({
      level: LEVEL.error,
      interactionId: INTERACTION_ID,
      command: 'imagine',
      err: { message: 'postgres password=hunter2 refused', type: 'Error' },
    });
    expect(lines.filter((l) => l.level >= LEVEL.error)).toHaveLength(1);
  });

  it('after a public defer, deletes the thinking placeholder and answers the error in an ephemeral follow-up', async () => {
    const { route } = setup([
      chat('imagine', async (i) => {
        await i.deferReply();
        throw new UserFacingError('gateway.busy');
      }),
    ]);
    const interaction = new FakeInteraction({ kind: 'chat', commandName: 'imagine', id: INTERACTION_ID });

    await route(interaction.asInteraction());

    expect(interaction.methods).toEqual(['deferReply', 'deleteReply', 'followUp']);
    const [payload] = interaction.payloadsOf('followUp');
    expect(contentOf(payload)).toContain('busy');
    expect(flagsOf(payload)).toEqual([MessageFlags.Ephemeral, MessageFlags.IsComponentsV2]);
  });

  it('answers nothing for a job another process claimed (it told the member already), and keeps its reply', async () => {
    const { route, find } = setup([
      chat('imagine', async (i) => {
        await i.deferReply();
        throw new JobClaimedError('j1');
      }),
    ]);
    const interaction = new FakeInteraction({ kind: 'chat', commandName: 'imagine', id: INTERACTION_ID });

    await route(interaction.asInteraction());

    expect(interaction.methods).toEqual(['deferReply']);
    expect(find('job claimed by another process; not answered here')).toEqual([expect.objectContaining({ jobId: 'j1', level: LEVEL.warn })]);
  });

  // discord.js sets `replied` on every editReply: the progress text must not stay up for everyone.
  it('after a public defer and a progress edit, still removes the placeholder before the ephemeral follow-up', async () => {
    const { route } = setup([
      chat('imagine', async (i) => {
        await i.deferReply();
        await i.editReply({ content: '🎨 Generating… 0s' });
        throw new UserFacingError('gateway.timedOut');
      }),
    ]);
    const interaction = new FakeInteraction({ kind: 'chat', commandName: 'imagine', id: INTERACTION_ID });

    await route(interaction.asInteraction());

    expect(interaction.methods).toEqual(['deferReply', 'editReply', 'deleteReply', 'followUp']);
    expect(flagsOf(interaction.payloadsOf('followUp')[0])).toEqual([MessageFlags.Ephemeral, MessageFlags.IsComponentsV2]);
  });

  it('after an ephemeral defer, answers the error by editing the deferred reply', async () => {
    const { route } = setup([
      chat('quota', async (i) => {
        await i.deferReply({ flags: MessageFlags.Ephemeral });
        throw new UserFacingError('permission.manageServer');
      }),
    ]);
    const interaction = new FakeInteraction({ kind: 'chat', commandName: 'quota', id: INTERACTION_ID });

    await route(interaction.asInteraction());

    expect(interaction.methods).toEqual(['deferReply', 'editReply']);
    expect(contentOf(interaction.payloadsOf('editReply')[0])).toBe(describeUserError(new UserFacingError('permission.manageServer'), INTERACTION_ID));
  });

  it('after an ephemeral defer and a progress edit, replaces the progress text with the error', async () => {
    const { route } = setup([
      chat('imagine', async (i) => {
        await i.deferReply({ flags: MessageFlags.Ephemeral });
        await i.editReply({ content: '⏳ Queued: position 2.' });
        throw new UserFacingError('gateway.busy');
      }),
    ]);
    const interaction = new FakeInteraction({ kind: 'chat', commandName: 'imagine', id: INTERACTION_ID });

    await route(interaction.asInteraction());

    expect(interaction.methods).toEqual(['deferReply', 'editReply', 'editReply']);
    expect(contentOf(interaction.payloadsOf('editReply')[1])).toContain('busy');
  });

  it('after a button deferUpdate, never deletes the message the button sits on', async () => {
    const { route } = setup(
      [],
      [
        {
          prefix: 'delres',
          button: async (i) => {
            await i.deferUpdate();
            throw new Error('boom');
          },
        },
      ],
    );
    const interaction = new FakeInteraction({ kind: 'button', customId: 'delres:job1', id: INTERACTION_ID });

    await route(interaction.asInteraction());

    expect(interaction.methods).toEqual(['deferUpdate', 'followUp']);
    expect(flagsOf(interaction.payloadsOf('followUp')[0])).toEqual([MessageFlags.Ephemeral, MessageFlags.IsComponentsV2]);
  });

  it('still sends the follow-up when deleting the placeholder fails', async () => {
    const { route } = setup([
      chat('imagine', async (i) => {
        await i.deferReply();
        throw new Error('boom');
      }),
    ]);
    const interaction = new FakeInteraction({ kind: 'chat', commandName: 'imagine', id: INTERACTION_ID });
    interaction.failing.add('deleteReply');

    await route(interaction.asInteraction());

    expect(contentOf(interaction.payloadsOf('followUp')[0])).toBe(describeUnexpectedError(INTERACTION_ID));
  });

  it('logs, and does not throw, when the error message itself cannot be delivered', async () => {
    const { route, find } = setup([
      chat('imagine', async () => {
        throw new UserFacingError('gateway.busy');
      }),
    ]);
    const interaction = new FakeInteraction({ kind: 'chat', commandName: 'imagine' });
    interaction.failing.add('reply');

    await expect(route(interaction.asInteraction())).resolves.toBeUndefined();

    expect(find('could not deliver error message')).toEqual([
      expect.objectContaining({ level: LEVEL.error, err: expect.objectContaining({ message: 'reply failed (scripted)' }) as unknown }),
    ]);
  });

  it('logs an autocomplete failure without trying to reply', async () => {
    const { route, find } = setup([
      chat(
        'imagine',
        async () => undefined,
        async () => {
          throw new Error('catalogue down');
        },
      ),
    ]);
    const interaction = new FakeInteraction({ kind: 'autocomplete', commandName: 'imagine' });

    await route(interaction.asInteraction());

    expect(interaction.calls).toEqual([]);
    expect(find('interaction failed')).toHaveLength(1);
  });

  it('throws at construction on duplicate command names', () => {
    const { logger } = memoryLogger();
    const commands = [chat('imagine', async () => undefined), chat('imagine', async () => undefined)];
    expect(() => createInteractionRouter({ commands, components: [], logger })).toThrow('duplicate command: imagine');
  });

  it('throws at construction on duplicate component prefixes', () => {
    const { logger } = memoryLogger();
    const components = [{ prefix: 'reroll' }, { prefix: 'reroll' }];
    expect(() => createInteractionRouter({ commands: [], components, logger })).toThrow('duplicate component prefix: reroll');
  });
});
