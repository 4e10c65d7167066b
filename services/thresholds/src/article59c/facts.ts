import type { SupplyEvent } from '@vat/gen/vat/ledger/v1/resources_pb';
import { isCalendarDate } from '@vat/platform/http-inputs';
import type { CandidateFacts, EventFacts, VatNumberEvidence } from './classify';
import type { RateEvidence } from './conversion';

/** The facts of a supply event or projected fact that its bucket needs, before linking. */
export type RawFacts = EventFacts & {
  factId: string;
  accountId: string;
  eventId: string;
  sequence: bigint;
  eventType: string;
  originalEventId: string | null;
  occurredAt: string;
  recordedAt: string;
  netMinor: bigint;
  /** The ECB rates the ledger attached at commit (absent on a projected row: read from its rate document). */
  evidence?: RateEvidence | null;
  /** The keyed digest of the customer's VAT number (`b2b` only; on an event, not on a projected row). */
  vatNumberDigest?: string | null;
  /** A `b2b` fact's VIES evidence as last evaluated (a projected row reads it; a new event is evaluated before its bucket). */
  vatNumberEvidence?: VatNumberEvidence | null;
};

/** What linking a correction needs of its original (and its ledger sequence: the prefix from which it is linked). */
export type Original = { eventType: string; occurredAt: string; countryOfConsumption: string; currency: string; sequence: bigint };

const CANONICAL_UTC = /^\d{4}-\d{2}-\d{2}T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

/**
 * `t` as `YYYY-MM-DDTHH:mm:ss.sssZ`. A string already in that form with a real calendar date (what the ledger
 * sends, every time) is that string: parsing and formatting it again cost a sixth of the thresholds projection's
 * own CPU in an ingestion profile. Anything else goes through Date, as before (an invalid one throws).
 */
export const iso = (t: string | Date): string =>
  typeof t === 'string' && CANONICAL_UTC.test(t) && isCalendarDate(t.slice(0, 10)) ? t : (t instanceof Date ? t : new Date(t)).toISOString();
const utcYear = (t: string) => Number(iso(t).slice(0, 4));

/** Whether a profile could supply a fact the event lacks. */
export const lacksProfileFact = (f: CandidateFacts) => f.sourceId !== null && (f.supplierEstablishmentCountry === null || (f.supplyKind === 'goods' && f.dispatchCountry === null));

export function rawOfEvent(e: SupplyEvent): RawFacts {
  return {
    factId: e.id,
    accountId: e.accountId.toString(),
    eventId: e.eventId,
    sequence: e.sequence,
    eventType: e.eventType,
    originalEventId: e.originalEventId ?? null,
    occurredAt: iso(e.occurredAt),
    recordedAt: iso(e.recordedAt),
    supplyKind: e.supplyKind,
    customerType: e.customerType,
    classificationStatus: e.classificationStatus,
    countryOfConsumption: e.countryOfConsumption,
    dispatchCountry: e.dispatchCountry ?? null,
    supplierEstablishmentCountry: e.supplierEstablishmentCountry ?? null,
    currency: e.currency,
    sourceId: e.sourceId ?? null,
    netMinor: e.netAmountMinor,
    // The decoded message's map itself (read only: converted from and stored as JSON), not a copy per event.
    evidence: e.ecbRateEvidence ? { rateDate: e.ecbRateEvidence.rateDate, ratesPerEur: e.ecbRateEvidence.ratesPerEur } : null,
    vatNumberDigest: e.customerVatNumberDigest ?? null,
  };
}

/**
 * A correction is linked when its original is a sale of the same country and currency; its amount then
 * belongs to the original's statutory year. A missing original leaves it in its own year, unresolved.
 */
export function candidateOf(raw: RawFacts, original: Original | undefined): CandidateFacts {
  const isSale = raw.eventType === 'sale';
  let linkState: CandidateFacts['linkState'] = 'none';
  let year = utcYear(raw.occurredAt);
  if (!isSale) {
    if (!original || raw.originalEventId === null) linkState = 'missing';
    else if (original.eventType !== 'sale' || original.countryOfConsumption !== raw.countryOfConsumption || original.currency !== raw.currency) linkState = 'invalid';
    else {
      linkState = 'linked';
      year = utcYear(original.occurredAt);
    }
  }
  return {
    eventClass: isSale ? 'sale' : 'correction',
    linkState,
    year,
    supplyKind: raw.supplyKind,
    customerType: raw.customerType,
    classificationStatus: raw.classificationStatus,
    countryOfConsumption: raw.countryOfConsumption,
    dispatchCountry: raw.dispatchCountry,
    supplierEstablishmentCountry: raw.supplierEstablishmentCountry,
    currency: raw.currency,
    sourceId: raw.sourceId,
    vatNumberEvidence: raw.customerType === 'b2b' ? (raw.vatNumberEvidence ?? 'missing') : null,
  };
}

/** The running-total row a candidate's amount is counted in (a `b2b` one's key ends with its VIES evidence). */
export function bucketKeyOf(f: CandidateFacts, occurredOn: string): string {
  const key = [f.year, occurredOn, f.eventClass, f.linkState, f.supplyKind, f.customerType, f.classificationStatus, f.countryOfConsumption, f.dispatchCountry ?? '-', f.supplierEstablishmentCountry ?? '-', f.currency, f.sourceId ?? ''].join('|');
  return f.customerType === 'b2b' ? `${key}|${f.vatNumberEvidence ?? 'missing'}` : key;
}
