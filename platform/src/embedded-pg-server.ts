import { connect, createServer, type Server, type Socket } from 'node:net';
import { rmSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { WireConnection } from './embedded-pg-connection';
import { PgliteSession } from './embedded-pg-session';
import { fatalError } from './embedded-pg-wire';
import { IDLE_IN_TRANSACTION_MS, LOCK_WAIT_MS } from './db-limits';

export type EmbeddedPgServerOptions = {
  /** More simultaneous client connections are refused (SQLSTATE 53300). */
  maxConnections?: number;
  /** A connection holding the session this long without sending anything is closed (SQLSTATE 25P03). */
  idleHoldMs?: number;
  /** A message that waited this long for the session held by another connection fails (SQLSTATE 55P03, answered 503). */
  sessionWaitMs?: number;
};

/** A Unix socket path that is already bound by a live server. */
export class SocketInUse extends Error {}

/**
 * The PostgreSQL wire protocol over one PGlite on a Unix socket, replacing pglite-socket, whose queue
 * interleaves the messages of different connections (see PgliteSession for the scheduling rule). The
 * socket is bound before PGlite opens: binding is the lock that keeps a second process off the same
 * data directory, and clients that connect early wait until `serve` hands over the database.
 */
export class EmbeddedPgServer {
  private readonly connections = new Set<WireConnection>();
  /** Accepted before the database was handed over. */
  private readonly waiting = new Set<Socket>();
  private readonly server: Server;
  private readonly session: Promise<PgliteSession>;
  private provide!: (session: PgliteSession) => void;
  private closed = false;

  private constructor(
    private readonly path: string,
    private readonly opts: Required<EmbeddedPgServerOptions>,
  ) {
    this.session = new Promise((resolve) => (this.provide = resolve));
    this.server = createServer((socket) => this.accept(socket));
    this.server.on('error', () => undefined);
  }

  /** Binds `path`; a stale socket file left by a killed process is replaced, a live one is SocketInUse. */
  static async listen(path: string, opts: EmbeddedPgServerOptions = {}): Promise<EmbeddedPgServer> {
    const server = new EmbeddedPgServer(path, { maxConnections: opts.maxConnections ?? 64, idleHoldMs: opts.idleHoldMs ?? IDLE_IN_TRANSACTION_MS, sessionWaitMs: opts.sessionWaitMs ?? LOCK_WAIT_MS });
    await server.bind();
    return server;
  }

  /** Changes how long a message waits for the session held by another connection, for connections from now on. */
  setSessionWaitMs(ms: number): void {
    this.opts.sessionWaitMs = ms;
  }

  /** Starts answering clients (those that connected earlier included) from `db`. */
  serve(db: PGlite): void {
    this.provide(new PgliteSession(db));
  }

  /** Stops listening (which removes the socket file), closes every client connection and waits until none touches the database. */
  async close(): Promise<void> {
    this.closed = true;
    const stopped = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const s of this.waiting) s.destroy();
    for (const c of this.connections) c.destroy();
    await Promise.all([...this.connections].map((c) => c.finished));
    await stopped;
  }

  private async bind(): Promise<void> {
    try {
      await this.listenOnce();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
      if (await socketAnswers(this.path)) throw new SocketInUse(`${this.path} is served by another running process`);
      rmSync(this.path, { force: true });
      await this.listenOnce();
    }
  }

  private listenOnce(): Promise<void> {
    return new Promise((resolve, reject) => {
      const fail = (err: Error) => reject(err);
      this.server.once('error', fail);
      this.server.listen(this.path, () => {
        this.server.off('error', fail);
        resolve();
      });
    });
  }

  private accept(socket: Socket): void {
    socket.on('error', () => undefined);
    if (this.closed) return void socket.destroy();
    if (this.connections.size + this.waiting.size >= this.opts.maxConnections) {
      return void socket.end(fatalError('53300', `sorry, too many clients already (${this.opts.maxConnections})`), () => socket.destroy());
    }
    socket.pause();
    this.waiting.add(socket);
    socket.once('close', () => this.waiting.delete(socket));
    void this.session.then((session) => {
      this.waiting.delete(socket);
      if (this.closed || socket.destroyed) return void socket.destroy();
      const connection = new WireConnection(socket, session, this.opts.idleHoldMs, this.opts.sessionWaitMs);
      this.connections.add(connection);
      void connection.finished.then(() => this.connections.delete(connection));
      socket.resume();
    });
  }
}

/** True when something accepts connections on the Unix socket `path`. */
export function socketAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}
