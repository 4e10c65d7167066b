import { consumerErrors, eventDeliveries } from './metrics';
import { withConsumeSpan } from './tracing';
import { assertNoOpenTransaction } from './transaction';

/**
 * A domain event as carried on the bus: the id doubles as the JetStream `Nats-Msg-Id`; `traceContext`
 * is the W3C `traceparent` of the span that published it (tracing on only; the `traceparent` NATS header).
 */
export type BusMessage = { id: string; subject: string; data: Uint8Array; traceContext?: string };

/**
 * Applies a batch of events in one unit of work (one statement or one transaction, recording every
 * id in the consumer's inbox: see `platform/src/inbox.ts`). Throwing redelivers the whole batch, so
 * a batch may repeat ids already applied.
 */
type BatchHandler = (batch: BusMessage[]) => Promise<void>;

/** A durable consumer: the name survives restarts, and events published while it was away reach it. */
/**
 * `maxBatch`: most messages handed to `handler` at once, and pulled at a time (JetStream's default 256).
 * `lingerMs` (JetStream): how long a batch smaller than `maxBatch` may wait for more messages before it is handled.
 */
export type Subscription = { durable: string; subjects: string[]; handler: BatchHandler; maxBatch?: number; lingerMs?: number };

/**
 * `lingerMs` of the consumers of an event made per request (`CalculationRecorded`: one per stored calculation; the
 * ledger's calculation summaries and the gateway's key usage): while calculations stream in, each statement applies
 * the messages of ≈ 50 ms instead of the few that arrived while the previous one ran. Measured on the distributed
 * persisted calculation (docs/benchmarks.md, twentieth session): the ledger's CPU per request 0.10–0.14 → 0.08–0.10
 * ms, its PostgreSQL backends' 0.054–0.065 → 0.024–0.034 ms. A summary or a key's count is at most this much later.
 */
export const PER_REQUEST_EVENT_LINGER_MS = 50;

/**
 * The one interface both the in-process bus (`npm start`) and JetStream (distributed) implement.
 * The composition root subscribes every consumer of the process, then calls `open()`, and only then
 * starts the outbox relays: publishing before `open()` and subscribing after it are refused.
 */
export interface EventBus {
  /** Resolves with the ids the bus accepted (the rest stay in the outbox); rejects if it accepted none. */
  publish(batch: BusMessage[]): Promise<string[]>;
  subscribe(sub: Subscription): Promise<void>;
  open(): void;
  connected(): boolean;
  close(): Promise<void>;
}

/** NATS subject matching with `*` (one token) and `>` (the rest). */
export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return s.length > i;
    if (i >= s.length) return false;
    if (p[i] !== '*' && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}

/** Enforces subscribe-everything-then-open, the order that keeps events pending at start-up. */
export class OpenGate {
  private opened = false;

  open(): void {
    this.opened = true;
  }

  beforePublish(): void {
    if (!this.opened) throw new Error('event bus not open: publishing before every consumer subscribed would lose events');
  }

  beforeSubscribe(durable: string): void {
    if (this.opened) throw new Error(`durable ${durable} subscribed after the bus opened: subscribe every consumer first`);
  }
}

/**
 * In-process bus with JetStream's delivery contract: publish resolves only after every matching
 * durable consumer handled its part of the batch; ids already delivered inside the window are dropped.
 */
export class InProcessBus implements EventBus {
  private readonly subs: Subscription[] = [];
  private readonly delivered = new Map<string, number>();
  /** Per subject, whether each subscription (in order) takes it: the patterns are matched once per subject, not per message. */
  private readonly routes = new Map<string, boolean[]>();
  private readonly gate = new OpenGate();
  constructor(private readonly duplicateWindowMs = 120_000) {}

  async publish(batch: BusMessage[]): Promise<string[]> {
    assertNoOpenTransaction('publishing to the event bus');
    this.gate.beforePublish();
    this.expire();
    const fresh = [...new Map(batch.filter((m) => !this.delivered.has(m.id)).map((m) => [m.id, m])).values()];
    for (let n = 0; n < this.subs.length; n++) {
      const sub = this.subs[n]!;
      const mine = fresh.filter((m) => this.routeOf(m.subject)[n]);
      if (!mine.length) continue;
      eventDeliveries.inc({ consumer: sub.durable }, mine.length);
      const size = sub.maxBatch ?? mine.length;
      for (let i = 0; i < mine.length; i += size) {
        const part = mine.slice(i, i + size);
        await withConsumeSpan(sub.durable, part, () => sub.handler(part)).catch((err: unknown) => {
          consumerErrors.inc({ consumer: sub.durable });
          throw err;
        });
      }
    }
    const now = Date.now();
    for (const m of fresh) this.delivered.set(m.id, now);
    return batch.map((m) => m.id);
  }

  async subscribe(sub: Subscription): Promise<void> {
    this.gate.beforeSubscribe(sub.durable);
    if (this.subs.some((s) => s.durable === sub.durable)) throw new Error(`durable ${sub.durable} already subscribed`);
    this.subs.push(sub);
    this.routes.clear();
  }

  private routeOf(subject: string): boolean[] {
    let route = this.routes.get(subject);
    if (!route) this.routes.set(subject, (route = this.subs.map((sub) => sub.subjects.some((p) => subjectMatches(p, subject)))));
    return route;
  }

  open(): void {
    this.gate.open();
  }

  connected(): boolean {
    return true;
  }

  async close(): Promise<void> {
    this.subs.length = 0;
  }

  private expire(): void {
    const cutoff = Date.now() - this.duplicateWindowMs;
    for (const [id, at] of this.delivered) {
      if (at >= cutoff) break;
      this.delivered.delete(id);
    }
  }
}
