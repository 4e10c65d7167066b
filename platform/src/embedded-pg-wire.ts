/** PostgreSQL wire-protocol framing for the embedded database server (protocol 3.0). */

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** PostgreSQL's own limit for startup packets (MAX_STARTUP_PACKET_LENGTH). */
const MAX_STARTUP_BYTES = 10_000;
/** Larger messages are refused; nothing this service sends comes near it. */
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

/** One complete frontend packet: a startup-phase request or a typed message. */
export type Frame =
  | { kind: 'encryption-request' | 'cancel-request' | 'startup'; bytes: Buffer }
  | { kind: 'message'; type: string; bytes: Buffer };

/** A client broke the protocol; the connection is closed with this SQLSTATE. */
export class ProtocolViolation extends Error {
  readonly code = '08P01';
}

/**
 * Cuts complete frames from the start of `buf`. Before the startup message every packet is untyped
 * (length, code); after it every message is typed (type byte, length). Returns the frames, the rest,
 * and how many bytes the rest must reach before another frame can be cut (0: not known yet).
 */
export function readFrames(buf: Buffer, startupDone: boolean): { frames: Frame[]; rest: Buffer; startupDone: boolean; needed: number } {
  const frames: Frame[] = [];
  let at = 0;
  let done = startupDone;
  for (;;) {
    const length = frameLength(buf, at, done);
    if (length === undefined || buf.length - at < length) {
      return { frames, rest: buf.subarray(at), startupDone: done, needed: length ?? 0 };
    }
    const frame = done ? typed(buf.subarray(at, at + length)) : untyped(buf.subarray(at, at + length));
    frames.push(frame);
    at += length;
    if (frame.kind === 'startup') done = true;
  }
}

function frameLength(buf: Buffer, at: number, startupDone: boolean): number | undefined {
  if (!startupDone) {
    if (buf.length - at < 4) return undefined;
    const length = buf.readInt32BE(at);
    if (length < 8 || length > MAX_STARTUP_BYTES) throw new ProtocolViolation(`invalid startup packet length ${length}`);
    return length;
  }
  if (buf.length - at < 5) return undefined;
  const length = buf.readInt32BE(at + 1);
  if (length < 4 || length > MAX_MESSAGE_BYTES) throw new ProtocolViolation(`invalid message length ${length}`);
  return length + 1;
}

function untyped(bytes: Buffer): Frame {
  const code = bytes.readInt32BE(4);
  if (code === SSL_REQUEST || code === GSSENC_REQUEST) return { kind: 'encryption-request', bytes };
  if (code === CANCEL_REQUEST) return { kind: 'cancel-request', bytes };
  if (code >>> 16 === 3) return { kind: 'startup', bytes };
  throw new ProtocolViolation(`unsupported frontend protocol ${code >>> 16}.${code & 0xffff}`);
}

function typed(bytes: Buffer): Frame {
  return { kind: 'message', type: String.fromCharCode(bytes[0]!), bytes };
}

/** A typed frontend or backend message. */
export function message(type: string, body: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

/** An ErrorResponse with severity FATAL, sent just before the server closes a connection. */
export function fatalError(sqlState: string, text: string): Buffer {
  const fields = [`SFATAL`, `VFATAL`, `C${sqlState}`, `M${text}`].map((f) => `${f}\0`).join('');
  return message('E', Buffer.from(`${fields}\0`, 'utf8'));
}

/** A simple-protocol Query message. */
export function query(sql: string): Buffer {
  return message('Q', Buffer.from(`${sql}\0`, 'utf8'));
}

/** Transaction status of a ReadyForQuery: idle, in a transaction block, or in a failed one. */
export type ReadyStatus = 'I' | 'T' | 'E';

/**
 * Follows one answer of the backend, chunk by chunk, to tell whether it ended with ReadyForQuery
 * and with which status. Anything after the ReadyForQuery (or an unfinished message) clears it.
 */
export class ReadyForQueryTail {
  private readonly header = Buffer.alloc(5);
  private headerFill = 0;
  private bodyLeft = 0;
  private type = 0;
  private status: number | undefined;

  push(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.headerFill < 5) {
        this.header[this.headerFill++] = chunk[at++]!;
        if (this.headerFill === 5) this.startBody();
        continue;
      }
      if (this.type === 0x5a && this.status === undefined) this.status = chunk[at];
      const take = Math.min(this.bodyLeft, chunk.length - at);
      at += take;
      this.bodyLeft -= take;
      if (this.bodyLeft === 0) this.headerFill = 0;
    }
  }

  /** The status of the ReadyForQuery the answer ended with, if it ended with one. */
  readyStatus(): ReadyStatus | undefined {
    if (this.headerFill !== 0 || this.type !== 0x5a || this.status === undefined) return undefined;
    return String.fromCharCode(this.status) as ReadyStatus;
  }

  private startBody(): void {
    this.type = this.header[0]!;
    this.bodyLeft = this.header.readInt32BE(1) - 4;
    this.status = undefined;
    if (this.bodyLeft <= 0) this.headerFill = 0;
  }
}
