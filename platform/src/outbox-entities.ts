import { defineEntity, p } from '@mikro-orm/postgresql';
import { TRACE_CONTEXT_SETTING } from './outbox-trace';

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
      // The W3C traceparent of the request that wrote the row (tracing on; see outbox-trace.ts), so the
      // consumers' spans link to it. Taken from a session setting: no repository writes it.
      traceContext: p.string().length(100).nullable().defaultRaw(`nullif(current_setting('${TRACE_CONTEXT_SETTING}', true), '')`),
    },
    // The relay's claim reads only unpublished rows in creation order: a partial index keeps it one
    // short index scan however many published rows the table holds.
    indexes: [{ name: 'outbox_unpublished_created_at_idx', properties: ['createdAt'], where: 'published_at is null' }],
  });
}

/**
 * A fresh inbox entity: event ids each consumer has applied, so a redelivered event has its effect
 * once per consumer (two consumers of one service each apply the same event).
 */
export function defineInboxEntity() {
  return defineEntity({
    name: 'ProcessedEvent',
    tableName: 'processed_event',
    properties: {
      consumer: p.string().length(100).primary(),
      eventId: p.string().length(100).primary(),
      processedAt: p.datetime().onCreate(() => new Date()),
    },
  });
}
