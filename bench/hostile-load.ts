/**
 * The hostile scenario's members, run in the Discord emulator's process: each of them, all at once, asks for what
 * costs a bot the most memory. *Edit image* on a message with `refusedRefs` large attachments (more than the memory
 * budget lets one job hold, refused before any download), *Edit image* on a message with `acceptedRefs` of them
 * (fetched from the slow CDN once they fit), and /imagine (answered by the gateway with a heavy url item).
 */
import sharp from 'sharp';
import { resultPost, settled } from '../test/e2e/support.js';
import type { DiscordEmulator, InteractionHandle, UserFixture } from '../test/emulators/discord/index.js';
import { padPng } from '../test/emulators/gateway/png-padding.js';

export interface HostileSpec {
  members: number;
  /** Bytes of each reference attachment (declared and served). */
  refBytes: number;
  refusedRefs: number;
  acceptedRefs: number;
  timeoutMs: number;
}

export interface HostileOutcome {
  requests: number;
  delivered: number;
  /** Answered with an error (ephemeral reply or follow-up). */
  refused: number;
  /** Neither within the timeout. */
  unsettled: number;
  /** Reference bytes the bot fetched from the CDN. */
  cdnBytes: number;
  /** What the messages declared, all requests together. */
  declaredBytes: number;
  /** The first refusal's text, to show why. */
  sampleRefusal: string | undefined;
}

/** Runs the load and reports how each request ended. */
export async function hostileLoad(discord: DiscordEmulator, members: UserFixture[], spec: HostileSpec): Promise<HostileOutcome> {
  const base = await sharp({ create: { width: 512, height: 512, channels: 3, background: '#445566' } })
    .png()
    .toBuffer();
  const heavy = padPng(base, spec.refBytes);
  const channel = discord.fixtures.guild.channels.general.id;
  const fetchedBefore = discord.cdnFetches().length;
  const handles: Promise<InteractionHandle>[] = [];
  for (const user of members) {
    const refs = (count: number) => Array.from({ length: count }, (_, i) => discord.uploadAttachment(heavy, `ref-${i}.png`, 'image/png'));
    const tooMuch = discord.createUserMessage(channel, user, 'all of these, please', refs(spec.refusedRefs));
    const fits = discord.createUserMessage(channel, user, 'these two', refs(spec.acceptedRefs));
    handles.push(editImage(discord, user, tooMuch, spec.timeoutMs), editImage(discord, user, fits, spec.timeoutMs));
    const imagine = [
      { name: 'prompt', type: 3, value: 'a lighthouse, heavy' },
      { name: 'format', type: 3, value: 'png' },
    ];
    handles.push(wait(discord.slash('imagine', imagine, { user }), spec.timeoutMs));
  }
  const done = await Promise.all(handles);
  const delivered = done.filter((h) => resultPost(h) !== undefined).length;
  const refusals = done.filter((h) => resultPost(h) === undefined && settled(h));
  return {
    requests: done.length,
    delivered,
    refused: refusals.length,
    unsettled: done.length - delivered - refusals.length,
    cdnBytes: (discord.cdnFetches().length - fetchedBefore) * spec.refBytes,
    declaredBytes: members.length * (spec.refusedRefs + spec.acceptedRefs) * spec.refBytes,
    sampleRefusal: refusals.map(shownText).find((t) => t !== undefined),
  };
}

async function editImage(discord: DiscordEmulator, user: UserFixture, target: Parameters<DiscordEmulator['messageCommand']>[1], timeoutMs: number) {
  const menu = discord.messageCommand('Edit image', target, { user });
  await menu.waitFor((h) => h.acks.length > 0, timeoutMs).catch(() => undefined);
  const modal = menu.acks.find((a) => a.status < 300 && a.type === 9);
  const customId = modal?.body?.data?.custom_id;
  // No modal (refused, or too late): the menu's own answer is the outcome.
  if (!customId) return menu;
  return wait(discord.modalSubmit(customId, { prompt: 'make it night' }, { user }), timeoutMs);
}

async function wait(handle: InteractionHandle, timeoutMs: number): Promise<InteractionHandle> {
  await handle.waitFor(settled, timeoutMs).catch(() => undefined);
  return handle;
}

function shownText(handle: InteractionHandle): string | undefined {
  const texts = [
    ...handle.acks.map((a) => a.body?.data?.content),
    ...handle.followUps.map((f) => f.payload?.content),
    ...handle.edits.map((e) => e.payload?.content),
  ];
  return texts.filter((t): t is string => typeof t === 'string').at(-1);
}
