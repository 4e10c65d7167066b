import type { Subscription } from '@vat/platform/bus';
import type { ReferenceKind } from '@vat/platform/reference-projection';
import { decodeReferenceDataRequest, REFERENCE_REQUEST_SUBJECT } from '@vat/platform/reference-request';
import type { OutboxEvent } from '@vat/platform/outbox';
import type { CalculationDeps } from '../context';
import { rateReleasePublishedEvent, releaseContentOf } from '../events';

/**
 * Answers `ReferenceDataRequested` (a projection of calculation's reference data that is incomplete, see
 * platform/src/reference-request.ts): publishes the kinds asked for again, the current VAT rate release and
 * every stored ECB day, straight to the bus. An answer changes no state, so no outbox row is written: a lost
 * answer is asked for again. A request made before an answer of its kinds was read is served by that answer
 * (it reaches every consumer), so a burst of requests (replicas starting together, a backlog) costs one answer.
 */
export function referenceRequestConsumer(deps: CalculationDeps): Subscription {
  /** When each kind was last read for an answer that the bus accepted whole (ms since the epoch; per process). */
  const answered = new Map<ReferenceKind, number>();
  return {
    durable: 'calculation-reference-data-requests',
    subjects: [REFERENCE_REQUEST_SUBJECT],
    handler: async (batch) => {
      const due = new Set<ReferenceKind>();
      const askedBy = new Set<string>();
      for (const m of batch) {
        const r = decodeReferenceDataRequest(m);
        const open = r.kinds.filter((k) => r.requestedAt >= (answered.get(k) ?? Number.NEGATIVE_INFINITY));
        for (const k of open) due.add(k);
        if (open.length) askedBy.add(r.service);
      }
      if (!due.size) return;
      const readAt = deps.now().getTime();
      const events: OutboxEvent[] = [];
      if (due.has('vat_rates')) events.push(rateReleasePublishedEvent(releaseContentOf(await deps.rates.current())));
      if (due.has('ecb')) events.push(...(await deps.publications.ecbDaysAsPublished()));
      const accepted = await deps.bus.publish(events.map((e) => ({ id: e.id, subject: e.subject, data: e.payload })));
      if (accepted.length === events.length) for (const k of due) answered.set(k, readAt);
      deps.log.info({ kinds: [...due], requestedBy: [...askedBy], events: events.length, accepted: accepted.length }, 'reference data published again on request');
    },
  };
}
