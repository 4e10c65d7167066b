import type pg from 'pg';
import { activeTraceparent } from './tracing';

/**
 * The setting an outbox row's `trace_context` column takes its default from
 * (`nullif(current_setting('vat.trace_context', true), '')`, see `defineOutboxEntity`).
 */
export const TRACE_CONTEXT_SETTING = 'vat.trace_context';

/** An insert into any service's outbox table, whatever CTE it sits in. */
const OUTBOX_INSERT = /insert\s+into\s+"?[a-z_-]+"?\.outbox\b/i;
const SET_SQL = `select set_config('${TRACE_CONTEXT_SETTING}', $1, false)`;

type Query = (...args: unknown[]) => unknown;

/**
 * With tracing on, every statement that inserts outbox rows is preceded, on the same connection, by
 * setting `vat.trace_context` to the active span's `traceparent` ('' outside a traced request), so
 * the rows store the request that wrote them without any repository knowing about tracing. pg runs
 * a connection's queries in order, so the setting is in place when the insert runs, in or out of a
 * transaction. Costs one round trip per outbox write while tracing is on, nothing while it is off
 * (this is never installed).
 */
export function traceOutboxRows(Client: typeof pg.Client): void {
  const proto = Client.prototype as unknown as { query: Query & { __vatOutboxTrace?: true } };
  if (proto.query.__vatOutboxTrace) return;
  const original = proto.query;
  const wrapped = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : (first as { text?: unknown } | undefined)?.text;
    if (typeof text === 'string' && OUTBOX_INSERT.test(text)) {
      // Errors surface on the insert that follows (same connection); this promise must not reject unhandled.
      (original.call(this, SET_SQL, [activeTraceparent() ?? '']) as Promise<unknown>).catch(() => undefined);
    }
    return original.apply(this, args);
  } as Query & { __vatOutboxTrace?: true };
  wrapped.__vatOutboxTrace = true;
  proto.query = wrapped;
}
