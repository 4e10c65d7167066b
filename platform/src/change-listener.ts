import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';
import { CONNECT_TIMEOUT_MS } from './db';
import { PeriodicTask } from './periodic-task';

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
 * may have been missed) and the next check (PROBE_EVERY_MS later) opens a new session.
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
};

/**
 * The feed of one process on a PostgreSQL server (see ChangeFeed). One PeriodicTask does everything, every
 * PROBE_EVERY_MS: opens and LISTENs on a session when there is none, then probes; the first probe back turns the
 * feed live. A failed check, or the session's error or end at any moment, turns it off at once.
 */
export class PgChangeListener implements ChangeFeed {
  private client: pg.Client | undefined;
  private isLive = false;
  /** The loss was logged (once per loss: a pooler that drops LISTEN would otherwise log every check). */
  private reported = false;
  private readonly probes = new Map<string, () => void>();
  /** Rejects when the current session is lost: what a check waits for on that session ends with it (untilLost). */
  private lost: Promise<never> = new Promise<never>(() => undefined);
  private abandon: () => void = () => undefined;
  private readonly task: PeriodicTask;

  constructor(private readonly o: Options) {
    if (!/^[a-z_][a-z0-9_]*$/.test(o.channel)) throw new Error(`channel ${o.channel} is not a plain identifier`);
    this.task = new PeriodicTask(`listen ${o.channel}`, o.probeEveryMs ?? PROBE_EVERY_MS, () => this.check(), o.log);
  }

  live(): boolean {
    return this.isLive;
  }

  notify(key: string): pg.QueryConfig {
    return { text: 'select pg_notify($1, $2)', values: [this.o.channel, key] };
  }

  start(): void {
    this.task.start();
  }

  async stop(): Promise<void> {
    // Ending the session first ends a check still connecting or probing on it (stop waits for that check).
    const stopping = this.task.stop();
    this.lose(undefined);
    await stopping;
  }

  private async check(): Promise<void> {
    try {
      const client = this.client ?? (await this.listen());
      await this.probe();
      if (this.client !== client || this.isLive) return;
      // Whatever was cached before this session listened may have missed a change.
      this.o.onReset();
      this.isLive = true;
      this.reported = false;
    } catch (err) {
      this.lose(err as Error);
    }
  }

  private async listen(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.o.url, application_name: this.o.applicationName, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
    this.client = client;
    this.lost = new Promise<never>((_, reject) => (this.abandon = () => reject(new Error('the listening session was closed'))));
    // Handled here too: a session lost between checks has nobody waiting on it.
    this.lost.catch(() => undefined);
    client.on('notification', (m) => {
      if (m.channel !== this.o.channel || m.payload === undefined) return;
      if (m.payload.startsWith(PROBE_PREFIX)) this.probes.get(m.payload)?.();
      else this.o.onChange(m.payload);
    });
    client.on('error', (err) => this.lose(err, client));
    client.on('end', () => this.lose(new Error('the listening session ended'), client));
    // pg's connect() never settles once end() is called on a client still connecting (its 'end' handler skips
    // the callback when the end was asked for): the check waits for the connect or for the session's loss.
    await this.untilLost(client.connect().then(() => client.query(`listen ${this.o.channel}`)));
    return client;
  }

  /**
   * `work` on the current session, or that session's loss (whichever comes first). Checks run one at a time and
   * only a check opens a session, so the session a check works on is the current one or one already lost.
   */
  private untilLost<T>(work: Promise<T>): Promise<T> {
    work.catch(() => undefined);
    return Promise.race([work, this.lost]);
  }

  /** A notification sent through the pool must come back on the listening session. */
  private probe(): Promise<void> {
    const payload = `${PROBE_PREFIX}${randomUUID()}`;
    const timeoutMs = this.o.probeTimeoutMs ?? PROBE_TIMEOUT_MS;
    const back = new Promise<void>((resolve, reject) => {
      const done = (err?: Error) => {
        clearTimeout(timeout);
        this.probes.delete(payload);
        if (err) reject(err);
        else resolve();
      };
      const timeout = setTimeout(() => done(new Error(`no notification back within ${timeoutMs} ms`)), timeoutMs).unref();
      this.probes.set(payload, () => done());
      this.o.pool.query(this.notify(payload)).catch((err: Error) => done(err));
    });
    return this.untilLost(back);
  }

  /**
   * The session `client` (default: the current one) is lost: the feed goes off and the cache forgets; the next
   * check opens a new one. `err` undefined: stopped on purpose (nothing logged).
   */
  private lose(err: Error | undefined, client = this.client): void {
    if (client === undefined || client !== this.client) return;
    if (err && !this.reported) this.o.log.warn({ err: err.message, channel: this.o.channel }, 'change notifications lost; the cache is off until they are back');
    this.reported = err !== undefined;
    this.isLive = false;
    this.client = undefined;
    this.o.onReset();
    this.abandon();
    void client.end().catch(() => undefined);
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
