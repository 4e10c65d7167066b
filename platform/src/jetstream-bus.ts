import { connect } from '@nats-io/transport-node';
import { nanos, headers, type NatsConnection } from '@nats-io/nats-core';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import type { Logger } from 'pino';
import type { BusMessage, EventBus, Subscription } from './bus';

export const STREAM_NAME = 'VAT';
export const STREAM_SUBJECTS = ['vat.>'];

/**
 * JetStream bus. Connects in the background and keeps reconnecting forever, so the API keeps
 * serving while NATS is down; the outbox holds events until publish succeeds again.
 */
export class JetStreamBus implements EventBus {
  private nc: NatsConnection | undefined;
  private js: JetStreamClient | undefined;
  private closed = false;
  private readonly pending: Subscription[] = [];
  private readonly ready: Promise<void>;

  constructor(private readonly servers: string, private readonly name: string, private readonly log: Logger) {
    this.ready = this.connectLoop();
    this.ready.catch(() => undefined);
  }

  private async connectLoop(): Promise<void> {
    while (!this.closed) {
      try {
        const nc = await connect({ servers: this.servers, name: this.name, reconnect: true, maxReconnectAttempts: -1, reconnectTimeWait: 500, timeout: 2000 });
        const jsm = await jetstreamManager(nc);
        try {
          await jsm.streams.info(STREAM_NAME);
        } catch {
          await jsm.streams.add({ name: STREAM_NAME, subjects: STREAM_SUBJECTS, duplicate_window: nanos(120_000) });
        }
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

  async publish(msg: BusMessage): Promise<void> {
    if (!this.js || !this.nc) throw new Error('NATS not connected');
    const h = headers();
    h.set('Nats-Msg-Id', msg.id);
    await this.js.publish(msg.subject, msg.data, { msgID: msg.id, headers: h, timeout: 2000 });
  }

  async subscribe(sub: Subscription): Promise<void> {
    if (!this.js) {
      this.pending.push(sub);
      return;
    }
    await this.startConsumer(sub);
  }

  private async startConsumer(sub: Subscription): Promise<void> {
    const nc = this.nc!;
    const jsm = await jetstreamManager(nc);
    await jsm.consumers.add(STREAM_NAME, {
      durable_name: sub.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      // NATS < 2.10 knows only the single filter_subject.
      ...(sub.subjects.length === 1 ? { filter_subject: sub.subjects[0] } : { filter_subjects: sub.subjects }),
      ack_wait: nanos(30_000),
      max_deliver: -1,
    }).catch(async (err) => {
      // Already exists with the same config: fine.
      if (!String(err).includes('already')) throw err;
    });
    const consumer = await this.js!.consumers.get(STREAM_NAME, sub.durable);
    void (async () => {
      while (!this.closed) {
        try {
          const messages = await consumer.consume({ max_messages: 256 });
          for await (const m of messages) {
            const id = m.headers?.get('Nats-Msg-Id') || `${m.info.stream}:${m.seq}`;
            try {
              await sub.handler({ id, subject: m.subject, data: m.data });
              m.ack();
            } catch (err) {
              this.log.warn({ err: (err as Error).message, durable: sub.durable }, 'event handler failed; redelivering');
              m.nak(1000);
            }
          }
        } catch (err) {
          if (this.closed) return;
          this.log.warn({ err: (err as Error).message, durable: sub.durable }, 'consumer interrupted; resuming');
          await new Promise((r) => setTimeout(r, 1000));
        }
      }
    })();
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
