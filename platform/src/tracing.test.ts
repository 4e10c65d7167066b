import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessBus, type BusMessage } from './bus';
import { startTracing, stopTracing } from './telemetry';
import { activeTraceparent, tracer, withPublishSpans } from './tracing';

const exporter = new InMemorySpanExporter();
const processor = new SimpleSpanProcessor({ exporter });

/** Ended spans, once the processor has handed them all to the exporter. */
async function finished() {
  await processor.forceFlush();
  return exporter.getFinishedSpans();
}

/** A request span that wrote an outbox row: the row's trace context is its traceparent. */
function requestWritingEvent(id: string): { message: BusMessage; traceId: string; spanId: string } {
  return tracer.startActiveSpan(`request ${id}`, (span) => {
    const message = { id, subject: 'vat.ledger.v1.supply_committed', data: new Uint8Array([1]), traceContext: activeTraceparent() };
    span.end();
    return { message, traceId: span.spanContext().traceId, spanId: span.spanContext().spanId };
  });
}

/** The in-process bus (`npm start`) links consumers to the producing request as JetStream does. */
describe('event tracing on the in-process bus', () => {
  const received: BusMessage[][] = [];
  const bus = new InProcessBus();

  beforeAll(async () => {
    startTracing('vat-bus-test', [processor]);
    await bus.subscribe({ durable: 'reports-projection', subjects: ['vat.ledger.>'], handler: async (b) => void received.push(b) });
    bus.open();
  });
  afterAll(async () => stopTracing());

  it('makes the consumer span a child of the relay publish, itself a child of the request, with links', async () => {
    exporter.reset();
    const { message, traceId, spanId } = requestWritingEvent('e-1');
    // As the outbox relay does it: outside any request, from the stored trace context.
    await withPublishSpans('ledger', [message], (b) => bus.publish(b));
    const spans = await finished();
    const publish = spans.find((s) => s.kind === SpanKind.PRODUCER)!;
    const consume = spans.find((s) => s.kind === SpanKind.CONSUMER)!;
    expect(publish.parentSpanContext).toMatchObject({ traceId, spanId });
    expect(consume.name).toBe('process reports-projection');
    expect(consume.spanContext().traceId).toBe(traceId);
    expect(consume.parentSpanContext?.spanId).toBe(publish.spanContext().spanId);
    expect(consume.links.map((l) => l.context.spanId)).toEqual([publish.spanContext().spanId]);
    // The consumer received the publish span's context, not the request's.
    expect(received.at(-1)![0]!.traceContext).toBe(`00-${traceId}-${publish.spanContext().spanId}-01`);
  });

  it('starts its own trace for a batch from several requests, linking every one', async () => {
    exporter.reset();
    const a = requestWritingEvent('e-2');
    const b = requestWritingEvent('e-3');
    await bus.publish([a.message, b.message]);
    const consume = (await finished()).find((s) => s.kind === SpanKind.CONSUMER)!;
    expect(consume.parentSpanContext).toBeUndefined();
    expect(consume.spanContext().traceId).not.toBe(a.traceId);
    expect(consume.links.map((l) => l.context.spanId).sort()).toEqual([a.spanId, b.spanId].sort());
    expect(consume.attributes['messaging.batch.message_count']).toBe(2);
  });

  it('records a failing consumer on its span and still redelivers (the publish rejects)', async () => {
    const failing = new InProcessBus();
    await failing.subscribe({ durable: 'broken', subjects: ['vat.>'], handler: async () => { throw new Error('boom'); } });
    failing.open();
    exporter.reset();
    const { message } = requestWritingEvent('e-4');
    await expect(failing.publish([message])).rejects.toThrow('boom');
    const consume = (await finished()).find((s) => s.kind === SpanKind.CONSUMER)!;
    expect(consume.status.code).toBe(2);
    expect(consume.events.some((e) => e.name === 'exception')).toBe(true);
  });
});
