import type { NormalizedSupplyEvent } from './supply-event-rules';

/**
 * A new event whose tax point lies in a Union OSS quarter already locked (fenced for its lock) is not
 * lost: the return of the first quarter after it that is not locked reports it as a correction of
 * that quarter (Art. 61(1) of Implementing Regulation (EU) No 282/2011; Art. 369g(4) of Directive
 * 2006/112/EC). Imported goods belong to the monthly IOSS returns, not to these quarters.
 */

export type LateNotice = { code: 'late_for_locked_period'; correctsPeriod: string; reportedInPeriod: string; detail: string };

export const quarterOf = (iso: string) => `${iso.slice(0, 4)}-Q${Math.floor((Number(iso.slice(5, 7)) - 1) / 3) + 1}`;

function nextQuarter(p: string): string {
  const y = Number(p.slice(0, 4));
  const q = Number(p.slice(6));
  return q === 4 ? `${y + 1}-Q1` : `${y}-Q${q + 1}`;
}

/** The notice for a newly committed event, or undefined when its quarter is open. */
export function lateNotice(e: Pick<NormalizedSupplyEvent, 'occurredAt' | 'supplyKind' | 'eventType'>, original: { occurredAt: string } | undefined, fenced: ReadonlySet<string>): LateNotice | undefined {
  if (e.supplyKind === 'imported_goods') return undefined;
  const own = quarterOf(e.occurredAt);
  if (!fenced.has(own)) return undefined;
  let next = nextQuarter(own);
  while (fenced.has(next)) next = nextQuarter(next);
  // A late refund, cancellation, credit note or adjustment corrects the quarter of the supply it reduces.
  const corrects = e.eventType !== 'sale' && original ? quarterOf(original.occurredAt) : own;
  return {
    code: 'late_for_locked_period',
    correctsPeriod: corrects,
    reportedInPeriod: next,
    detail: `${own} is locked: this event is not in its return. It is reported as a correction of ${corrects} in the ${next} Union OSS return, the earliest return not locked yet.`,
  };
}
