import type { PGlite } from '@electric-sql/pglite';
import { message, query, ReadyForQueryTail, type ReadyStatus } from './embedded-pg-wire';

type Waiter = { owner: object; grant: (outcome: Acquired) => void; timer?: NodeJS.Timeout };

/** How a wait for the session ended: it was handed over, the connection withdrew, or the wait timed out. */
export type Acquired = 'granted' | 'withdrawn' | 'timed_out';

const COPY_FAIL = message('f', Buffer.from('client connection closed\0'));
const SYNC = message('S');

/**
 * PGlite is a single PostgreSQL session shared by every client connection, so the connections take
 * turns at it. Scheduling rule: a connection that sends a message takes the session and keeps it until
 * PGlite's answer to one of its messages ends with ReadyForQuery 'I' (no transaction, no portal, no
 * unfinished extended-protocol sequence); meanwhile the other connections' messages wait, first come
 * first served. Extended-protocol sequences, transactions and portals of different connections
 * therefore never interleave.
 */
export class PgliteSession {
  private holder: object | undefined;
  private readonly waiters: Waiter[] = [];

  constructor(private readonly db: PGlite) {}

  /**
   * Resolves 'granted' once `owner` holds the session, 'withdrawn' if it withdrew while waiting, and
   * 'timed_out' when another connection kept the session for `waitMs` (the waiter is then out of the queue).
   */
  acquire(owner: object, waitMs?: number): Promise<Acquired> {
    if (this.holder === owner) return Promise.resolve('granted');
    if (this.holder === undefined) {
      this.holder = owner;
      return Promise.resolve('granted');
    }
    return new Promise((grant) => {
      const waiter: Waiter = { owner, grant };
      if (waitMs !== undefined) {
        waiter.timer = setTimeout(() => {
          const i = this.waiters.indexOf(waiter);
          if (i >= 0) this.waiters.splice(i, 1);
          grant('timed_out');
        }, waitMs);
        waiter.timer.unref();
      }
      this.waiters.push(waiter);
    });
  }

  holds(owner: object): boolean {
    return this.holder === owner;
  }

  /** Hands the session to the longest waiting connection. */
  release(owner: object): void {
    if (this.holder !== owner) return;
    const next = this.waiters.shift();
    this.holder = next?.owner;
    if (next) clearTimeout(next.timer);
    next?.grant('granted');
  }

  /** Stops waiting for the session (the connection closed). */
  withdraw(owner: object): void {
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      if (this.waiters[i]!.owner !== owner) continue;
      const w = this.waiters.splice(i, 1)[0]!;
      clearTimeout(w.timer);
      w.grant('withdrawn');
    }
  }

  /** Runs one frontend message; returns the ReadyForQuery status its answer ended with, if any. */
  async exec(bytes: Uint8Array, onData: (chunk: Uint8Array) => void): Promise<ReadyStatus | undefined> {
    const tail = new ReadyForQueryTail();
    await this.db.runExclusive(() =>
      this.db.execProtocolRawStream(new Uint8Array(bytes), {
        onRawData: (chunk) => {
          tail.push(chunk);
          onData(chunk);
        },
      }),
    );
    return tail.readyStatus();
  }

  /**
   * Leaves the session idle after its holder vanished mid-conversation: ends a COPY FROM STDIN,
   * closes an unfinished extended-protocol sequence (and its portals), rolls back a transaction.
   * CopyFail and Sync are ignored by PostgreSQL when there is nothing to end.
   */
  async reset(): Promise<void> {
    const ignore = () => undefined;
    await this.exec(COPY_FAIL, ignore);
    const status = await this.exec(SYNC, ignore);
    if (status !== 'I') await this.exec(query('ROLLBACK'), ignore);
  }
}
