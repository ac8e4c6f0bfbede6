/**
 * The svg scenario's members, run in the Discord emulator's process (issue 28): members each ask for an SVG the
 * gateway answers with a hostile document (bench/scenarios/svg.ts enqueues them), then other members ask for
 * ordinary PNGs while those are drawn. Reports how every request ended.
 */
import { resultPost, settled } from '../test/e2e/support.js';
import type { DiscordEmulator, InteractionHandle, UserFixture } from '../test/emulators/discord/index.js';
import { declaredPng } from '../test/emulators/gateway/png-bomb.js';

/** The 336-byte SVG: 4096 square, feTurbulence numOctaves=10 and feGaussianBlur stdDeviation=300. */
const TURBULENT =
  '<svg xmlns="http://www.w3.org/2000/svg" width="4096" height="4096"><filter id="f"><feTurbulence baseFrequency="0.05" numOctaves="10"/><feGaussianBlur stdDeviation="300"/></filter><rect width="4096" height="4096" filter="url(#f)"/></svg>';

/** The 65 KB SVG: a data: PNG declaring 20000x20000. */
function embeddedBomb(): string {
  const head = `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024"><image href="data:image/png;base64,${declaredPng(20_000, 20_000).toString('base64')}" width="1024" height="1024"/>`;
  return `${head}<desc>${'x'.repeat(Math.max(0, 65_000 - head.length - 20))}</desc></svg>`;
}

/** Within every cap, and still slow: 16 turbulent layers at 4 octaves on 8 full-size rectangles (runs into the time limit). */
function slow(): string {
  const layers = Array.from(
    { length: 16 },
    (_, i) => `<feTurbulence baseFrequency="0.0${i + 1}" numOctaves="4" result="t${i}"/><feGaussianBlur in="t${i}" stdDeviation="90"/>`,
  ).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="4096" height="4096"><filter id="f">${layers}</filter>${'<rect width="4096" height="4096" filter="url(#f)"/>'.repeat(8)}</svg>`;
}

/** The hostile documents, one per hostile member, in order. */
export function hostileSvgs(count: number): Buffer[] {
  const kinds = [TURBULENT, embeddedBomb(), slow(), slow()];
  return Array.from({ length: count }, (_, i) => Buffer.from(kinds[i % kinds.length] ?? TURBULENT));
}

export interface SvgLoadOutcome {
  hostileDelivered: number;
  hostileRefused: number;
  othersDelivered: number;
  unsettled: number;
}

let pending: Promise<InteractionHandle>[] = [];

function wait(handle: InteractionHandle, timeoutMs: number): Promise<InteractionHandle> {
  return handle.waitFor(settled, timeoutMs).then(
    () => handle,
    () => handle,
  );
}

/** Dispatches one SVG /imagine per member (the gateway answers each with a hostile document). */
export function startHostile(discord: DiscordEmulator, members: UserFixture[], timeoutMs: number): void {
  const options = [
    { name: 'prompt', type: 3, value: 'a hostile svg' },
    { name: 'model', type: 3, value: 'gpt-image-2.6-flare' },
    { name: 'format', type: 3, value: 'svg' },
  ];
  pending = members.map((user) => wait(discord.slash('imagine', options, { user }), timeoutMs));
}

/** Dispatches the other members' PNG jobs, then waits for every request. */
export async function finishWithOthers(discord: DiscordEmulator, others: UserFixture[], timeoutMs: number): Promise<SvgLoadOutcome> {
  const options = [{ name: 'prompt', type: 3, value: 'an ordinary png' }];
  const rest = others.map((user) => wait(discord.slash('imagine', options, { user }), timeoutMs));
  const hostile = await Promise.all(pending);
  const done = await Promise.all(rest);
  pending = [];
  return {
    hostileDelivered: hostile.filter((h) => resultPost(h) !== undefined).length,
    hostileRefused: hostile.filter((h) => resultPost(h) === undefined && settled(h)).length,
    othersDelivered: done.filter((h) => resultPost(h) !== undefined).length,
    unsettled: [...hostile, ...done].filter((h) => !settled(h)).length,
  };
}
