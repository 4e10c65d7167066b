import type { Logger } from 'pino';
import { ReferenceDataRequestedSchema } from '@vat/gen/vat/platform/v1/events_pb';
import type { BusMessage, EventBus } from './bus';
import { buildEvent, decodeEvent, subjectOf } from './events';
import { REFERENCE_KINDS, type ReferenceKind, type ReferenceProjection } from './reference-projection';

/**
 * Reference data on request. A service whose projection of calculation's reference data is incomplete (a fresh
 * NATS stream, a stream lost and recreated: what calculation published before is gone, and it records what it
 * published, so its start publishes nothing again) publishes `ReferenceDataRequested`; calculation answers by
 * publishing the kinds asked for again, to every consumer of them (docs/reference-data.md, "On request").
 */
export const REFERENCE_REQUEST_SUBJECT = subjectOf(ReferenceDataRequestedSchema);

/** A request for `kinds` as the bus carries it (published straight to the bus: it changes no state). */
export function referenceDataRequest(service: string, kinds: readonly ReferenceKind[], now: Date): BusMessage {
  const e = buildEvent(ReferenceDataRequestedSchema, { service, requestedAt: now.toISOString(), kinds: [...kinds] });
  return { id: e.id, subject: e.subject, data: e.payload };
}

/** A received request: who asked, when (ms since the epoch), and the kinds it names that exist. */
export function decodeReferenceDataRequest(m: BusMessage): { service: string; requestedAt: number; kinds: ReferenceKind[] } {
  const r = decodeEvent(ReferenceDataRequestedSchema, m.data);
  const requestedAt = Date.parse(r.requestedAt);
  return { service: r.service, requestedAt: Number.isNaN(requestedAt) ? 0 : requestedAt, kinds: REFERENCE_KINDS.filter((k) => r.kinds.includes(k)) };
}

/**
 * The pauses between looks while the projection is incomplete: the first look at once (after a start,
 * the composition root has drained the in-process outboxes, so `npm start` finds it complete), then from
 * `againMs` doubling to `maxMs`. An answer usually lands well within the first pause.
 */
export type RequestPace = { againMs: number; maxMs: number };
export const DEFAULT_REQUEST_PACE: RequestPace = { againMs: 5000, maxMs: 60_000 };

/**
 * Asks calculation for the reference data `projection` lacks, again and again (with growing pauses) until it is
 * complete; then it stops looking (a projection never loses what it holds).
 */
export class ReferenceDataRequester {
  private timer: NodeJS.Timeout | undefined;
  private looking: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly projection: ReferenceProjection,
    private readonly bus: EventBus,
    private readonly service: string,
    private readonly log: Logger,
    private readonly now: () => Date = () => new Date(),
    private readonly pace: RequestPace = DEFAULT_REQUEST_PACE,
  ) {}

  /** Publishes one request for what the projection lacks; answers the kinds asked for (none: it is complete). */
  async requestMissing(): Promise<ReferenceKind[]> {
    const kinds = await this.projection.missing();
    if (kinds.length) await this.bus.publish([referenceDataRequest(this.service, kinds, this.now())]);
    return kinds;
  }

  /** Starts looking (the bus must be open). */
  start(): void {
    this.stopped = false;
    this.schedule(0, this.pace.againMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.looking;
  }

  private schedule(inMs: number, nextMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.looking = this.look(nextMs);
    }, inMs);
    this.timer.unref();
  }

  private async look(pauseMs: number): Promise<void> {
    try {
      const asked = await this.requestMissing();
      if (!asked.length) return;
      this.log.warn({ missing: asked, nextLookMs: pauseMs }, 'reference data projection incomplete: asked calculation to publish it again');
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'reference data request not sent; will try again');
    }
    this.schedule(pauseMs, Math.min(pauseMs * 2, this.pace.maxMs));
  }
}
