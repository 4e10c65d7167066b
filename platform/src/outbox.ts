import type pg from 'pg';
import type { Logger } from 'pino';
import type { BusMessage, EventBus } from './bus';
import { countPublished, relayErrors } from './metrics';
import { lastResult, OUTBOX_SCAN_SETTINGS } from './outbox-scan';
import { withPublishSpans } from './tracing';

export { defineInboxEntity, defineOutboxEntity } from './outbox-entities';

/** One event as a service writes it to its outbox, in the transaction of the state change it reports. */
export type OutboxEvent = { id: string; subject: string; payload: Uint8Array };

/**
 * The payloads of `events` as statement parameters: all of them in one buffer, which node-postgres sends in binary
 * (a `bytea[]` parameter goes as hex text, twice the bytes, encoded here and decoded by PostgreSQL: a batch of
 * 1,000 supply events carries about 350 kB of payload), and each one's start (1-based) and length in it.
 * {@link payloadAt} takes an event's payload back out in SQL.
 */
export function payloadParams(events: readonly Pick<OutboxEvent, 'payload'>[]): { bytes: Buffer; starts: number[]; lengths: number[] } {
  const starts: number[] = [];
  const lengths: number[] = [];
  let at = 1;
  for (const e of events) {
    starts.push(at);
    lengths.push(e.payload.length);
    at += e.payload.length;
  }
  return { bytes: Buffer.concat(events.map((e) => e.payload)), starts, lengths };
}

/** SQL: the payload at `start` for `len` bytes (columns of the unnested {@link payloadParams} arrays) of the buffer parameter `bytes`. */
export const payloadAt = (bytes: string, start: string, len: string) => `substring(${bytes}::bytea from ${start} for ${len})`;

/** Writes `events` to `schema`'s outbox through `db` (the caller's transaction client, so they commit with its change). */
export async function writeOutbox(db: Pick<pg.PoolClient, 'query'>, schema: string, events: readonly OutboxEvent[], now: Date): Promise<void> {
  if (!events.length) return;
  const { bytes, starts, lengths } = payloadParams(events);
  await db.query(
    `insert into "${schema}".outbox (id, subject, payload, created_at, attempts)
     select id, subject, ${payloadAt('$3', 'e.start', 'e.len')}, $4, 0 from unnest($1::uuid[], $2::text[], $5::int[], $6::int[]) as e(id, subject, start, len)`,
    [events.map((e) => e.id), events.map((e) => e.subject), bytes, now, starts, lengths],
  );
}

/** A claimed row; `payload` in base64 (settleAndClaimSql). */
type OutboxRow = { id: string; subject: string; payload: string; trace_context: string | null };

/** The settings of the claim's transaction (settleAndClaimStatement). */
export const CLAIM_SETTINGS = `${OUTBOX_SCAN_SETTINGS} set local synchronous_commit = off;`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `ids` as an SQL uuid[] literal; each must be a UUID (they are the outbox's own ids, read back from it). */
function uuidArray(ids: readonly string[]): string {
  for (const id of ids) if (!UUID.test(id)) throw new Error(`outbox relay: not a uuid: ${JSON.stringify(id)}`);
  return `'{${ids.join(',')}}'::uuid[]`;
}

/**
 * One round trip per batch: marks the ids `published` published and releases the ids `released` (the previous
 * batch's outcome), and claims up to `limit` unpublished rows for 30 s (no transaction is held while publishing;
 * an expired claim is taken again, and the event id makes the second publish harmless).
 *
 * It is one simple-protocol message of three statements, run by PostgreSQL as one implicit transaction, so the
 * two `set local` settings hold for the claim alone (the ids go as literals: the simple protocol takes no
 * parameters; each is checked to be a UUID):
 * - `enable_bitmapscan = off` (OUTBOX_SCAN_SETTINGS, ./outbox-scan): the claim walks the partial index of unpublished
 *   rows in creation order, stops at `limit` and marks the entries of rows published since they were indexed dead
 *   as it passes them, where a bitmap scan would read all of them on every claim.
 * - `synchronous_commit = off`: the claim and the marks do not wait for their WAL flush. Should PostgreSQL itself
 *   crash within that moment, a lost mark publishes its events again and a lost claim lets another relay take
 *   them: the bus drops a repeated event id and every consumer's inbox applies an event once. Nothing else is
 *   written in this transaction.
 */
function settleAndClaimStatement(schema: string, published: readonly string[], released: readonly string[], limit: number, sole: boolean): string {
  return `${CLAIM_SETTINGS} ${sole ? settleAndReadSql(schema, published, limit) : settleAndClaimSql(schema, published, released, limit)}`;
}

/** What both settle statements open with: the batch size checked, the table, the published ids and the CTE marking them. */
function settleParts(schema: string, published: readonly string[], limit: number): { t: string; done: string; markPublished: string } {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new Error(`outbox relay: bad batch size ${limit}`);
  const t = `"${schema}".outbox`;
  const done = uuidArray(published);
  return { t, done, markPublished: `published as (
      update ${t} set published_at = now(), claimed_until = null where id = any(${done}))` };
}

/**
 * What a sole relay (OutboxRelay.takeSole) runs instead of settleAndClaimSql: it marks the ids `published`
 * published and reads the next `limit` unpublished rows without claiming them. No other relay works on its outbox,
 * so a lease guards nothing, and each event costs one update (the mark) instead of two (the claim, then the mark):
 * with the embedded database, a single PostgreSQL session shared by the whole process, the claims were a fifth of
 * its busy time under persisted calculations. Rows the bus refused simply stay unpublished for the next drain.
 */
export function settleAndReadSql(schema: string, published: readonly string[], limit: number): string {
  const { t, done, markPublished } = settleParts(schema, published, limit);
  // The select sees the table as it was before the mark (one statement, one snapshot): the marked ids are left out.
  return `with ${markPublished}
    select id, subject, encode(payload, 'base64') as payload, trace_context from ${t}
     where published_at is null and id <> all(${done})
     order by created_at limit ${limit}`;
}

/** The statement that settles and claims (settleAndClaimStatement, which runs it with CLAIM_SETTINGS). */
export function settleAndClaimSql(schema: string, published: readonly string[], released: readonly string[], limit: number): string {
  const { t, done, markPublished } = settleParts(schema, published, limit);
  const back = uuidArray(released);
  // A data-modifying CTE returns rows in no set order: the outer select restores outbox order. The payload comes as
  // base64 (a third fewer bytes than bytea's hex text; the relay of a batch of 1,000 supply events reads 350 kB
  // of payload, and a base64 string is decoded in half the time of a hex one).
  return `with ${markPublished},
    released as (
      update ${t} set claimed_until = null where id = any(${back})),
    claimed as (
      update ${t} set claimed_until = now() + interval '30 seconds', attempts = attempts + 1
      where id in (select id from ${t}
                   where published_at is null and (claimed_until is null or claimed_until < now())
                     and id <> all(${done}) and id <> all(${back})
                   order by created_at limit ${limit} for update skip locked)
      returning id, subject, payload, created_at, trace_context)
    select id, subject, encode(payload, 'base64') as payload, trace_context from claimed order by created_at, id`;
}

/**
 * How long published outbox rows are kept (`keepMs`; 0 keeps them forever), how often the relay
 * deletes older ones and how many rows one delete statement takes.
 */
type OutboxRetention = { keepMs: number; everyMs: number; batch: number };
export const DEFAULT_OUTBOX_RETENTION: OutboxRetention = { keepMs: 7 * 24 * 3600_000, everyMs: 10 * 60_000, batch: 5000 };

/**
 * Publishes outbox rows to the bus in batches: each round trip settles the batch just published and
 * claims the next, and a row is marked published only after the bus accepted it. The composition
 * root starts it only after the bus is open (every consumer of the process subscribed).
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private again = false;
  private active = false;
  private stopping = false;
  private lastPrune = 0;
  /** No other relay works on this outbox (takeSole): rows are read, not claimed. */
  private sole = false;
  /** Drain passes begun, and the callers of `flush()` waiting for a pass that begins after their call. */
  private passes = 0;
  private waiting: { pass: number; done: () => void }[] = [];

  constructor(
    private readonly pool: pg.Pool,
    private readonly schema: string,
    private readonly bus: EventBus,
    private readonly log: Logger,
    private readonly pollMs: number,
    private readonly batchSize = 200,
    private readonly retention: OutboxRetention = DEFAULT_OUTBOX_RETENTION,
  ) {}

  /**
   * Deletes rows published more than `retention.keepMs` ago, at most `retention.batch` per statement
   * and statement after statement until none is left; unpublished rows are never touched. The bus
   * deduplicates by id within its own window, far shorter than the retention, and nothing reads a
   * published row again, so a deleted row can neither be lost nor come back. Returns how many.
   */
  async prunePublished(now = Date.now()): Promise<number> {
    const t = `"${this.schema}".outbox`;
    const before = new Date(now - this.retention.keepMs);
    let total = 0;
    for (;;) {
      const r = await this.pool.query(
        `delete from ${t} where id in (select id from ${t} where published_at < $1 order by published_at limit $2)`,
        [before, this.retention.batch],
      );
      total += r.rowCount ?? 0;
      if ((r.rowCount ?? 0) < this.retention.batch || this.stopping) break;
    }
    this.lastPrune = now;
    if (total) this.log.info({ schema: this.schema, deleted: total }, 'outbox relay: deleted published rows past retention');
    return total;
  }

  /**
   * Makes this the sole relay of its outbox (the embedded database: no other process opens it): from now on it
   * reads the next rows without claiming them (settleAndReadSql), and every claim still held, a killed
   * predecessor's, is released now instead of after its lease. Returns how many claims were released.
   */
  async takeSole(): Promise<number> {
    this.sole = true;
    return this.releaseClaims();
  }

  /**
   * Releases every claim on unpublished rows. Only for a relay that knows it is the only one on its
   * outbox (the embedded database): the claims are then a killed predecessor's. Returns how many.
   */
  async releaseClaims(): Promise<number> {
    const r = await this.pool.query(`update "${this.schema}".outbox set claimed_until = null where published_at is null and claimed_until is not null`);
    if (r.rowCount) this.log.info({ schema: this.schema, released: r.rowCount }, 'outbox relay: released the claims of a previous process');
    return r.rowCount ?? 0;
  }

  /** Starts draining (now, then every `pollMs`); until then `kick()` does nothing. */
  start(): void {
    this.active = true;
    this.stopping = false;
    this.kick();
  }

  async stop(): Promise<void> {
    this.active = false;
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    while (this.running) await new Promise((r) => setTimeout(r, 10));
    this.release(Number.POSITIVE_INFINITY);
  }

  /**
   * Drains now and resolves when a pass that began after the call has ended (published, or failed and
   * left to the next poll), or after `maxWaitMs`. A write whose own readers should find its events
   * applied calls it once committed: the in-process bus resolves a publish only when every consumer
   * has applied it; JetStream once it stored it. Resolves at once while the relay is not started.
   */
  async flush(maxWaitMs = 2000): Promise<void> {
    if (!this.active) return;
    let timer: NodeJS.Timeout | undefined;
    const passed = new Promise<void>((done) => this.waiting.push({ pass: this.passes + 1, done }));
    this.kick();
    await Promise.race([passed, new Promise<void>((r) => (timer = setTimeout(r, maxWaitMs)))]);
    clearTimeout(timer);
  }

  private release(upTo: number): void {
    const ready = this.waiting.filter((w) => w.pass <= upTo);
    this.waiting = this.waiting.filter((w) => w.pass > upTo);
    for (const w of ready) w.done();
  }

  /** Asks for an immediate drain (after a commit that wrote events). */
  kick(): void {
    if (!this.active) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), 0);
  }

  private schedule(): void {
    if (!this.active) return;
    this.timer = setTimeout(() => void this.tick(), this.pollMs);
  }

  private async tick(): Promise<void> {
    if (this.running || !this.active) return;
    this.running = true;
    try {
      do {
        this.again = false;
        const pass = ++this.passes;
        await this.drain().finally(() => this.release(pass));
      } while (this.again && this.active);
      if (this.retention.keepMs > 0 && Date.now() - this.lastPrune >= this.retention.everyMs) await this.prunePublished();
    } catch (err) {
      relayErrors.inc({ service: this.schema });
      this.log.warn({ err: (err as Error).message, schema: this.schema }, 'outbox relay: will retry');
    } finally {
      this.running = false;
      // A kick that came while the pass was pruning (after the drain loop ended) drains at once, not at the next poll.
      if (this.again && this.active) this.kick();
      else this.schedule();
    }
  }

  /**
   * Publishes batches until the outbox is empty, the bus refuses, or the relay stops; every batch
   * the bus accepted is marked before it returns. Returns how many events were published.
   */
  async drain(): Promise<number> {
    if (!this.bus.connected()) return 0;
    let total = 0;
    let published: string[] = [];
    let released: string[] = [];
    for (;;) {
      const limit = released.length || this.stopping ? 0 : this.batchSize;
      const { rows } = lastResult((await this.pool.query(settleAndClaimStatement(this.schema, published, released, limit, this.sole))) as unknown as pg.QueryResult<OutboxRow>[]);
      total += published.length;
      if (rows.length === 0) return total;
      ({ published, released } = await this.publish(rows));
    }
  }

  private async publish(rows: OutboxRow[]): Promise<{ published: string[]; released: string[] }> {
    const batch: BusMessage[] = rows.map((r) => ({ id: r.id, subject: r.subject, data: Buffer.from(r.payload, 'base64'), ...(r.trace_context ? { traceContext: r.trace_context } : {}) }));
    let published: string[] = [];
    try {
      published = await withPublishSpans(this.schema, batch, (b) => this.bus.publish(b));
    } catch (err) {
      relayErrors.inc({ service: this.schema });
      this.log.warn({ err: (err as Error).message, schema: this.schema }, 'outbox relay: publish failed');
    }
    const accepted = new Set(published);
    countPublished(batch.flatMap((m) => (accepted.has(m.id) ? [{ subject: m.subject, payload: m.data }] : [])));
    return { published, released: rows.map((r) => r.id).filter((id) => !accepted.has(id)) };
  }
}
