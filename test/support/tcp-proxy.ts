/**
 * A TCP proxy in front of a real server (Redis in the tests), which a test can stop and start again: stopped, it
 * refuses connections and has cut every open one, as a store that went down; started, it listens on the same port.
 * Only the connections through it are affected, so tests sharing the server run on undisturbed.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export class TcpProxy {
  readonly port: number;
  private server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly target: { host: string; port: number };

  private constructor(server: Server, port: number, target: { host: string; port: number }) {
    this.server = server;
    this.port = port;
    this.target = target;
  }

  /** Listens on a free port of 127.0.0.1, forwarding to `target`. */
  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const server = createServer();
    await listen(server, 0);
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
    const proxy = new TcpProxy(server, address.port, target);
    server.on('connection', (client) => proxy.forward(client));
    return proxy;
  }

  /** Refuses new connections and cuts the open ones. */
  async stop(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  /** Listens again on the same port. */
  async resume(): Promise<void> {
    const server = createServer((client) => this.forward(client));
    await listen(server, this.port);
    this.server = server;
  }

  private forward(client: Socket): void {
    const upstream = createConnection(this.target);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  }
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
}
