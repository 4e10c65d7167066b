import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';
import { CONNECT_TIMEOUT_MS } from './db';

/**
 * Tells a process's read cache when rows it caches change, whichever process of the deployment committed the
 * change: writers run `notify(key)` inside their transaction (PostgreSQL delivers it at commit, to every session
 * listening on the channel, or never when the transaction rolls back) and every process holds one session that
 * LISTENs on the channel and calls `onChange(key)`.
 *
 * The cache may serve only while `live()`: the listening session is connected, LISTENs, and a probe (a
 * notification sent through the service's pool, so through whatever sits between the service and PostgreSQL)
 * has come back within PROBE_TIMEOUT_MS, at the start and every PROBE_EVERY_MS since (so a session that silently
 * stops receiving, packets dropped, turns the cache off within PROBE_EVERY_MS + PROBE_TIMEOUT_MS). Behind a pooler that
 * does not keep a session's LISTEN (transaction mode), the probe fails and the cache stays off. When the session
 * fails, a probe is late, or the listener stops, `onReset` runs (the cache forgets everything: notifications
 * may have been missed) and the listener reconnects after RETRY_MS.
 */
export type ChangeFeed = {
  live(): boolean;
  /**
   * The statement a writer runs inside its transaction (the key reaches every process at commit), whether or not
   * this process's own feed is live; undefined when no other process can hold a cache.
   */
  notify(key: string): pg.QueryConfig | undefined;
  start(): void;
  stop(): Promise<void>;
};

export const PROBE_EVERY_MS = 2_000;
export const PROBE_TIMEOUT_MS = 2_000;
export const RETRY_MS = 1_000;
const PROBE_PREFIX = 'probe:';

type Options = {
  url: string;
  /** The pool the service writes through (the probe's notification goes out on it). */
  pool: pg.Pool;
  channel: string;
  applicationName: string;
  onChange: (key: string) => void;
  onReset: () => void;
  log: Logger;
  probeEveryMs?: number;
  probeTimeoutMs?: number;
  retryMs?: number;
};

/** The feed of one process on a PostgreSQL server (see ChangeFeed). */
export class PgChangeListener implements ChangeFeed {
  private client: pg.Client | undefined;
  private isLive = false;
  private stopped = true;
  private timer: NodeJS.Timeout | undefined;
  private readonly probes = new Map<string, () => void>();

  constructor(private readonly o: Options) {
    if (!/^[a-z_][a-z0-9_]*$/.test(o.channel)) throw new Error(`channel ${o.channel} is not a plain identifier`);
  }

  live(): boolean {
    return this.isLive;
  }

  notify(key: string): pg.QueryConfig {
    return { text: 'select pg_notify($1, $2)', values: [this.o.channel, key] };
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    // A connect still under way fails on its ended session and finds itself replaced (nothing waits for it).
    this.down();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.o.url, application_name: this.o.applicationName, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
    this.client = client;
    client.on('notification', (m) => {
      if (m.channel !== this.o.channel || m.payload === undefined) return;
      if (m.payload.startsWith(PROBE_PREFIX)) this.probes.get(m.payload)?.();
      else this.o.onChange(m.payload);
    });
    client.on('error', (err) => this.fail(client, err));
    client.on('end', () => this.fail(client, new Error('the listening session ended')));
    try {
      await client.connect();
      await client.query(`listen ${this.o.channel}`);
      await this.probe();
      if (this.stopped || this.client !== client) return;
      // Whatever was cached before this session listened may have missed a change.
      this.o.onReset();
      this.isLive = true;
      this.schedule();
    } catch (err) {
      this.fail(client, err as Error);
    }
  }

  /** A notification sent through the pool must come back on the listening session. */
  private probe(): Promise<void> {
    const payload = `${PROBE_PREFIX}${randomUUID()}`;
    return new Promise<void>((resolve, reject) => {
      const timeout = setTimeout(() => {
        this.probes.delete(payload);
        reject(new Error(`no notification back within ${this.o.probeTimeoutMs ?? PROBE_TIMEOUT_MS} ms`));
      }, this.o.probeTimeoutMs ?? PROBE_TIMEOUT_MS).unref();
      this.probes.set(payload, () => {
        clearTimeout(timeout);
        this.probes.delete(payload);
        resolve();
      });
      this.o.pool.query(this.notify(payload)).catch((err: Error) => {
        clearTimeout(timeout);
        this.probes.delete(payload);
        reject(err);
      });
    });
  }

  private schedule(): void {
    clearTimeout(this.timer);
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      const client = this.client;
      this.probe().then(
        // A session replaced meanwhile has its own timers (the reconnect's must not be cleared here).
        () => {
          if (this.client === client && this.isLive) this.schedule();
        },
        (err: Error) => {
          if (client) this.fail(client, err);
        },
      );
    }, this.o.probeEveryMs ?? PROBE_EVERY_MS).unref();
  }

  /** `client` failed: the cache goes off (and forgets), and a new session is opened after RETRY_MS. */
  private fail(client: pg.Client, err: Error): void {
    if (this.client !== client) return;
    if (!this.stopped) this.o.log.warn({ err: err.message, channel: this.o.channel }, 'change notifications lost; the cache is off until they are back');
    this.down();
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (!this.stopped) void this.connect();
    }, this.o.retryMs ?? RETRY_MS).unref();
  }

  private down(): void {
    this.isLive = false;
    const client = this.client;
    this.client = undefined;
    this.o.onReset();
    if (client) {
      client.removeAllListeners('notification');
      client.on('error', () => undefined);
      void client.end().catch(() => undefined);
    }
  }
}

/** The feed of a process that is the database's only writer (the embedded database: DATA_DIR is exclusive). */
export class SoleWriterFeed implements ChangeFeed {
  live(): boolean {
    return true;
  }
  notify(): undefined {
    return undefined;
  }
  start(): void {}
  async stop(): Promise<void> {}
}

/**
 * A cache of one value per key (an account's rows), filled by reads and emptied by changes: a value is stored
 * only when the feed was live for the whole read and no change of the key (nor a reset) came in meanwhile, so
 * a read racing a commit never stores what the commit replaced.
 */
export class KeyedReadCache<T> {
  private epoch = 0;
  private readonly generations = new Map<string, number>();
  private readonly values = new Map<string, T>();

  constructor(
    private readonly live: () => boolean,
    private readonly maxKeys = 10_000,
  ) {}

  async read(key: string, load: () => Promise<T>): Promise<T> {
    if (!this.live()) return load();
    const hit = this.values.get(key);
    if (hit !== undefined) return hit;
    const epoch = this.epoch;
    const generation = this.generations.get(key) ?? 0;
    const value = await load();
    if (this.live() && this.epoch === epoch && (this.generations.get(key) ?? 0) === generation) {
      if (this.values.size >= this.maxKeys) this.reset();
      this.values.set(key, value);
    }
    return value;
  }

  changed(key: string): void {
    this.values.delete(key);
    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
    if (this.generations.size > this.maxKeys) this.reset();
  }

  reset(): void {
    this.epoch++;
    this.values.clear();
    this.generations.clear();
  }

  get size(): number {
    return this.values.size;
  }
}
