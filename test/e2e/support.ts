/**
 * Small readers over the emulators' recordings, shared by the end-to-end tests.
 */
import type { DiscordEmulator, EmulatedMessage, GuildFixture, InteractionHandle, UserFixture } from '../emulators/discord/index.js';

/**
 * The text a message shows: its content (or, with none, its embeds' descriptions: progress), and the text displays of
 * its Components V2 card, in order.
 */
export function textOf(payload: { content?: unknown; components?: unknown; embeds?: unknown } | null | undefined): string {
  if (!payload) return '';
  const parts = typeof payload.content === 'string' && payload.content !== '' ? [payload.content] : [];
  const embeds = (payload.embeds as { description?: unknown }[] | null | undefined) ?? [];
  if (parts.length === 0) for (const embed of embeds) if (typeof embed.description === 'string') parts.push(embed.description);
  const visit = (component: { type?: number; content?: string; components?: unknown[] }) => {
    if (component.type === 10 && typeof component.content === 'string') parts.push(component.content);
    for (const child of component.components ?? []) visit(child as typeof component);
  };
  for (const component of (payload.components as unknown[] | undefined) ?? []) visit(component as { type?: number });
  return parts.join('\n');
}

/** Every button and select custom id of a message (a card's rows included), in order. */
export function customIds(message: { components?: unknown } | null | undefined): string[] {
  const ids: string[] = [];
  const visit = (component: { custom_id?: string; components?: unknown[] }) => {
    if (typeof component.custom_id === 'string') ids.push(component.custom_id);
    for (const child of component.components ?? []) visit(child as typeof component);
  };
  for (const component of (message?.components as unknown[] | undefined) ?? []) visit(component as { custom_id?: string });
  return ids;
}

/**
 * The request that posted the result card (status 200 with files in a media gallery): a follow-up under the reply, as the bot
 * delivers on real Discord (discord-api-docs#7529), or an edit of the reply; the last one, if any.
 */
export function resultPost(handle: InteractionHandle) {
  const posts = [...handle.edits, ...handle.followUps].sort((a, b) => a.receivedAt - b.receivedAt);
  return posts.filter((e) => e.status === 200 && e.files.length > 0 && hasGallery(e.payload)).at(-1);
}

/** A result card (Components V2) shows its images in a media gallery; a progress preview is an embed's image. */
function hasGallery(payload: unknown): boolean {
  if (typeof payload !== 'object' || payload === null) return false;
  const walk = (components: unknown): boolean =>
    Array.isArray(components) && components.some((c: { type?: unknown; components?: unknown }) => c.type === 12 || walk(c.components));
  return walk((payload as { components?: unknown }).components);
}

/** Which uploads of a message the bot sent it marked as spoilers (`is_spoiler` in its `attachments` array), in order. */
export function spoilerUploads(sent: { payload?: { attachments?: { is_spoiler?: unknown }[] | null } | undefined } | undefined): boolean[] {
  return (sent?.payload?.attachments ?? []).map((a) => a.is_spoiler === true);
}

/** Every text the member was shown for this interaction, in order. */
export function texts(handle: InteractionHandle): string[] {
  const all = [
    ...handle.acks.map((a) => textOf(a.body?.data)),
    ...handle.edits.map((e) => textOf(e.payload)),
    ...handle.followUps.map((f) => textOf(f.payload)),
  ];
  return all.filter((t) => t !== '');
}

/** The last text the member saw. */
export function lastText(handle: InteractionHandle): string {
  return texts(handle).at(-1) ?? '';
}

/** Delivered, or answered with an error (ephemeral reply or follow-up). */
export function settled(handle: InteractionHandle): boolean {
  const ephemeral = (f: { status: number; payload?: { flags?: number | null } | undefined }) => f.status === 200 && ((f.payload?.flags ?? 0) & 64) !== 0;
  return resultPost(handle) !== undefined || handle.followUps.some(ephemeral) || handle.acks.some((a) => a.type === 4);
}

/** The member got an ephemeral error, either as the first response or as a follow-up after the defer. */
export function ephemeralError(handle: InteractionHandle): string | undefined {
  const ephemeral = (flags: number | null | undefined) => ((flags ?? 0) & 64) !== 0;
  const reply = handle.acks.find((a) => a.type === 4 && ephemeral(a.body?.data?.flags));
  if (reply) return textOf(reply.body?.data);
  const follow = handle.followUps.find((f) => f.status === 200 && ephemeral(f.payload?.flags));
  return follow ? textOf(follow.payload) : undefined;
}

/** Exactly one accepted initial response. */
export function acceptedAcks(handle: InteractionHandle): number {
  return handle.acks.filter((a) => a.status < 300).length;
}

/** What /quota show tells `user` now (e.g. "… 5 of 5 images left …"). */
export async function quotaText(discord: DiscordEmulator, user: UserFixture): Promise<string> {
  const handle = discord.slash('quota', [{ name: 'show', type: 1, options: [] }], { user });
  await handle.waitFor((x) => x.edits.some((e) => e.status === 200));
  return lastText(handle);
}

/** An admin's `/quota set limit:0 user:` for `user`, answered: they may generate nothing more. */
export async function blockMember(discord: DiscordEmulator, admin: UserFixture, user: UserFixture): Promise<void> {
  const options = [
    { name: 'limit', type: 4, value: 0 },
    { name: 'user', type: 6, value: user.id },
  ];
  const set = discord.slash('quota', [{ name: 'set', type: 1, options }], { user: admin });
  await set.waitFor((x) => x.edits.some((e) => e.status === 200) || x.acks.some((a) => a.type === 4));
}

/**
 * Presses Delete on `message` as `user` and answers its confirmation (issue 31: Delete asks first, only the clicker)
 * with `choice`; resolves with the Delete click's handle once the answer is handled (the card deleted, or kept).
 */
export async function pressDelete(discord: DiscordEmulator, message: EmulatedMessage, user: UserFixture, choice: 'delok' | 'delno', guild?: GuildFixture) {
  const deleteId = customIds(message).find((id) => id.startsWith('delres:'));
  if (deleteId === undefined) throw new Error('no Delete button on that message');
  const ctx = guild ? { user, guild, channelId: message.channel_id } : { user };
  const click = discord.button(message, deleteId, ctx);
  await click.waitFor((x) => x.followUps.some((f) => f.status === 200 && customIds(f.payload).some((id) => id.startsWith(`${choice}:`))));
  const asked = click.followUps.find((f) => customIds(f.payload).some((id) => id.startsWith(`${choice}:`)))!;
  const confirmation = click.lastMessage()!;
  const answer = discord.button(
    confirmation,
    customIds(asked.payload).find((id) => id.startsWith(`${choice}:`))!,
    ctx,
  );
  await answer.waitFor((x) => x.acks.length > 0);
  if (choice === 'delok') await click.waitFor((x) => x.edits.some((e) => e.method === 'DELETE'));
  return { click, answer, confirmation };
}
