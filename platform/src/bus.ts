/** A domain event as carried on the bus: the id doubles as the JetStream `Nats-Msg-Id`. */
export type BusMessage = { id: string; subject: string; data: Uint8Array };
export type BusHandler = (msg: BusMessage) => Promise<void>;
export type Subscription = { durable: string; subjects: string[]; handler: BusHandler };

/** The one interface both the in-process bus (`npm start`) and JetStream (distributed) implement. */
export interface EventBus {
  publish(msg: BusMessage): Promise<void>;
  subscribe(sub: Subscription): Promise<void>;
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

/**
 * In-process bus with JetStream's delivery contract: publish resolves only after every matching
 * durable consumer handled the message; ids already delivered inside the window are dropped.
 */
export class InProcessBus implements EventBus {
  private readonly subs: Subscription[] = [];
  private readonly delivered = new Map<string, number>();
  constructor(private readonly duplicateWindowMs = 120_000) {}

  async publish(msg: BusMessage): Promise<void> {
    this.expire();
    if (this.delivered.has(msg.id)) return;
    for (const sub of this.subs) {
      if (sub.subjects.some((p) => subjectMatches(p, msg.subject))) await sub.handler(msg);
    }
    this.delivered.set(msg.id, Date.now());
  }

  async subscribe(sub: Subscription): Promise<void> {
    if (this.subs.some((s) => s.durable === sub.durable)) throw new Error(`durable ${sub.durable} already subscribed`);
    this.subs.push(sub);
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
