import type { Socket } from 'node:net';
import type { PgliteSession } from './embedded-pg-session';
import { fatalError, ProtocolViolation, readFrames, type Frame } from './embedded-pg-wire';

/** The answer to SSLRequest and GSSENCRequest: no encryption (the socket is private to this user). */
const NO_ENCRYPTION = Buffer.from('N');

/**
 * One client connection of the embedded database: cuts its byte stream into messages and runs them,
 * in order, on the shared PGlite session (see PgliteSession for the scheduling rule). A connection that
 * keeps the session for `idleHoldMs` without sending anything is closed, so a stuck client cannot stall
 * every other one. When it closes, whatever it left open on the session is ended and the session passed on.
 */
export class WireConnection {
  /** Resolves once the connection is closed and the session no longer carries anything of it. */
  readonly finished: Promise<void>;
  /** Received bytes not yet cut into frames, kept as chunks so a large message is copied once. */
  private inbox: Buffer[] = [];
  private inboxBytes = 0;
  private needed = 0;
  private startupDone = false;
  private readonly queue: Frame[] = [];
  private pumping: Promise<void> = Promise.resolve();
  private busy = false;
  private closing = false;
  private idleTimer: NodeJS.Timeout | undefined;
  private markFinished!: () => void;

  constructor(
    private readonly socket: Socket,
    private readonly session: PgliteSession,
    private readonly idleHoldMs: number,
    private readonly sessionWaitMs?: number,
  ) {
    this.finished = new Promise((resolve) => (this.markFinished = resolve));
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', () => this.close());
    socket.on('close', () => this.close());
  }

  /** Closes the connection at once (server shutdown). */
  destroy(): void {
    this.socket.destroy();
    this.close();
  }

  private receive(chunk: Buffer): void {
    if (this.closing) return;
    this.inbox.push(chunk);
    this.inboxBytes += chunk.length;
    if (this.inboxBytes < this.needed) return;
    try {
      const read = readFrames(Buffer.concat(this.inbox, this.inboxBytes), this.startupDone);
      this.inbox = read.rest.length > 0 ? [Buffer.from(read.rest)] : [];
      this.inboxBytes = read.rest.length;
      this.needed = read.needed;
      this.startupDone = read.startupDone;
      this.queue.push(...read.frames);
    } catch (err) {
      this.fail(err instanceof ProtocolViolation ? err.code : '08P01', (err as Error).message);
      return;
    }
    this.pump();
  }

  private pump(): void {
    if (this.busy || this.queue.length === 0) return;
    this.busy = true;
    this.stopIdleTimer();
    this.pumping = this.drain()
      .catch((err: Error) => this.fail('XX000', `embedded database error: ${err.message}`))
      .finally(() => {
        this.busy = false;
        if (this.closing) return;
        if (this.queue.length > 0) this.pump();
        else if (this.session.holds(this)) this.startIdleTimer();
      });
  }

  private async drain(): Promise<void> {
    for (let frame = this.queue.shift(); frame && !this.closing; frame = this.queue.shift()) await this.handle(frame);
  }

  private async handle(frame: Frame): Promise<void> {
    if (frame.kind === 'encryption-request') return void this.socket.write(NO_ENCRYPTION);
    // PGlite cannot interrupt a running statement; like PostgreSQL, end the cancel connection.
    if (frame.kind === 'cancel-request') return void this.socket.end();
    if (frame.kind === 'message' && frame.type === 'X') return void this.socket.end();
    const acquired = await this.session.acquire(this, this.sessionWaitMs);
    if (acquired === 'timed_out') {
      return this.fail('55P03', `the embedded database session stayed busy for ${this.sessionWaitMs} ms (another connection holds it); retry`);
    }
    if (acquired !== 'granted' || this.closing) return;
    const status = await this.session.exec(frame.bytes, (chunk) => this.send(chunk));
    if (status === 'I') this.session.release(this);
  }

  private send(chunk: Uint8Array): void {
    if (!this.closing && this.socket.writable) this.socket.write(Buffer.from(chunk));
  }

  private startIdleTimer(): void {
    this.idleTimer = setTimeout(() => {
      this.fail('25P03', `terminating connection: it held the embedded database session for ${this.idleHoldMs} ms without sending anything`);
    }, this.idleHoldMs);
    this.idleTimer.unref();
  }

  private stopIdleTimer(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  /** Tells the client why (FATAL ErrorResponse), then closes. */
  private fail(sqlState: string, text: string): void {
    if (this.closing) return;
    if (this.socket.writable) this.socket.end(fatalError(sqlState, text), () => this.socket.destroy());
    else this.socket.destroy();
    this.close();
  }

  private close(): void {
    if (this.closing) return;
    this.closing = true;
    this.stopIdleTimer();
    this.queue.length = 0;
    this.session.withdraw(this);
    void this.pumping
      .then(async () => {
        if (this.session.holds(this)) await this.session.reset();
      })
      .catch(() => undefined)
      .finally(() => {
        this.session.release(this);
        this.markFinished();
      });
  }
}
