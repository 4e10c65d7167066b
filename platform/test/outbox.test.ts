import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { defineEntity, p, type MikroORM } from '@mikro-orm/postgresql';
import { createOrm, migrate } from '../src/db';
import { freshEvents } from '../src/inbox';
import fc from 'fast-check';
import { CLAIM_SETTINGS, defineInboxEntity, defineOutboxEntity, OutboxRelay, settleAndClaimSql, writeOutbox } from '../src/outbox';
import { InProcessBus, type BusMessage, type EventBus, type Subscription } from '../src/bus';
import { freshDatabase, requireBackends } from '../../test/support/env';
import { Migration } from '@mikro-orm/migrations';

const backends = await requireBackends(['postgres']);
const SCHEMA = 'outbox_test';
const silent = pino({ level: 'silent' });

const Outbox = defineOutboxEntity();
const Inbox = defineInboxEntity();
const Counter = defineEntity({ name: 'Counter', tableName: 'counter', properties: { id: p.string().primary(), n: p.integer() } });

/** The services' outbox table and indexes (their migrations), in `schema`. */
function outboxDdl(schema: string): string[] {
  return [
    `create table "${schema}".outbox (id uuid primary key, subject varchar(200) not null, payload bytea not null, created_at timestamptz not null,
      published_at timestamptz null, claimed_until timestamptz null, attempts int not null default 0,
      trace_context varchar(100) null default nullif(current_setting('vat.trace_context', true), ''))`,
    `create index outbox_created_at_index on "${schema}".outbox (created_at)`,
    `create index outbox_published_at_index on "${schema}".outbox (published_at)`,
    `create index outbox_unpublished_created_at_idx on "${schema}".outbox (created_at) where published_at is null`,
  ];
}

class Init extends Migration {
  override async up() {
    for (const sql of outboxDdl(SCHEMA)) this.addSql(sql);
    this.addSql(`create table "${SCHEMA}".processed_event (event_id varchar(100) primary key, consumer varchar(100) not null, processed_at timestamptz not null)`);
    this.addSql(`create table "${SCHEMA}".counter (id text primary key, n int not null)`);
  }
}

/** A bus that can be switched off (NATS down) or accept only some ids (a partly failed batch). */
class FlakyBus implements EventBus {
  up = true;
  refuse = new Set<string>();
  readonly inner = new InProcessBus();
  async publish(batch: BusMessage[]) {
    if (!this.up) throw new Error('NATS not connected');
    return this.inner.publish(batch.filter((m) => !this.refuse.has(m.id)));
  }
  subscribe = (s: Subscription) => this.inner.subscribe(s);
  open = () => this.inner.open();
  connected = () => this.up;
  close = async () => {};
}

/** A pool that counts the statements sent through it. */
function counting(pool: pg.Pool) {
  const c = { statements: 0, pool: Object.create(pool) as pg.Pool };
  c.pool.query = ((...args: Parameters<pg.Pool['query']>) => {
    c.statements++;
    return (pool.query as (...a: unknown[]) => unknown)(...args);
  }) as pg.Pool['query'];
  return c;
}

describe.skipIf(!backends.ok)('transactional outbox on PostgreSQL', () => {
  let orm: MikroORM;
  let pool: pg.Pool;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const db = await freshDatabase({ empty: true });
    drop = db.drop;
    orm = await createOrm({ clientUrl: db.url, schema: SCHEMA, entities: [Outbox, Inbox, Counter], migrations: [Init] });
    await migrate(orm, db.url, SCHEMA);
    pool = new pg.Pool({ connectionString: db.url, max: 4 });
  });
  afterAll(async () => {
    await pool?.end();
    await orm?.close();
    await drop?.();
  });

  /** Writes `n` events in outbox order. */
  async function write(n: number, schema = SCHEMA): Promise<string[]> {
    const ids = Array.from({ length: n }, () => randomUUID());
    await pool.query(
      `insert into "${schema}".outbox (id, subject, payload, created_at)
       select id, 'vat.test.v1.thing_happened', convert_to(id::text, 'UTF8'), now() + i * interval '1 microsecond' from unnest($1::uuid[]) with ordinality as t(id, i)`,
      [ids],
    );
    return ids;
  }

  /** A batch consumer in the documented pattern: one statement, inbox first, effect from fresh ids only. */
  function counter(name: string, seen: string[][] = []): Subscription {
    return {
      durable: name,
      subjects: ['vat.test.>'],
      handler: async (batch) => {
        seen.push(batch.map((m) => m.id));
        await pool.query(
          `with ${freshEvents(SCHEMA)} insert into "${SCHEMA}".counter (id, n) select $3, count(*) from fresh on conflict (id) do update set n = counter.n + excluded.n`,
          [batch.map((m) => m.id), name, name],
        );
      },
    };
  }

  /** An empty outbox, `bus` open with a counting consumer `name` (the batches it saw in `seen`), and a relay of `batchSize` through a counting pool. */
  async function countedRelay(bus: EventBus, name: string, batchSize: number) {
    await clear();
    const seen: string[][] = [];
    await bus.subscribe(counter(name, seen));
    bus.open();
    const c = counting(pool);
    return { seen, c, relay: new OutboxRelay(c.pool, SCHEMA, bus, silent, 1000, batchSize) };
  }

  const count = async (name: string) => ((await pool.query(`select n from "${SCHEMA}".counter where id = $1`, [name])).rows[0]?.n as number | undefined) ?? 0;
  const unpublished = async () => (await pool.query(`select count(*)::int as n from "${SCHEMA}".outbox where published_at is null`)).rows[0].n as number;
  const clear = () => pool.query(`update "${SCHEMA}".outbox set published_at = now() where published_at is null`);

  it('a payload reaches the bus byte for byte: written in one binary parameter cut in SQL, claimed as base64', async () => {
    await clear();
    const bus = new InProcessBus();
    const got = new Map<string, Uint8Array>();
    await bus.subscribe({ durable: 'bytes', subjects: ['vat.test.>'], handler: async (batch) => { for (const m of batch) got.set(m.id, m.data); } });
    bus.open();
    const relay = new OutboxRelay(pool, SCHEMA, bus, silent, 20);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 3000 }), { minLength: 1, maxLength: 12 }), async (payloads) => {
        const events = payloads.map((payload) => ({ id: randomUUID(), subject: 'vat.test.v1.bytes_written', payload }));
        const client = await pool.connect();
        try {
          await client.query('begin');
          await writeOutbox(client, SCHEMA, events, new Date());
          await client.query('commit');
        } finally {
          client.release();
        }
        const stored = new Map(((await pool.query(`select id::text as id, payload from "${SCHEMA}".outbox where id = any($1::uuid[])`, [events.map((e) => e.id)])).rows as { id: string; payload: Buffer }[]).map((r) => [r.id, r.payload]));
        expect(await relay.drain()).toBe(events.length);
        for (const e of events) {
          expect(Buffer.compare(stored.get(e.id)!, Buffer.from(e.payload))).toBe(0);
          expect(Buffer.compare(Buffer.from(got.get(e.id)!), Buffer.from(e.payload))).toBe(0);
        }
      }),
      { numRuns: 30 },
    );
  });

  it('publishes every event once, also across a bus outage, and the consumer applies each once', async () => {
    const bus = new FlakyBus();
    const seen: string[][] = [];
    await bus.subscribe(counter('outage', seen));
    bus.open();
    const relay = new OutboxRelay(pool, SCHEMA, bus, silent, 20);
    /** Count of events still waiting for the bus. */
    const backlog = async () => (await pool.query<{ n: number }>(`select count(*)::int as n from "${SCHEMA}".outbox where published_at is null`)).rows[0]?.n ?? 0;
    const first = await write(10);
    expect(await relay.drain()).toBe(10);
    bus.up = false;
    const during = await write(15);
    expect(await relay.drain()).toBe(0);
    expect(await backlog()).toBe(15);
    bus.up = true;
    relay.start();
    const deadline = Date.now() + 10_000;
    while ((await backlog()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await relay.stop();
    expect(await backlog()).toBe(0);
    expect(new Set(seen.flat())).toEqual(new Set([...first, ...during]));
    expect(seen.length).toBeLessThan(25);
    expect(await count('outage')).toBe(25);
  });

  it('claims and marks in batches: one statement per batch, the mark riding on the next claim', async () => {
    const { seen, c, relay } = await countedRelay(new InProcessBus(), 'batches', 200);
    const ids = await write(450);
    expect(await relay.drain()).toBe(450);
    // claim 200 | mark 200 + claim 200 | mark 200 + claim 50 | mark 50 + claim none
    expect(c.statements).toBe(4);
    expect(seen.map((b) => b.length)).toEqual([200, 200, 50]);
    expect(seen.flat()).toEqual(ids);
    expect(await unpublished()).toBe(0);
    expect(await count('batches')).toBe(450);
  });

  it('the claim walks the index of unpublished rows in order, past the entries of published rows, not through all of them each time', async () => {
    // A new outbox with no statistics yet (as before autovacuum's first analyze): the planner would take a bitmap scan.
    const walk = 'outbox_walk';
    await pool.query(`create schema "${walk}"`);
    for (const sql of outboxDdl(walk)) await pool.query(sql);
    await pool.query(`alter table "${walk}".outbox set (autovacuum_enabled = false)`);
    const bus = new InProcessBus();
    await bus.subscribe(counter('walk'));
    bus.open();
    const relay = new OutboxRelay(pool, walk, bus, silent, 1000, 200);
    // 30,000 events published: their entries stay in the partial index until a vacuum or a scan marks them dead.
    await write(30_000, walk);
    await pool.query(`update "${walk}".outbox set published_at = now()`);
    await write(60, walk);
    expect(await relay.drain()).toBe(60);
    // A claim that finds nothing passes the published rows' entries once (and marks them dead) ...
    expect(await relay.drain()).toBe(0);
    const waiting = await write(3, walk);
    type PlanNode = { 'Node Type': string; 'Index Name'?: string; 'Relation Name'?: string; 'Shared Hit Blocks'?: number; 'Shared Read Blocks'?: number; Plans?: PlanNode[] };
    const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];
    /** The claim's plan, run (EXPLAIN ANALYZE) and rolled back. */
    const explainClaim = async (): Promise<PlanNode[]> => {
      const client = await pool.connect();
      try {
        await client.query('begin');
        await client.query(CLAIM_SETTINGS);
        const { rows } = await client.query(`explain (analyze, buffers, format json) ${settleAndClaimSql(walk, [], [], 200)}`);
        await client.query('rollback');
        return nodes((rows[0]['QUERY PLAN'] as { Plan: PlanNode }[])[0]!.Plan);
      } finally {
        client.release();
      }
    };
    const pages = (n: PlanNode) => (n['Shared Hit Blocks'] ?? 0) + (n['Shared Read Blocks'] ?? 0);
    let plan = await explainClaim();
    // An index scan marks an entry dead only once its row is dead to every transaction of the database: while an older
    // snapshot lives (here an autovacuum worker's ANALYZE of another table can hold one for a moment), the walk reads
    // every published row again, about 650 page accesses. So the claim is explained again (its walk marks the entries too) until no such snapshot is left
    // (bounded); a bitmap scan marks nothing dead and would read about 550 pages every time.
    for (let attempt = 0; attempt < 40 && pages(plan.find((n) => n['Node Type'] === 'LockRows')!) >= 150; attempt++) {
      await new Promise((r) => setTimeout(r, 250));
      plan = await explainClaim();
    }
    expect(plan.map((n) => n['Node Type'])).not.toContain('Bitmap Heap Scan');
    // The rows are locked as the partial index of unpublished rows yields them in order: no sort before the limit.
    const claim = plan.find((n) => n['Node Type'] === 'LockRows')!;
    expect(claim.Plans?.map((n) => [n['Node Type'], n['Index Name']])).toEqual([['Index Scan', 'outbox_unpublished_created_at_idx']]);
    // ... so the next claim's scan reads the index's leaf pages (about 85 for 30,000 entries, until a vacuum removes the
    // dead ones) and the 3 waiting rows, not the published rows' heap pages again.
    expect(pages(claim)).toBeLessThan(150);
    expect(await relay.drain()).toBe(3);
    expect(await count('walk')).toBe(63);
    expect(waiting).toHaveLength(3);
    await pool.query(`drop schema "${walk}" cascade`);
  });

  it('a relay running before the bus is open leaves the events in the outbox; they are delivered once it opens', async () => {
    await clear();
    const bus = new InProcessBus();
    const relay = new OutboxRelay(pool, SCHEMA, bus, silent, 1000);
    const ids = await write(5);
    expect(await relay.drain()).toBe(0);
    expect(await unpublished()).toBe(5);
    const seen: string[][] = [];
    await bus.subscribe(counter('early', seen));
    bus.open();
    expect(await relay.drain()).toBe(5);
    expect(seen).toEqual([ids]);
    expect(await count('early')).toBe(5);
  });

  it('marks only what the bus accepted; the rest is published on the next drain', async () => {
    await clear();
    const bus = new FlakyBus();
    await bus.subscribe(counter('partial'));
    bus.open();
    const relay = new OutboxRelay(pool, SCHEMA, bus, silent, 1000);
    const ids = await write(6);
    bus.refuse = new Set([ids[2]!, ids[4]!]);
    expect(await relay.drain()).toBe(4);
    const { rows } = await pool.query(`select id from "${SCHEMA}".outbox where published_at is null and claimed_until is null order by created_at`);
    expect(rows.map((r) => r.id)).toEqual([ids[2], ids[4]]);
    bus.refuse.clear();
    expect(await relay.drain()).toBe(2);
    expect(await count('partial')).toBe(6);
  });

  it('flush() resolves once what the outbox held was handed to the bus (in process: applied), also while a drain runs', async () => {
    await clear();
    const bus = new InProcessBus();
    await bus.subscribe(counter('flush'));
    bus.open();
    const relay = new OutboxRelay(pool, SCHEMA, bus, silent, 60_000);
    await relay.flush(); // not started: nothing to wait for
    relay.start();
    // The production cap (2 s) is a courtesy wait; a loaded test machine gets the time it needs.
    await relay.flush(30_000);
    await write(3);
    await relay.flush(30_000);
    expect(await count('flush')).toBe(3);
    relay.kick(); // a pass already running when the next write commits
    await write(2);
    await relay.flush(30_000);
    expect(await count('flush')).toBe(5);
    await relay.stop();
    await write(1);
    await relay.flush(); // stopped: returns at once, the event waits in the outbox
    expect(await unpublished()).toBe(1);
  });

  it("a sole relay takes back a killed predecessor's claims at start instead of waiting out their 30 s lease", async () => {
    await clear();
    const bus = new InProcessBus();
    await bus.subscribe(counter('takeover'));
    bus.open();
    const ids = await write(7);
    // The predecessor claimed 5 of them (lease 30 s) and died before publishing.
    await pool.query(`update "${SCHEMA}".outbox set claimed_until = now() + interval '30 seconds', attempts = 1 where id = any($1::uuid[])`, [ids.slice(0, 5)]);
    const relay = new OutboxRelay(pool, SCHEMA, bus, silent, 1000);
    expect(await relay.drain()).toBe(2); // a relay that is not alone leaves live claims alone
    expect(await unpublished()).toBe(5);
    expect(await relay.takeSole()).toBe(5);
    expect(await relay.drain()).toBe(5);
    expect(await unpublished()).toBe(0);
    expect(await count('takeover')).toBe(7);
  });

  it('a sole relay reads rows without claiming them: each event published once, one update each (the mark), the bus\'s refusals left for the next drain', async () => {
    const bus = new FlakyBus();
    const { seen, c, relay } = await countedRelay(bus, 'sole', 4);
    expect(await relay.takeSole()).toBe(0);
    const ids = await write(10);
    bus.refuse = new Set(ids.slice(2, 3));
    c.statements = 0;
    // Batches of 4: the third event is refused; the drain stops after that batch (its mark rides on one more statement).
    expect(await relay.drain()).toBe(3);
    expect(c.statements).toBe(2);
    bus.refuse = new Set();
    expect(await relay.drain()).toBe(7);
    expect(await unpublished()).toBe(0);
    expect(new Set(seen.flat())).toEqual(new Set(ids));
    expect(await count('sole')).toBe(10);
    // Nothing was claimed: no lease was ever written, and no attempt counted.
    const rows = (await pool.query(`select count(*)::int as n from "${SCHEMA}".outbox where id = any($1::uuid[]) and (claimed_until is not null or attempts <> 0)`, [ids])).rows[0].n;
    expect(rows).toBe(0);
  });

  it('deletes published rows past the retention in bounded statements, never an unpublished or a younger one', async () => {
    await clear();
    const bus = new InProcessBus();
    await bus.subscribe(counter('retention'));
    bus.open();
    const keepMs = 7 * 24 * 3600_000;
    const relay = new OutboxRelay(pool, SCHEMA, bus, silent, 1000, 200, { keepMs, everyMs: 60_000, batch: 2 });
    const published = await write(5);
    expect(await relay.drain()).toBe(5);
    const waiting = await write(2);
    const now = Date.now();
    // Four published 8 days ago (past 7 days), one an hour ago; the two unpublished rows are as old.
    await pool.query(`update "${SCHEMA}".outbox set published_at = $2 where id = any($1::uuid[])`, [published.slice(0, 4), new Date(now - 8 * 24 * 3600_000)]);
    await pool.query(`update "${SCHEMA}".outbox set published_at = $2 where id = $1`, [published[4], new Date(now - 3600_000)]);
    await pool.query(`update "${SCHEMA}".outbox set created_at = $2 where id = any($1::uuid[])`, [waiting, new Date(now - 30 * 24 * 3600_000)]);
    const c = counting(pool);
    const pruning = new OutboxRelay(c.pool, SCHEMA, bus, silent, 1000, 200, { keepMs, everyMs: 60_000, batch: 2 });
    expect(await pruning.prunePublished(now)).toBe(4);
    expect(c.statements).toBe(3); // 2 + 2 + 0: a full batch asks again, a short one ends
    const { rows } = await pool.query<{ id: string }>(`select id from "${SCHEMA}".outbox where id = any($1::uuid[])`, [[...published, ...waiting]]);
    expect(rows.map((r) => r.id).sort()).toEqual([published[4], ...waiting].sort());
    expect(await relay.drain()).toBe(2);
    expect(await count('retention')).toBe(7);
  });

  it('the inbox gives an id repeated inside a batch or redelivered in a later batch no second effect', async () => {
    const sub = counter('redelivery');
    const m = (id: string): BusMessage => ({ id, subject: 'vat.test.v1.thing_happened', data: new Uint8Array() });
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    await sub.handler([m(a), m(b), m(a)]);
    expect(await count('redelivery')).toBe(2);
    await sub.handler([m(b), m(c), m(a)]);
    expect(await count('redelivery')).toBe(3);
    await sub.handler([m(c)]);
    expect(await count('redelivery')).toBe(3);
  });

  it('two replicas migrating at once apply each migration exactly once (advisory lock)', async () => {
    const db = await freshDatabase({ empty: true });
    try {
      const orms = await Promise.all([0, 1, 2].map(() => createOrm({ clientUrl: db.url, schema: SCHEMA, entities: [Outbox, Inbox, Counter], migrations: [Init] })));
      const applied = await Promise.all(orms.map((o) => migrate(o, db.url, SCHEMA)));
      expect(applied.flat()).toEqual(['Init']);
      await Promise.all(orms.map((o) => o.close()));
    } finally {
      await db.drop();
    }
  });
});
