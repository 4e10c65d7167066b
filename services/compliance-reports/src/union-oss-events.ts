import { eventDispositionOf, type EventDisposition } from './domain/union-oss-return';
import type { ComplianceReportsDeps } from './context';
import type { EventFilter, ReturnEvent, SealedBasis } from './repositories/union-oss-sealed-events';
import { unsealScope, type FactScope, type ScopedEvent } from './repositories/union-oss-facts';
import type { ReturnBasis } from './union-oss-report';

/** How a page decides an event's disposition: as today's return would, or as a lock sealed it. */
type Disposer = { scope: FactScope; dispositionOf: (e: ScopedEvent) => EventDisposition };

/** Today's return: the same decision as the builder's. */
export const liveDisposer = (basis: ReturnBasis): Disposer => ({ scope: basis.scope, dispositionOf: (e) => eventDispositionOf(e.group, basis.settings) });

/** A lock's: the scope it read and the disposition it sealed for each key. */
export function sealedDisposer(accountId: bigint, sealed: SealedBasis): Disposer {
  const byKey = new Map(sealed.dispositions.map((d) => [d.key, d]));
  return {
    scope: unsealScope(accountId, sealed.scope),
    dispositionOf: (e) => {
      const d = byKey.get(e.key);
      if (!d) throw new Error(`event ${e.eventId} has no sealed disposition: the facts the lock sealed have changed`);
      return d.disposition === 'included' ? { disposition: 'included' } : ({ disposition: 'excluded', code: d.warningCode, reason: d.reason, review: d.review } as EventDisposition);
    },
  };
}

/** One scanned event with its disposition. */
function returnEventOf(e: ScopedEvent, d: EventDisposition): ReturnEvent {
  return {
    ledgerSequence: e.sequence,
    eventId: e.eventId,
    eventType: e.eventType,
    occurredAt: e.occurredAt,
    memberStateOfConsumption: e.group.countryOfConsumption,
    supplyKind: e.group.supplyKind,
    customerType: e.group.customerType,
    currency: e.group.currency,
    netAmountMinor: e.netAmountMinor,
    vatAmountMinor: e.vatAmountMinor,
    late: e.group.late,
    disposition: d.disposition,
    warningCode: d.disposition === 'excluded' ? d.code : null,
    reason: d.disposition === 'excluded' ? d.reason : null,
    review: d.disposition === 'excluded' ? d.review : null,
    vatNumberCheckId: d.disposition === 'excluded' && d.reason === 'b2b_supply' ? (e.group.b2bEvidenceId ?? null) : null,
  };
}

const matches = (e: ReturnEvent, f: EventFilter) =>
  (f.disposition === null || e.disposition === f.disposition) && (f.reason === null || e.reason === f.reason || e.warningCode === f.reason);

/** A page of the return's events (ledger order after `after`), scanning only as far as the page needs. */
export async function returnEventPage(deps: ComplianceReportsDeps, by: Disposer, filter: EventFilter, after: bigint, limit: number): Promise<ReturnEvent[]> {
  const out: ReturnEvent[] = [];
  await deps.unionOssFacts.forEachEvent(by.scope, after, filter.memberState, (events) => {
    for (const e of events) {
      const r = returnEventOf(e, by.dispositionOf(e));
      if (matches(r, filter)) out.push(r);
      if (out.length >= limit) return false;
    }
    return true;
  });
  return out;
}

/** An event as the drill-down answers it (minor units of the event's own currency). */
export function returnEventJson(e: ReturnEvent) {
  return {
    event_id: e.eventId,
    ledger_sequence: e.ledgerSequence,
    event_type: e.eventType,
    occurred_at: e.occurredAt.toISOString(),
    member_state_of_consumption: e.memberStateOfConsumption,
    supply_kind: e.supplyKind,
    customer_type: e.customerType,
    currency: e.currency,
    net_amount_minor: e.netAmountMinor,
    vat_amount_minor: e.vatAmountMinor,
    late: e.late,
    disposition: e.disposition,
    warning_code: e.warningCode,
    reason: e.reason,
    review: e.review,
    // The VIES evidence that put a b2b supply out of scope (its consultation number: GET /v1/vat-numbers/checks).
    vat_number_check_id: e.vatNumberCheckId,
  };
}
