import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Link, type Span } from '@opentelemetry/api';
import type { BusMessage } from './bus';

/**
 * The event path's tracing, by hand (there is no NATS instrumentation for JavaScript), on the
 * OpenTelemetry API only: with no SDK started (the default) every call here is a no-op and nothing
 * is stored or sent. `platform/src/telemetry.ts` starts the SDK from the standard OTEL_* variables.
 */
export const tracer = trace.getTracer('vat-service');

let enabled = false;

/** Set once by `startTracing`: the event path stores and sends trace context only while it is on. */
export function setTracingEnabled(on: boolean): void {
  enabled = on;
}

export function tracingEnabled(): boolean {
  return enabled;
}

/** The active span's W3C `traceparent`, or undefined outside a traced request (or with tracing off). */
export function activeTraceparent(ctx: Context = context.active()): string | undefined {
  if (!enabled) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier.traceparent;
}

/** The remote context a stored or received `traceparent` names (root context when there is none). */
export function contextOf(traceparent: string | undefined | null): Context {
  if (!traceparent) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, { traceparent });
}

/** Ends `span` with the outcome of `work` (an error is recorded and rethrown). */
export async function inSpan<T>(span: Span, ctx: Context, work: () => Promise<T>): Promise<T> {
  try {
    return await context.with(ctx, work);
  } catch (err) {
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
    throw err;
  } finally {
    span.end();
  }
}

/**
 * Gives each message of a relay batch its own PRODUCER span, a child of the request that wrote the
 * outbox row, and replaces the message's trace context with that span's: the consumer then links to
 * (and, for a batch of one trace, continues) the producing request. Spans end when `publish` settles.
 */
export async function withPublishSpans<T>(service: string, batch: BusMessage[], publish: (batch: BusMessage[]) => Promise<T>): Promise<T> {
  if (!enabled) return publish(batch);
  const spans: Span[] = [];
  const traced = batch.map((m) => {
    if (!m.traceContext) return m;
    const span = tracer.startSpan(`publish ${m.subject}`, {
      kind: SpanKind.PRODUCER,
      attributes: { 'messaging.system': 'nats', 'messaging.destination.name': m.subject, 'messaging.message.id': m.id, 'messaging.operation.type': 'send', 'vat.outbox.service': service },
    }, contextOf(m.traceContext));
    spans.push(span);
    return { ...m, traceContext: activeTraceparent(trace.setSpan(ROOT_CONTEXT, span)) };
  });
  try {
    return await publish(traced);
  } catch (err) {
    for (const s of spans) s.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
    throw err;
  } finally {
    for (const s of spans) s.end();
  }
}

/**
 * Runs a consumer's batch handler in a CONSUMER span that links to every producing message. When
 * every message of the batch comes from one trace (one request, however many events), the span is
 * also that trace's child, so the request's trace shows the consumers; otherwise it starts its own.
 */
export async function withConsumeSpan<T>(durable: string, batch: BusMessage[], handle: () => Promise<T>): Promise<T> {
  if (!enabled) return handle();
  const links: Link[] = [];
  const traces = new Set<string>();
  for (const m of batch) {
    const sc = trace.getSpanContext(contextOf(m.traceContext));
    if (!sc) continue;
    links.push({ context: sc });
    traces.add(sc.traceId);
  }
  const parent = traces.size === 1 && links.length === batch.length ? contextOf(batch[0]!.traceContext) : ROOT_CONTEXT;
  const subjects = [...new Set(batch.map((m) => m.subject))];
  const span = tracer.startSpan(`process ${durable}`, {
    kind: SpanKind.CONSUMER,
    links,
    attributes: { 'messaging.system': 'nats', 'messaging.consumer.group.name': durable, 'messaging.batch.message_count': batch.length, 'messaging.destination.name': subjects.length === 1 ? subjects[0]! : subjects.join(','), 'messaging.operation.type': 'process' },
  }, parent);
  return inSpan(span, trace.setSpan(parent, span), handle);
}
