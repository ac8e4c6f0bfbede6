/**
 * The gateway: HELLO, HEARTBEAT_ACK, IDENTIFY → READY + GUILD_CREATE, RESUME with replay, RECONNECT, plain JSON text
 * frames (no zlib-sync). One session at a time, which is all a single-shard bot uses.
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

interface Session {
  id: string;
  history: Dispatch[];
}

export class Gateway {
  /** Counters for resilience tests. */
  identifies = 0;
  resumes = 0;
  private readonly state: EmulatorState;
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly sockets = new Set<WebSocket>();
  private socket: WebSocket | undefined;
  private session: Session | undefined;
  private seq = 0;
  private ready = false;
  private resumedSinceDisconnect = true;
  private readonly waiters = { ready: [] as (() => void)[], resumed: [] as (() => void)[] };

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

  /** Resolves once a client has IDENTIFYed and got READY + GUILD_CREATEs (again, after sendInvalidSession()). */
  whenReady(): Promise<void> {
    return this.ready ? Promise.resolve() : new Promise((resolve) => this.waiters.ready.push(resolve));
  }

  /** Resolves once the client has resumed after the last disconnectClient()/sendReconnect(). */
  whenResumed(): Promise<void> {
    return this.resumedSinceDisconnect ? Promise.resolve() : new Promise((resolve) => this.waiters.resumed.push(resolve));
  }

  get connected(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** Sends a dispatch (op 0) now, or queues it for replay on RESUME if the client is away. */
  dispatch(t: string, d: unknown, onSent?: () => void): void {
    if (!this.session) throw new Error('Discord emulator: no client has identified yet; await emulator.whenReady() first');
    this.seq += 1;
    const entry: Dispatch = { s: this.seq, frame: JSON.stringify({ op: 0, s: this.seq, t, d }), sent: false, onSent };
    this.session.history.push(entry);
    if (this.connected) this.write(entry);
  }

  /** Closes the client's socket (default 4000, which discord.js answers with a RESUME). */
  disconnectClient(code = 4000): void {
    this.resumedSinceDisconnect = false;
    this.socket?.close(code, 'emulator disconnect');
    this.socket = undefined;
  }

  /** Sends op 7 RECONNECT; discord.js closes and resumes. */
  sendReconnect(): void {
    this.resumedSinceDisconnect = false;
    this.socket?.send(JSON.stringify({ op: 7, d: null, s: null, t: null }));
  }

  /** Sends op 9 INVALID_SESSION; with `resumable` false the client re-IDENTIFYs. */
  sendInvalidSession(resumable = false): void {
    if (resumable) this.resumedSinceDisconnect = false;
    else this.ready = false;
    this.socket?.send(JSON.stringify({ op: 9, d: resumable, s: null, t: null }));
  }

  async close(): Promise<void> {
    for (const ws of this.sockets) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private onConnection(ws: WebSocket): void {
    this.sockets.add(ws);
    ws.on('close', () => {
      this.sockets.delete(ws);
      if (this.socket === ws) this.socket = undefined;
    });
    ws.on('message', (data) => this.onMessage(ws, data));
    ws.send(JSON.stringify({ op: 10, d: { heartbeat_interval: this.state.options.heartbeatIntervalMs }, s: null, t: null }));
  }

  private onMessage(ws: WebSocket, data: RawData): void {
    // The fields IDENTIFY (op 2) and RESUME (op 6) carry that the emulator reads; typed here, checked where read.
    let packet: { op?: number; d?: { token?: unknown; session_id?: unknown; seq?: unknown } | undefined };
    try {
      packet = JSON.parse(rawText(data)) as typeof packet;
    } catch {
      ws.close(4002, 'Decode error');
      return;
    }
    if (packet.op === 1) ws.send(JSON.stringify({ op: 11, d: null, s: null, t: null }));
    else if (packet.op === 2) this.identify(ws, packet.d);
    else if (packet.op === 6) this.resume(ws, packet.d);
  }

  private tokenOk(token: unknown): boolean {
    return typeof token === 'string' && token.replace(/^Bot /, '') === this.state.options.token;
  }

  private identify(ws: WebSocket, d: { token?: unknown } | undefined): void {
    if (!this.tokenOk(d?.token)) {
      ws.close(4004, 'Authentication failed.');
      return;
    }
    this.identifies += 1;
    this.socket = ws;
    this.session = { id: this.state.ids.next(), history: [] };
    const guilds = this.state.guilds;
    this.dispatch('READY', {
      v: 10,
      user: this.state.botUser,
      guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
      session_id: this.session.id,
      resume_gateway_url: gatewayUrl(this.state),
      shard: [0, 1],
      application: { id: this.state.applicationId, flags: 0 },
      user_settings: {},
      private_channels: [],
      relationships: [],
      presences: [],
      guild_join_requests: [],
      geo_ordered_rtc_regions: [],
    });
    const members = allUsers(this.state.fixtures);
    for (const guild of guilds) this.dispatch('GUILD_CREATE', guildCreatePayload(guild, members, this.state.botUser));
    this.ready = true;
    for (const resolve of this.waiters.ready.splice(0)) resolve();
  }

  private resume(ws: WebSocket, d: { token?: unknown; session_id?: unknown; seq?: unknown } | undefined): void {
    const session = this.session;
    if (!session || !this.tokenOk(d?.token) || d?.session_id !== session.id) {
      ws.send(JSON.stringify({ op: 9, d: false, s: null, t: null }));
      return;
    }
    this.socket = ws;
    const since = typeof d.seq === 'number' ? d.seq : 0;
    for (const entry of session.history) if (entry.s > since) this.write(entry);
    this.resumes += 1;
    this.dispatch('RESUMED', null);
    this.resumedSinceDisconnect = true;
    for (const resolve of this.waiters.resumed.splice(0)) resolve();
  }

  private write(entry: Dispatch): void {
    this.socket?.send(entry.frame);
    if (!entry.sent) {
      entry.sent = true;
      entry.onSent?.();
    }
  }
}

/** A frame's text: ws hands over a Buffer, an ArrayBuffer or fragments, depending on its binaryType. */
function rawText(data: RawData): string {
  return (Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data)).toString('utf8');
}
