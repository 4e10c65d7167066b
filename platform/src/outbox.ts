import { defineEntity, p, type EntityManager, type MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { EventBus } from './bus';

/** A fresh outbox entity definition for one service's ORM (entity metadata is per ORM). */
export function defineOutboxEntity() {
  return defineEntity({
    name: 'OutboxMessage',
    tableName: 'outbox',
    properties: {
      id: p.uuid().primary(),
      subject: p.string().length(200),
      payload: p.blob(),
      createdAt: p.datetime().onCreate(() => new Date()).index(),
      publishedAt: p.datetime().nullable().index(),
      claimedUntil: p.datetime().nullable(),
      attempts: p.integer().default(0),
    },
  });
}

/** A fresh inbox entity: consumed event ids, so a redelivered event has its effect once. */
export function defineInboxEntity() {
  return defineEntity({
    name: 'ProcessedEvent',
    tableName: 'processed_event',
    properties: {
      eventId: p.string().length(100).primary(),
      consumer: p.string().length(100),
      processedAt: p.datetime().onCreate(() => new Date()),
    },
  });
}

/** Adds an event to the outbox inside the caller's unit of work; it commits with the state change. */
export function enqueueEvent(em: EntityManager, outbox: ReturnType<typeof defineOutboxEntity>, event: { id: string; subject: string; payload: Uint8Array }): void {
  em.create(outbox, { id: event.id, subject: event.subject, payload: Buffer.from(event.payload), attempts: 0, createdAt: new Date() });
}

/**
 * Runs `effect` once per event id: the inbox insert and the effect share one transaction, so a
 * redelivered event is skipped and a failed effect leaves no trace.
 */
export async function consumeOnce(orm: MikroORM, schema: string, consumer: string, eventId: string, effect: (em: EntityManager) => Promise<void>): Promise<boolean> {
  return orm.em.fork().transactional(async (em) => {
    const rows = await em.getConnection().execute(
      `insert into "${schema}".processed_event (event_id, consumer, processed_at) values (?, ?, now()) on conflict do nothing returning event_id`,
      [eventId, consumer],
      'all',
      em.getTransactionContext(),
    );
    if (rows.length === 0) return false;
    await effect(em);
    return true;
  });
}

/**
 * Publishes outbox rows to the bus. Rows are claimed in one short statement (no transaction is
 * held while publishing); a row is marked published only after the bus acknowledged it.
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private again = false;
  private stopped = false;

  constructor(
    private readonly orm: MikroORM,
    private readonly schema: string,
    private readonly bus: EventBus,
    private readonly log: Logger,
    private readonly pollMs: number,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    while (this.running) await new Promise((r) => setTimeout(r, 10));
  }

  /** Asks for an immediate drain (after a commit that wrote events). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), 0);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), this.pollMs);
  }

  private async tick(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = true;
    try {
      do {
        this.again = false;
        while ((await this.drainOnce()) > 0 && !this.stopped);
      } while (this.again && !this.stopped);
    } catch (err) {
      this.log.warn({ err: (err as Error).message, schema: this.schema }, 'outbox relay: will retry');
    } finally {
      this.running = false;
      this.schedule();
    }
  }

  /** Publishes one batch; returns how many rows were published. */
  async drainOnce(batch = 200): Promise<number> {
    if (!this.bus.connected()) return 0;
    const conn = this.orm.em.getConnection();
    const t = `"${this.schema}".outbox`;
    // Ordered in SQL: the ORM's connection returns timestamps as strings, not Dates.
    const rows = (await conn.execute(
      `with claimed as (
         update ${t} set claimed_until = now() + interval '30 seconds', attempts = attempts + 1
         where id in (select id from ${t} where published_at is null and (claimed_until is null or claimed_until < now())
                      order by created_at limit ? for update skip locked)
         returning id, subject, payload, created_at)
       select id, subject, payload from claimed order by created_at, id`,
      [batch],
    )) as { id: string; subject: string; payload: Buffer }[];
    const published: string[] = [];
    let failed = false;
    for (const r of rows) {
      try {
        await this.bus.publish({ id: r.id, subject: r.subject, data: new Uint8Array(r.payload) });
        published.push(r.id);
      } catch (err) {
        failed = true;
        this.log.warn({ err: (err as Error).message, schema: this.schema }, 'outbox relay: publish failed');
        break;
      }
    }
    if (published.length) await conn.execute(`update ${t} set published_at = now(), claimed_until = null where id = any(?::uuid[])`, [`{${published.join(',')}}`]);
    const unpublished = rows.map((r) => r.id).filter((id) => !published.includes(id));
    if (unpublished.length) await conn.execute(`update ${t} set claimed_until = null where id = any(?::uuid[])`, [`{${unpublished.join(',')}}`]);
    return failed ? 0 : published.length;
  }

  /** Count of events still waiting for the bus. */
  async backlog(): Promise<number> {
    const rows = (await this.orm.em.getConnection().execute(`select count(*)::int as n from "${this.schema}".outbox where published_at is null`)) as { n: number }[];
    return rows[0]?.n ?? 0;
  }
}
