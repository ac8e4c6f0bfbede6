/**
 * The gateway: HELLO, HEARTBEAT_ACK, IDENTIFY → READY + GUILD_CREATE, RESUME with replay, RECONNECT, plain JSON text
 * frames (no zlib-sync). It shards as Discord does: each IDENTIFY names `shard: [shard_id, num_shards]` (absent =
 * [0, 1]) and opens that shard's own session (socket, session id, sequence, replay history, ready state), from one
 * bot process or several. A guild belongs to shard `(guild_id >> 22) % num_shards`; READY lists, and GUILD_CREATE
 * is sent for, only that shard's guilds; a guild's dispatches go to its shard, DMs to shard 0.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { allUsers, guildCreatePayload } from './fixtures.js';
import { gatewayUrl } from './rest-routes.js';
import type { EmulatorState } from './state.js';

interface Dispatch {
  s: number;
  frame: string;
  sent: boolean;
  onSent: (() => void) | undefined;
}

/** One shard's session: what Discord keeps per IDENTIFY. */
interface Session {
  readonly id: string;
  readonly shardId: number;
  readonly numShards: number;
  /** The socket it is bound to; undefined while the client is away (it may RESUME). */
  socket: WebSocket | undefined;
  seq: number;
  readonly history: Dispatch[];
  /** READY and the GUILD_CREATEs were sent (false again after a non-resumable INVALID_SESSION). */
  ready: boolean;
  /** False from disconnectClient()/sendReconnect()/a resumable INVALID_SESSION until the client RESUMEs. */
  resumed: boolean;
}

/** Which shard a guild's events go to: `(guild_id >> 22) % num_shards`, as Discord computes it. */
export function shardOf(guildId: string, numShards: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(numShards));
}

/** Options of {@link Gateway.dispatch}. */
export interface DispatchOptions {
  /** The guild the event belongs to: it goes to that guild's shard. Undefined (a DM) goes to shard 0. */
  guildId?: string | undefined;
  /** Called once the dispatch is first written to a socket. */
  onSent?: (() => void) | undefined;
}

const CLOSE = {
  decodeError: [4002, 'Decode error'],
  authenticationFailed: [4004, 'Authentication failed.'],
  alreadyAuthenticated: [4005, 'Already authenticated.'],
  invalidShard: [4010, 'Invalid shard'],
} as const;

export class Gateway {
  /** Counters for resilience tests, over all shards. */
  identifies = 0;
  resumes = 0;
  /** The same, per shard id. */
  readonly identifiesByShard: Record<number, number> = {};
  readonly resumesByShard: Record<number, number> = {};
  private readonly state: EmulatorState;
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly sockets = new Set<WebSocket>();
  /** The current session of each shard id, away or not. */
  private readonly sessions = new Map<number, Session>();
  /** The session each socket identified or resumed on. */
  private readonly bound = new Map<WebSocket, Session>();
  /** num_shards of the sessions in `sessions`; undefined before the first IDENTIFY. */
  private numShards: number | undefined;
  private waiters: { done: () => boolean; resolve: () => void }[] = [];

  constructor(state: EmulatorState) {
    this.state = state;
  }

  /** node:http 'upgrade' listener; only /gateway upgrades. */
  readonly upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/gateway') {
      socket.destroy();
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws));
  };

  /**
   * Resolves once every shard (0..num_shards-1), or the given one, has IDENTIFYed and got READY + GUILD_CREATEs
   * (again, after sendInvalidSession()).
   */
  whenReady(shardId?: number): Promise<void> {
    return this.until(() => {
      if (shardId !== undefined) return this.sessions.get(shardId)?.ready === true;
      const count = this.numShards;
      return count !== undefined && Array.from({ length: count }, (_, i) => this.sessions.get(i)).every((s) => s?.ready === true);
    });
  }

  /** Resolves once every shard (or the given one) has resumed after the last disconnectClient()/sendReconnect(). */
  whenResumed(shardId?: number): Promise<void> {
    return this.until(() => this.targets(shardId, false).every((s) => s.resumed));
  }

  /** Shard ids with a session on an open socket, ascending. */
  connectedShards(): number[] {
    return [...this.sessions.values()]
      .filter((s) => s.socket?.readyState === WebSocket.OPEN)
      .map((s) => s.shardId)
      .sort((a, b) => a - b);
  }

  /** The shard a guild's events go to, under the connected clients' num_shards (before any IDENTIFY: `fallback`). */
  shardOf(guildId: string, numShards: number = this.numShards ?? this.state.options.recommendedShards): number {
    return shardOf(guildId, numShards);
  }

  /**
   * Sends a dispatch (op 0) to the shard of `options.guildId` (shard 0 without one) now, or queues it for replay on
   * RESUME if that shard's client is away.
   * @throws when that shard has no session (no client IDENTIFYed it)
   */
  dispatch(t: string, d: unknown, options: DispatchOptions = {}): void {
    const shardId = options.guildId === undefined ? 0 : this.shardOf(options.guildId);
    const session = this.sessions.get(shardId);
    if (!session) {
      const which = options.guildId === undefined ? 'shard 0 (DMs)' : `shard ${shardId} (guild ${options.guildId})`;
      throw new Error(`Discord emulator: no client has identified ${which} yet; await emulator.whenReady() first`);
    }
    this.send(session, t, d, options.onSent);
  }

  /** Closes the socket of every connected shard, or of one (default 4000, which discord.js answers with a RESUME). */
  disconnectClient(code = 4000, shardId?: number): void {
    for (const session of this.targets(shardId, true)) {
      const ws = session.socket;
      session.resumed = false;
      session.socket = undefined;
      ws?.close(code, 'emulator disconnect');
    }
  }

  /** Sends op 7 RECONNECT to every connected shard, or to one; discord.js closes and resumes. */
  sendReconnect(shardId?: number): void {
    for (const session of this.targets(shardId, true)) {
      session.resumed = false;
      session.socket?.send(JSON.stringify({ op: 7, d: null, s: null, t: null }));
    }
  }

  /** Sends op 9 INVALID_SESSION to every connected shard, or to one; with `resumable` false the client re-IDENTIFYs. */
  sendInvalidSession(resumable = false, shardId?: number): void {
    for (const session of this.targets(shardId, true)) {
      if (resumable) session.resumed = false;
      else session.ready = false;
      session.socket?.send(JSON.stringify({ op: 9, d: resumable, s: null, t: null }));
    }
  }

  async close(): Promise<void> {
    for (const ws of this.sockets) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  /** The sessions a control call acts on: the given shard's, or all (with `connectedOnly`, those on an open socket). */
  private targets(shardId: number | undefined, connectedOnly: boolean): Session[] {
    const sessions = shardId === undefined ? [...this.sessions.values()] : [this.sessions.get(shardId)].filter((s) => s !== undefined);
    return connectedOnly ? sessions.filter((s) => s.socket?.readyState === WebSocket.OPEN) : sessions;
  }

  private until(done: () => boolean): Promise<void> {
    return done() ? Promise.resolve() : new Promise((resolve) => this.waiters.push({ done, resolve }));
  }

  /** Resolves the waiters whose condition now holds. */
  private settle(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const waiter of waiting) {
      if (waiter.done()) waiter.resolve();
      else this.waiters.push(waiter);
    }
  }

  private onConnection(ws: WebSocket): void {
    this.sockets.add(ws);
    ws.on('close', () => {
      this.sockets.delete(ws);
      const session = this.bound.get(ws);
      this.bound.delete(ws);
      if (session?.socket === ws) session.socket = undefined;
    });
    ws.on('message', (data) => this.onMessage(ws, data));
    ws.send(JSON.stringify({ op: 10, d: { heartbeat_interval: this.state.options.heartbeatIntervalMs }, s: null, t: null }));
  }

  private onMessage(ws: WebSocket, data: RawData): void {
    // The fields IDENTIFY (op 2) and RESUME (op 6) carry that the emulator reads; typed here, checked where read.
    let packet: { op?: number; d?: { token?: unknown; session_id?: unknown; seq?: unknown; shard?: unknown } | undefined };
    try {
      packet = JSON.parse(rawText(data)) as typeof packet;
    } catch {
      ws.close(...CLOSE.decodeError);
      return;
    }
    if (packet.op === 1) ws.send(JSON.stringify({ op: 11, d: null, s: null, t: null }));
    else if (packet.op === 2) this.identify(ws, packet.d);
    else if (packet.op === 6) this.resume(ws, packet.d);
  }

  private tokenOk(token: unknown): boolean {
    return typeof token === 'string' && token.replace(/^Bot /, '') === this.state.options.token;
  }

  private identify(ws: WebSocket, d: { token?: unknown; shard?: unknown } | undefined): void {
    if (!this.tokenOk(d?.token)) {
      ws.close(...CLOSE.authenticationFailed);
      return;
    }
    if (this.bound.has(ws)) {
      ws.close(...CLOSE.alreadyAuthenticated);
      return;
    }
    const shard = parseShard(d?.shard);
    if (!shard || this.layoutConflict(shard)) {
      this.state.log(`IDENTIFY with shard ${JSON.stringify(d?.shard)} refused (live shards use num_shards ${this.numShards ?? '-'}): 4010`);
      ws.close(...CLOSE.invalidShard);
      return;
    }
    const [shardId, numShards] = shard;
    if (numShards !== this.numShards) {
      // A new layout: sessions of the old one (none on an open socket, or layoutConflict would have refused) end.
      for (const [id, old] of this.sessions) if (old.numShards !== numShards) this.sessions.delete(id);
      this.numShards = numShards;
    }
    // A second IDENTIFY for a shard replaces its session. The old socket, if still open, is left open but gets no
    // more dispatches: closing it would make its client RESUME, fail and IDENTIFY again, taking the shard back.
    const replaced = this.sessions.get(shardId);
    if (replaced?.socket?.readyState === WebSocket.OPEN)
      this.state.log(`shard ${shardId}: IDENTIFY replaces session ${replaced.id}, whose socket gets no more dispatches`);
    const session: Session = { id: this.state.ids.next(), shardId, numShards, socket: ws, seq: 0, history: [], ready: false, resumed: true };
    this.sessions.set(shardId, session);
    this.bound.set(ws, session);
    this.identifies += 1;
    this.identifiesByShard[shardId] = (this.identifiesByShard[shardId] ?? 0) + 1;
    const guilds = this.state.guilds.filter((g) => shardOf(g.id, numShards) === shardId);
    this.send(session, 'READY', {
      v: 10,
      user: this.state.botUser,
      guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
      session_id: session.id,
      resume_gateway_url: gatewayUrl(this.state),
      shard: [shardId, numShards],
      application: { id: this.state.applicationId, flags: 0 },
      user_settings: {},
      private_channels: [],
      relationships: [],
      presences: [],
      guild_join_requests: [],
      geo_ordered_rtc_regions: [],
    });
    const members = allUsers(this.state.fixtures);
    for (const guild of guilds) this.send(session, 'GUILD_CREATE', guildCreatePayload(guild, members, this.state.botUser));
    session.ready = true;
    this.settle();
  }

  /** True when another shard's session on an open socket uses a different num_shards (Discord's shards must agree). */
  private layoutConflict([shardId, numShards]: [number, number]): boolean {
    return [...this.sessions.values()].some((s) => s.shardId !== shardId && s.numShards !== numShards && s.socket?.readyState === WebSocket.OPEN);
  }

  private resume(ws: WebSocket, d: { token?: unknown; session_id?: unknown; seq?: unknown } | undefined): void {
    const session = [...this.sessions.values()].find((s) => s.id === d?.session_id);
    if (!session || !this.tokenOk(d?.token)) {
      ws.send(JSON.stringify({ op: 9, d: false, s: null, t: null }));
      return;
    }
    if (session.socket && session.socket !== ws) this.bound.delete(session.socket);
    session.socket = ws;
    this.bound.set(ws, session);
    const since = typeof d?.seq === 'number' ? d.seq : 0;
    for (const entry of session.history) if (entry.s > since) this.write(session, entry);
    this.resumes += 1;
    this.resumesByShard[session.shardId] = (this.resumesByShard[session.shardId] ?? 0) + 1;
    this.send(session, 'RESUMED', null);
    session.resumed = true;
    this.settle();
  }

  /** Numbers a dispatch in its session, keeps it for replay, and writes it if the session's client is connected. */
  private send(session: Session, t: string, d: unknown, onSent?: () => void): void {
    session.seq += 1;
    const entry: Dispatch = { s: session.seq, frame: JSON.stringify({ op: 0, s: session.seq, t, d }), sent: false, onSent };
    session.history.push(entry);
    if (session.socket?.readyState === WebSocket.OPEN) this.write(session, entry);
  }

  private write(session: Session, entry: Dispatch): void {
    session.socket?.send(entry.frame);
    if (!entry.sent) {
      entry.sent = true;
      entry.onSent?.();
    }
  }
}

/** IDENTIFY's `shard` as [shard_id, num_shards] (absent: [0, 1]); undefined when malformed or shard_id ∉ [0, num_shards). */
function parseShard(shard: unknown): [number, number] | undefined {
  if (shard === undefined || shard === null) return [0, 1];
  if (!Array.isArray(shard) || shard.length !== 2) return undefined;
  const [shardId, numShards] = shard as unknown[];
  if (!Number.isInteger(shardId) || !Number.isInteger(numShards)) return undefined;
  const [id, count] = [shardId as number, numShards as number];
  return count >= 1 && id >= 0 && id < count ? [id, count] : undefined;
}

/** A frame's text: ws hands over a Buffer, an ArrayBuffer or fragments, depending on its binaryType. */
function rawText(data: RawData): string {
  return (Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data)).toString('utf8');
}
