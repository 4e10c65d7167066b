import { connect } from '@nats-io/transport-node';
import { headers as natsHeaders, nanos, type NatsConnection } from '@nats-io/nats-core';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type JetStreamClient, type JsMsg } from '@nats-io/jetstream';
import type { Logger } from 'pino';
import { inBatches } from './batches';
import { assertNoOpenTransaction } from './transaction';
import { OpenGate, type BusMessage, type EventBus, type Subscription } from './bus';
import { consumerErrors, eventDeliveries, eventRedeliveries } from './metrics';
import { withConsumeSpan } from './tracing';

/** The W3C trace context header a traced event carries (see platform/src/tracing.ts). */
const TRACEPARENT = 'traceparent';

function traceHeaders(msg: BusMessage) {
  if (!msg.traceContext) return {};
  const h = natsHeaders();
  h.set(TRACEPARENT, msg.traceContext);
  return { headers: h };
}

const STREAM_NAME = 'VAT';
const STREAM_SUBJECTS = ['vat.>'];
/** Most messages one consumer batch holds (and how many a pull asks for at a time). */
export const MAX_BATCH = 256;

/** Creates the stream unless it exists. */
async function ensureStream(nc: NatsConnection): Promise<void> {
  const jsm = await jetstreamManager(nc);
  try {
    await jsm.streams.info(STREAM_NAME);
  } catch {
    await jsm.streams.add({ name: STREAM_NAME, subjects: STREAM_SUBJECTS, duplicate_window: nanos(120_000) });
  }
}

/** The durable that carries one `subject` of a several-subject subscription on a server without `filter_subjects`. */
export function durableOfSubject(durable: string, subject: string): string {
  // Durable names take no '.', '*', '>' or whitespace.
  return `${durable}--${subject.replace(/[.*>\s]/g, '_')}`;
}

/** A publish no stream took (JetStream answers a subject without a stream with "no responders"). */
const isNoStream = (err: unknown) => /no responders/i.test(String((err as Error)?.message ?? err));

/**
 * JetStream bus. Connects in the background and keeps reconnecting forever, so the API keeps
 * serving while NATS is down; the outbox holds events until publish succeeds again.
 */
export class JetStreamBus implements EventBus {
  private nc: NatsConnection | undefined;
  private js: JetStreamClient | undefined;
  private closed = false;
  private readonly pending: Subscription[] = [];
  private readonly gate = new OpenGate();
  private readonly ready: Promise<void>;

  constructor(private readonly servers: string, private readonly name: string, private readonly log: Logger) {
    this.ready = this.connectLoop();
    this.ready.catch(() => undefined);
  }

  private async connectLoop(): Promise<void> {
    while (!this.closed) {
      try {
        // noAsyncTraces: nats.js otherwise builds a RequestError and a TimeoutError (two stack captures)
        // for every publish to keep the caller's stack; measured at 8 % of the ledger's CPU in bulk ingest.
        const nc = await connect({ servers: this.servers, name: this.name, reconnect: true, maxReconnectAttempts: -1, reconnectTimeWait: 500, timeout: 2000, noAsyncTraces: true });
        await ensureStream(nc);
        this.nc = nc;
        this.js = jetstream(nc);
        this.watchStatus();
        this.log.info({ servers: this.servers }, 'connected to NATS JetStream');
        for (const sub of this.pending.splice(0)) await this.startConsumer(sub);
        return;
      } catch (err) {
        this.log.warn({ err: (err as Error).message }, 'NATS not reachable; retrying');
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }

  connected(): boolean {
    return !!this.nc && !this.nc.isClosed() && this.nc.info !== undefined && !this.reconnecting;
  }

  private reconnecting = false;

  /**
   * Pipelines the batch on the one connection; a failed message stays in the outbox for the next attempt. A
   * batch that found no stream (deleted, or a NATS server that lost its store) creates it and is sent again.
   */
  async publish(batch: BusMessage[]): Promise<string[]> {
    assertNoOpenTransaction('publishing to the event bus');
    this.gate.beforePublish();
    const nc = this.nc;
    if (!this.js || !nc) throw new Error('NATS not connected');
    try {
      return await this.publishOnce(batch);
    } catch (err) {
      if (!isNoStream(err)) throw err;
      this.log.warn({ stream: STREAM_NAME }, 'JetStream stream missing: creating it again');
      await ensureStream(nc);
      return this.publishOnce(batch);
    }
  }

  private async publishOnce(batch: BusMessage[]): Promise<string[]> {
    const js = this.js!;
    const results = await Promise.allSettled(
      // msgID is sent as the Nats-Msg-Id header: JetStream drops a repeat inside the duplicate window.
      batch.map((msg) => js.publish(msg.subject, msg.data, { msgID: msg.id, timeout: 2000, ...traceHeaders(msg) })),
    );
    const accepted = batch.filter((_, i) => results[i]!.status === 'fulfilled').map((m) => m.id);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed && accepted.length === 0) throw failed.reason;
    if (failed) this.log.warn({ err: (failed.reason as Error).message, failed: batch.length - accepted.length }, 'JetStream publish partly failed');
    return accepted;
  }

  /** Durable consumers start from the first message in the stream, so one created late misses nothing. */
  async subscribe(sub: Subscription): Promise<void> {
    this.gate.beforeSubscribe(sub.durable);
    if (!this.js) {
      this.pending.push(sub);
      return;
    }
    await this.startConsumer(sub);
  }

  /** Consumes `sub` through its durables ({@link durablesOf}), after removing an earlier layout's. */
  private async startConsumer(sub: Subscription): Promise<void> {
    const parts = this.durablesOf(sub);
    await this.removeOthers(sub, parts);
    for (const part of parts) await this.consume(part);
  }

  /**
   * The durables that carry `sub`: itself, except a subscription to several subjects on a server without
   * `filter_subjects` (NATS < 2.10), which gets one filtered durable per subject (named by {@link durableOfSubject})
   * handing its batches to the same handler: a single durable there could only be unfiltered and would take every
   * message of the stream (each calculation's and supply event, to ack unread). Order holds per subject only.
   */
  private durablesOf(sub: Subscription): Subscription[] {
    if (sub.subjects.length < 2 || this.hasFilterSubjects()) return [sub];
    return sub.subjects.map((subject) => ({ ...sub, durable: durableOfSubject(sub.durable, subject), subjects: [subject] }));
  }

  /**
   * Deletes what an earlier layout left of `sub`: the unfiltered durable when the subjects now have one durable each,
   * and those per-subject durables when the server now filters several subjects in one. Neither would be read again.
   */
  private async removeOthers(sub: Subscription, parts: readonly Subscription[]): Promise<void> {
    if (sub.subjects.length < 2) return;
    const names = new Set(parts.map((p) => p.durable));
    const stale = [sub.durable, ...sub.subjects.map((subject) => durableOfSubject(sub.durable, subject))].filter((n) => !names.has(n));
    const jsm = await jetstreamManager(this.nc!);
    for (const name of stale) {
      const gone = await jsm.consumers.delete(STREAM_NAME, name).catch((err) => {
        if (!/not found/i.test(String(err))) throw err;
        return false;
      });
      if (gone) this.log.info({ durable: name, subjects: sub.subjects }, 'removed a durable of an earlier consumer layout');
    }
  }

  /** Whether the server takes several subjects in one durable's filter (NATS 2.10 and later). */
  private hasFilterSubjects(): boolean {
    const [major = 0, minor = 0] = (this.nc?.info?.version ?? '0.0').split('.').map(Number);
    return major > 2 || (major === 2 && minor >= 10);
  }

  /**
   * Creates the durable (if needed) and consumes it until the bus closes. When the stream or the durable goes
   * away (deleted, a NATS server that lost its store), consuming aborts and both are created again: the new
   * durable starts at the beginning of the new stream.
   */
  private async consume(sub: Subscription): Promise<void> {
    let consumer = await this.durable(sub);
    void (async () => {
      while (!this.closed) {
        try {
          const messages = await consumer.consume({ max_messages: sub.maxBatch ?? MAX_BATCH, abort_on_missing_resource: true });
          await inBatches(messages, sub.maxBatch ?? MAX_BATCH, (batch) => this.deliver(sub, batch), sub.lingerMs);
        } catch (err) {
          if (this.closed) return;
          this.log.warn({ err: (err as Error).message, durable: sub.durable }, 'consumer interrupted; resuming');
          await new Promise((r) => setTimeout(r, 1000));
          consumer = await this.durable(sub, true).catch((e: Error) => {
            this.log.warn({ err: e.message, durable: sub.durable }, 'consumer not restored yet');
            return consumer;
          });
        }
      }
    })();
  }

  /** The durable of `sub`, created if missing (with the stream, when `restore`: after consuming aborted). */
  private async durable(sub: Subscription, restore = false) {
    const nc = this.nc!;
    if (restore) await ensureStream(nc);
    const jsm = await jetstreamManager(nc);
    // Its subject, or its subjects on a server that filters several in one durable (durablesOf).
    const filters = sub.subjects;
    await this.replaceIfFilterChanged(jsm, sub, filters);
    await jsm.consumers.add(STREAM_NAME, {
      durable_name: sub.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ...(filters.length === 1 ? { filter_subject: filters[0] } : filters.length > 1 ? { filter_subjects: filters } : {}),
      ack_wait: nanos(30_000),
      max_deliver: -1,
    }).catch(async (err) => {
      // Already exists with the same config: fine.
      if (!String(err).includes('already')) throw err;
    });
    return this.js!.consumers.get(STREAM_NAME, sub.durable);
  }

  /**
   * An existing durable whose subject filter is not the one the code now subscribes is deleted, so the
   * `add` that follows recreates it from the beginning of the stream with the new filter. JetStream
   * does not reliably change a durable's filter in place: a second `add` with another filter is ignored
   * by some servers, and NATS 2.9 accepts the new filter (update or `add`) and then delivers nothing at
   * all (tested). Starting again from the first message is harmless, because every consumer records
   * event ids in its inbox, and it is what makes the added subject's history arrive too (the old durable
   * had passed those messages). It costs one pass over the stream's history for that consumer.
   */
  private async replaceIfFilterChanged(jsm: Awaited<ReturnType<typeof jetstreamManager>>, sub: Subscription, filters: readonly string[]): Promise<void> {
    const info = await jsm.consumers.info(STREAM_NAME, sub.durable).catch(() => undefined);
    if (!info) return;
    const current = info.config.filter_subjects?.length ? [...info.config.filter_subjects] : info.config.filter_subject ? [info.config.filter_subject] : [];
    const wanted = [...filters].sort();
    if (current.length === wanted.length && current.sort().every((s, i) => s === wanted[i])) return;
    this.log.warn({ durable: sub.durable, from: current, to: sub.subjects }, 'consumer subject filter changed: recreating the durable from the start of the stream (its inbox drops what it already applied)');
    await jsm.consumers.delete(STREAM_NAME, sub.durable).catch((err) => {
      if (!String(err).includes('not found')) throw err;
    });
  }

  /**
   * Hands the batch to the consumer and acks every message after it committed. A failed batch is
   * tried again one message at a time, so one bad event cannot hold back the others; a message that
   * fails alone is nak'ed and redelivered.
   */
  private async deliver(sub: Subscription, batch: JsMsg[], again = false): Promise<void> {
    if (!again) {
      eventDeliveries.inc({ consumer: sub.durable }, batch.length);
      const redelivered = batch.filter((m) => m.info.deliveryCount > 1).length;
      if (redelivered) eventRedeliveries.inc({ consumer: sub.durable }, redelivered);
    }
    try {
      const messages = batch.map((m): BusMessage => {
        const traceContext = m.headers?.get(TRACEPARENT);
        return { id: m.headers?.get('Nats-Msg-Id') || `${m.info.stream}:${m.seq}`, subject: m.subject, data: m.data, ...(traceContext ? { traceContext } : {}) };
      });
      await withConsumeSpan(sub.durable, messages, () => sub.handler(messages));
      for (const m of batch) m.ack();
    } catch (err) {
      consumerErrors.inc({ consumer: sub.durable });
      if (batch.length > 1) {
        for (const m of batch) await this.deliver(sub, [m], true);
        return;
      }
      this.log.warn({ err: (err as Error).message, durable: sub.durable }, 'event handler failed; redelivering');
      batch[0]!.nak(1000);
    }
  }

  open(): void {
    this.gate.open();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.nc?.drain().catch(() => undefined);
  }

  /** Tracks connection status so readiness reflects an outage. */
  watchStatus(): void {
    const nc = this.nc;
    if (!nc) return;
    void (async () => {
      for await (const s of nc.status()) {
        if (s.type === 'disconnect' || s.type === 'reconnecting') this.reconnecting = true;
        if (s.type === 'reconnect') this.reconnecting = false;
      }
    })();
  }
}
