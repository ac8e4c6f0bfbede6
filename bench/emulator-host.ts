/**
 * Child process holding one emulator (Discord or the image gateway; the bench runs one process of each), so their
 * CPU work and the image bytes they keep land neither in the bot's process (its event loop, its memory figures) nor in
 * each other's (the gateway's base64 work would otherwise delay the Discord emulator's timestamps). Driven by bench/ipc.ts commands.
 */
import { performance } from 'node:perf_hooks';
import type { DiscordEmulatorOptions } from '../test/emulators/discord/types.js';
import { startDiscordEmulator, type DiscordEmulator, type InteractionHandle, type UserFixture } from '../test/emulators/discord/index.js';
import { startGatewayEmulator, type GatewayEmulator, type GatewayEmulatorOptions } from '../test/emulators/gateway/index.js';
import type { Behaviour } from '../test/emulators/gateway/types.js';
import { describeFloodLoad, type DescribeFloodSpec } from './describe-flood-load.js';
import { hostileLoad, type HostileSpec } from './hostile-load.js';
import { SoakLoad, type SoakRoundOutcome, type SoakRoundSpec } from './soak-load.js';
import { serve } from './ipc.js';
import { finishWithOthers, startHostile, type SvgLoadOutcome } from './svg-load.js';

/** What the orchestrator needs to configure a bot against these emulators. */
export interface EmulatorAddresses {
  discordApiUrl: string;
  discordToken: string;
  cdnHost: string;
  gatewayBaseUrl: string;
  gatewayApiKey: string;
  applicationId: string;
}

/** One /imagine load: `count` commands from `members` synthetic members, spread over `spreadMs` (or one at a time). */
export interface LoadSpec {
  count: number;
  members: number;
  spreadMs: number;
  sequential: boolean;
  size: string;
  n: number;
  timeoutMs: number;
}

/** Times of one interaction, in ms after its INTERACTION_CREATE was written to the bot's socket. */
export interface InteractionSample {
  /** The deferred acknowledgement arrived (request headers); null if none was accepted. */
  ack: number | null;
  ackStatus: number | null;
  /** The final edit (with the images) was fully received and recorded; null if it never came. */
  final: number | null;
  /** Headers of the final edit arrived. */
  finalStart: number | null;
  files: number;
  bytes: number;
}

let discord: DiscordEmulator | undefined;
let gateway: GatewayEmulator | undefined;
let soak: SoakLoad | undefined;

function syntheticMembers(count: number): UserFixture[] {
  return Array.from({ length: count }, (_, i) => ({
    id: String(900_000_000_000_000_000n + BigInt(i)),
    username: `bench-member-${i}`,
    discriminator: '0',
    global_name: `Bench Member ${i}`,
    avatar: null,
    roleNames: [],
  }));
}

/** The post that carried the result: a card under the reply (a follow-up), or an edit of the reply. */
function resultOf(h: InteractionHandle) {
  return [...h.edits, ...h.followUps].find((e) => e.status === 200 && e.files.length > 0);
}

function isFinal(h: InteractionHandle): boolean {
  return resultOf(h) !== undefined;
}

async function track(handle: InteractionHandle, timeoutMs: number): Promise<InteractionSample> {
  // Our own timeout: the emulator's waitFor timeout path formats a summary that can throw on bodiless requests.
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), timeoutMs)));
  const arrived = handle.waitFor(isFinal, 2_147_000_000).then(() => performance.now());
  arrived.catch(() => undefined);
  const finalAt = await Promise.race([arrived, timedOut]);
  clearTimeout(timer);
  const ack = handle.acks.find((a) => a.status >= 200 && a.status < 300) ?? handle.acks[0];
  const edit = resultOf(handle);
  const t0 = handle.dispatchedAt;
  return {
    ack: ack && ack.status < 300 ? ack.receivedAt - t0 : null,
    ackStatus: ack?.status ?? null,
    final: finalAt === null ? null : finalAt - t0,
    finalStart: edit ? edit.receivedAt - t0 : null,
    files: edit?.files.length ?? 0,
    bytes: edit?.files.reduce((sum, f) => sum + f.bytes.length, 0) ?? 0,
  };
}

function imagineOptions(i: number, spec: LoadSpec) {
  return [
    { name: 'prompt', type: 3, value: `a lighthouse at dusk, study ${i}` },
    { name: 'size', type: 3, value: spec.size },
    { name: 'count', type: 4, value: spec.n },
  ];
}

async function load(spec: LoadSpec): Promise<InteractionSample[]> {
  if (!discord) throw new Error('emulators not started');
  const emulator = discord;
  const members = syntheticMembers(spec.members);
  const slash = (i: number) => {
    const user = members[i % members.length];
    if (!user) throw new Error('load needs at least one member');
    return emulator.slash('imagine', imagineOptions(i, spec), { user });
  };
  if (spec.sequential) {
    const out: InteractionSample[] = [];
    for (let i = 0; i < spec.count; i++) out.push(await track(slash(i), spec.timeoutMs));
    return out;
  }
  const start = performance.now();
  const tracked: Promise<InteractionSample>[] = [];
  for (let i = 0; i < spec.count; i++) {
    const due = start + (spec.count <= 1 ? 0 : (i * spec.spreadMs) / (spec.count - 1));
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    tracked.push(track(slash(i), spec.timeoutMs));
  }
  return Promise.all(tracked);
}

serve(
  {
    /** Starts the Discord emulator, the gateway emulator, or both; returns the addresses of what it started. */
    async start(args: { discord?: boolean | DiscordEmulatorOptions; gateway?: GatewayEmulatorOptions }): Promise<Partial<EmulatorAddresses>> {
      const out: Partial<EmulatorAddresses> = {};
      if (args.discord) {
        discord = await startDiscordEmulator({ log: false, ...(args.discord === true ? {} : args.discord) });
        Object.assign(out, { discordApiUrl: discord.apiUrl, discordToken: discord.token, cdnHost: discord.cdnHost, applicationId: discord.applicationId });
      }
      if (args.gateway) {
        gateway = await startGatewayEmulator(args.gateway);
        Object.assign(out, { gatewayBaseUrl: gateway.baseUrl, gatewayApiKey: gateway.apiKey });
      }
      return out;
    },
    whenReady: () => discord?.whenReady(),
    load: (spec: LoadSpec) => load(spec),
    /** The hostile scenario's members (bench/hostile-load.ts). */
    hostile: (spec: HostileSpec) => {
      if (!discord) throw new Error('emulators not started');
      return hostileLoad(discord, syntheticMembers(spec.members), spec);
    },
    /** The describe-flood scenario's members (bench/describe-flood-load.ts): the last synthetic member edits. */
    describeFlood: (spec: DescribeFloodSpec) => {
      if (!discord) throw new Error('emulators not started');
      const members = syntheticMembers(spec.floodMembers + 1);
      const editor = members.pop();
      if (!editor) throw new Error('unreachable: one member at least');
      return describeFloodLoad(discord, members, editor, spec);
    },
    /** One round of the soak scenario (bench/soak-load.ts); the members and the cards carry over between rounds. */
    soakRound: (args: SoakRoundSpec & { members: number }): Promise<SoakRoundOutcome> => {
      if (!discord) throw new Error('emulators not started');
      soak ??= new SoakLoad(discord, syntheticMembers(args.members));
      return soak.round(args);
    },
    /** Answers the next chat (prompt help) requests with these behaviours, in order. */
    enqueueChat: (args: { behaviours: Behaviour[] }) => {
      if (!gateway) throw new Error('emulators not started');
      gateway.enqueueChat(...args.behaviours);
    },
    /** The svg scenario (bench/svg-load.ts): members whose SVG answers are hostile, then others' PNG jobs. */
    svgHostile: (args: { members: number; timeoutMs: number }) => {
      if (!discord) throw new Error('emulators not started');
      startHostile(discord, syntheticMembers(args.members), args.timeoutMs);
    },
    svgOthers: (args: { members: number; others: number; timeoutMs: number }): Promise<SvgLoadOutcome> => {
      if (!discord) throw new Error('emulators not started');
      return finishWithOthers(discord, syntheticMembers(args.members + args.others).slice(args.members), args.timeoutMs);
    },
    /** Image requests the gateway has received. */
    imageRequests: () => gateway?.imageRequests().length ?? 0,
    /** Answers the next gateway requests with these behaviours, in order. */
    enqueue: (args: { behaviours: Behaviour[] }) => {
      if (!gateway) throw new Error('emulators not started');
      for (const behaviour of args.behaviours) gateway.enqueue(behaviour);
    },
    /** Interactions of a command no bot handles (the baseline ignores it), for the decode-and-upload reference; the caller acks them. */
    mint(args: { count: number }) {
      if (!discord) throw new Error('emulators not started');
      const emulator = discord;
      const user = emulator.fixtures.member;
      return Array.from({ length: args.count }, () => {
        const h = emulator.slash('bench-reference', [], { user });
        return { id: h.id, token: h.token };
      });
    },
    violations: () => ({ discord: discord?.specViolations.slice(0, 20) ?? [], gateway: gateway?.specViolations.slice(0, 20) ?? [] }),
  },
  async () => {
    await Promise.all([discord?.close(), gateway?.close()]);
  },
);
