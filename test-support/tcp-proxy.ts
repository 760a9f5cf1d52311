import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { freePort } from './server-process.js';

/**
 * A TCP proxy on 127.0.0.1 in front of a real service (PostgreSQL, Redis, or a server's websocket
 * endpoint). `down()` is a real outage for whoever goes through it: every piped connection is cut
 * and new ones are refused; `up()` listens again on the same port. `blackhole()` accepts
 * connections but forwards nothing (an unreachable host rather than a stopped one).
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private mode: 'forward' | 'blackhole' = 'forward';
  private frozen: Socket[] = [];
  /** Connections accepted since the start (for assertions that something really reconnected). */
  accepted = 0;

  private constructor(
    readonly port: number,
    readonly targetPort: number,
  ) {}

  static async start(targetPort: number, port?: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(port ?? (await freePort()), targetPort);
    await proxy.up();
    return proxy;
  }

  get isUp(): boolean {
    return this.server !== undefined;
  }

  /** Open connections (client side and service side). */
  get openSockets(): number {
    return this.sockets.size;
  }

  /** Listens (again) on the same port, forwarding to the target; frozen connections flow again. */
  async up(): Promise<void> {
    this.mode = 'forward';
    for (const socket of this.frozen) socket.resume();
    this.frozen = [];
    if (this.server) return;
    const server = createServer((client) => this.onConnection(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
  }

  /** The outage: refuse new connections and cut every open one. */
  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.cutAll();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Cuts every open connection but keeps accepting new ones. */
  cutAll(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  /** Unreachable: open connections are cut, new ones are accepted and then hear nothing. */
  async blackhole(): Promise<void> {
    await this.up();
    this.mode = 'blackhole';
    this.cutAll();
  }

  /**
   * A network partition: open connections stay open but nothing flows either way (bytes wait in
   * the kernel as on a real link that stopped), new connections are accepted and hear nothing.
   * `up()` heals it: the open connections flow again.
   */
  async freeze(): Promise<void> {
    await this.up();
    this.mode = 'blackhole';
    for (const socket of this.sockets) {
      socket.pause();
      this.frozen.push(socket);
    }
  }

  async close(): Promise<void> {
    await this.down();
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  }

  private onConnection(client: Socket): void {
    this.accepted += 1;
    this.track(client);
    if (this.mode === 'blackhole') {
      client.on('data', () => undefined);
      return;
    }
    const upstream = createConnection({ host: '127.0.0.1', port: this.targetPort });
    this.track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  }
}
