import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { defineEntity, p, type MikroORM } from '@mikro-orm/postgresql';
import { createOrm, migrate } from '../src/db';
import { consumeOnce, defineInboxEntity, defineOutboxEntity, enqueueEvent, OutboxRelay } from '../src/outbox';
import { InProcessBus, type BusMessage, type EventBus } from '../src/bus';
import { freshDatabase, requireBackends } from '../../test/support/env';
import { Migration } from '@mikro-orm/migrations';

const backends = await requireBackends(['postgres']);
const SCHEMA = 'outbox_test';

const Outbox = defineOutboxEntity();
const Inbox = defineInboxEntity();
const Counter = defineEntity({ name: 'Counter', tableName: 'counter', properties: { id: p.string().primary(), n: p.integer() } });

class Init extends Migration {
  override async up() {
    this.addSql(`create table "${SCHEMA}".outbox (id uuid primary key, subject varchar(200) not null, payload bytea not null, created_at timestamptz not null,
      published_at timestamptz null, claimed_until timestamptz null, attempts int not null default 0)`);
    this.addSql(`create table "${SCHEMA}".processed_event (event_id varchar(100) primary key, consumer varchar(100) not null, processed_at timestamptz not null)`);
    this.addSql(`create table "${SCHEMA}".counter (id text primary key, n int not null)`);
    this.addSql(`insert into "${SCHEMA}".counter values ('c', 0)`);
  }
}

/** A bus that can be switched off, like NATS going down. */
class FlakyBus implements EventBus {
  up = true;
  readonly inner = new InProcessBus();
  async publish(m: BusMessage) {
    if (!this.up) throw new Error('NATS not connected');
    return this.inner.publish(m);
  }
  subscribe = (s: Parameters<EventBus['subscribe']>[0]) => this.inner.subscribe(s);
  connected = () => this.up;
  close = async () => {};
}

describe.skipIf(!backends.ok)('transactional outbox on PostgreSQL', () => {
  let orm: MikroORM;
  let drop: () => Promise<void>;
  let url: string;
  beforeAll(async () => {
    const db = await freshDatabase({ empty: true });
    drop = db.drop;
    url = db.url;
    orm = await createOrm({ clientUrl: url, schema: SCHEMA, entities: [Outbox, Inbox, Counter], migrations: [Init] });
    await migrate(orm, url, SCHEMA);
  });
  afterAll(async () => {
    await orm?.close();
    await drop?.();
  });

  async function write(n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const em = orm.em.fork();
      const id = randomUUID();
      enqueueEvent(em, Outbox, { id, subject: 'vat.test.v1.thing_happened', payload: new TextEncoder().encode(id) });
      await em.flush();
      ids.push(id);
    }
    return ids;
  }

  it('publishes every event once, also across a bus outage, and consumers apply each once', async () => {
    const bus = new FlakyBus();
    const delivered: string[] = [];
    await bus.subscribe({
      durable: 'counter',
      subjects: ['vat.test.>'],
      handler: async (m) => {
        delivered.push(m.id);
        await consumeOnce(orm, SCHEMA, 'counter', m.id, async (em) => {
          await em.getConnection().execute(`update "${SCHEMA}".counter set n = n + 1`, [], 'run', em.getTransactionContext());
        });
      },
    });
    const relay = new OutboxRelay(orm, SCHEMA, bus, pino({ level: 'silent' }), 20);
    const first = await write(10);
    expect(await relay.drainOnce()).toBe(10);
    bus.up = false;
    const during = await write(15);
    expect(await relay.drainOnce()).toBe(0);
    expect(await relay.backlog()).toBe(15);
    bus.up = true;
    relay.start();
    const deadline = Date.now() + 10_000;
    while ((await relay.backlog()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await relay.stop();
    expect(await relay.backlog()).toBe(0);
    expect(new Set(delivered)).toEqual(new Set([...first, ...during]));
    const [row] = (await orm.em.fork().getConnection().execute(`select n from "${SCHEMA}".counter`)) as { n: number }[];
    expect(row!.n).toBe(25);
  });

  it('a redelivered event has no second effect (inbox)', async () => {
    const id = randomUUID();
    const bump = async () =>
      consumeOnce(orm, SCHEMA, 'counter', id, async (em) => {
        await em.getConnection().execute(`update "${SCHEMA}".counter set n = n + 1`, [], 'run', em.getTransactionContext());
      });
    const before = ((await orm.em.fork().getConnection().execute(`select n from "${SCHEMA}".counter`)) as { n: number }[])[0]!.n;
    expect(await bump()).toBe(true);
    expect(await bump()).toBe(false);
    const after = ((await orm.em.fork().getConnection().execute(`select n from "${SCHEMA}".counter`)) as { n: number }[])[0]!.n;
    expect(after).toBe(before + 1);
  });

  it('a failing effect leaves no inbox row, so the redelivery applies it', async () => {
    const id = randomUUID();
    await expect(consumeOnce(orm, SCHEMA, 'counter', id, async () => { throw new Error('effect failed'); })).rejects.toThrow('effect failed');
    expect(await consumeOnce(orm, SCHEMA, 'counter', id, async () => {})).toBe(true);
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
