import { create } from '@bufbuild/protobuf';
import { Code, ConnectError, type HandlerContext } from '@connectrpc/connect';
import { CommitSupplyEventsResponseSchema, type CommitSupplyEventsRequest } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import { SupplyCommittedSchema } from '@vat/gen/vat/ledger/v1/events_pb';
import { SupplyEventRejectionsSchema, type SupplyEvent, type SupplyEventInput } from '@vat/gen/vat/ledger/v1/resources_pb';
import { subjectOf } from '@vat/platform/events';
import { isUuid } from '@vat/platform/http-inputs';
import { uuidv7 } from '@vat/platform/uuid7';
import { callerOf, type Principal } from '@vat/platform/principal';
import { ErrorInfoSchema } from '@vat/gen/google/rpc/error_details_pb';
import type { LedgerDeps } from '../context';
import { linkCalculation, type LinkedCalculation } from '../domain/calculation-link';
import { contentDigest } from '../domain/content-digest';
import { lateNotice } from '../domain/late-events';
import { RateTable, rateViolations, type OriginalRate } from '../domain/rates-in-force';
import { isEuMemberState } from '@vat/platform/countries';
import { validateSupplyEvent, type NormalizedSupplyEvent, type RuleViolation } from '../domain/supply-event-rules';
import { evidenceFields, supplyCommittedPayload, supplyEventMessage } from '../messages';
import { sealCustomerVatNumber } from '../domain/customer-vat-number';
import type { EcbRateEvidence, SupplyEventRecord } from '../repositories/supply-events';
import type { OutboxEvent } from '@vat/platform/outbox';
import { EVENTS_PER_MESSAGE } from '@vat/platform/supply-committed';

export const MAX_BATCH = 1000;

type Rejection = { index: number; eventId?: string; field?: string; error: string; detail: string };

/** A refused batch: one error for the request, every refused item in its details. */
function refused(code: Code, reason: string, detail: string, items: Rejection[]): ConnectError {
  return new ConnectError(detail, code, undefined, [
    { desc: ErrorInfoSchema, value: { reason, domain: 'vat', metadata: {} } },
    { desc: SupplyEventRejectionsSchema, value: { items } },
  ]);
}

// All read the ledger's own projections of calculation's data (docs/ledger.md, "What the ledger keeps of
// calculation"), before any transaction is opened.
async function calculationsOf(deps: LedgerDeps, principal: Principal, inputs: SupplyEventInput[]): Promise<Map<string, LinkedCalculation>> {
  const ids = [...new Set(inputs.map((i) => i.calculationId).filter((id): id is string => id !== undefined && isUuid(id)).map((id) => id.toLowerCase()))];
  if (!ids.length) return new Map();
  return deps.calculationSummaries.ownedWaiting(principal.accountId, ids);
}

/** The tax class ids of calculation's current release, read only when an event names a class. */
async function taxClassesOf(deps: LedgerDeps, inputs: SupplyEventInput[]): Promise<ReadonlySet<string>> {
  if (!inputs.some((i) => i.taxClassId !== undefined)) return new Set();
  return (await deps.reference.requireRateRelease()).taxClassIds;
}

/** The rates in force in the batch's countries, from the projection of calculation's current release. */
async function rateTableFor(deps: LedgerDeps, events: NormalizedSupplyEvent[]): Promise<RateTable> {
  const countries = new Set<string>(events.map((e) => e.countryOfConsumption).filter(isEuMemberState));
  if (!countries.size) return new RateTable([]);
  const release = await deps.reference.requireRateRelease();
  return new RateTable(release.ratesInForce.filter((r) => countries.has(r.country)));
}

/** Currencies a Member State's Article 59c threshold or return can be stated in besides the euro (HRK until 2022, BGN until 2025). */
const NON_EURO_EU_CURRENCIES = ['BGN', 'CZK', 'DKK', 'HRK', 'HUF', 'PLN', 'RON', 'SEK'];

/**
 * The ECB rates last published at each tax point of the batch (Art. 91(2) of Directive 2006/112/EC), by UTC
 * date: the events' own currencies and every non-euro EU currency, so any conversion into a Member State's
 * currency (cross rates through the euro) has its evidence. From the ledger's projection of calculation's ECB days.
 */
async function ecbEvidenceFor(deps: LedgerDeps, events: NormalizedSupplyEvent[]): Promise<Map<string, EcbRateEvidence>> {
  const out = new Map<string, EcbRateEvidence>();
  if (!events.length) return out;
  const table = await deps.reference.requireEcbRates();
  // The EU currencies are looked up once per day of the batch, an event's own currency once per day and currency.
  const looked = new Set<string>();
  const add = (date: string, currency: string) => {
    if (currency === 'EUR' || looked.has(`${date} ${currency}`)) return;
    looked.add(`${date} ${currency}`);
    const hit = table.rateOnOrPreviousPublication(currency, date);
    if (!hit) return;
    const ev = out.get(date) ?? out.set(date, { rateDate: hit.rateDate, ratesPerEur: {} }).get(date)!;
    ev.ratesPerEur[currency] = hit.rate.decimal;
  };
  for (const e of events) {
    const date = e.occurredAt.slice(0, 10);
    if (!looked.has(date)) {
      looked.add(date);
      for (const currency of NON_EURO_EU_CURRENCIES) add(date, currency);
    }
    add(date, e.currency);
  }
  return out;
}

/** The rates of the originals the batch's corrections name: a sale of the same batch, else the ledger's. */
async function originalsOf(deps: LedgerDeps, accountId: bigint, events: NormalizedSupplyEvent[]): Promise<Map<string, OriginalRate>> {
  const wanted = new Set(events.flatMap((e) => (e.originalEventId === null ? [] : [e.originalEventId])));
  const out = new Map<string, OriginalRate>();
  if (!wanted.size) return out;
  for (const r of await deps.supplyEvents.ratesOf(accountId, [...wanted])) out.set(r.eventId, r);
  for (const e of events) if (wanted.has(e.eventId) && !out.has(e.eventId)) out.set(e.eventId, { eventId: e.eventId, vatRateBps: e.vatRateBps, rateCategory: e.rateCategory, region: e.region, occurredAt: e.occurredAt });
  return out;
}

/**
 * Commits 1 to 1,000 supply events all-or-nothing. Every item is checked and every refusal is
 * listed; nothing is stored unless all pass. A repeated event_id with the same canonical content
 * returns the stored event (created=false); other content is 409 supply_event_conflict. A new event of
 * a locked quarter carries a notice naming the later return that reports it.
 */
export async function commitSupplyEvents(deps: LedgerDeps, req: CommitSupplyEventsRequest, ctx: HandlerContext) {
  const principal = callerOf(ctx);
  if (principal.keyKind !== 'v2') throw refused(Code.PermissionDenied, 'insufficient_scope', 'Supply events need a V2 key.', []);
  if (req.events.length < 1 || req.events.length > MAX_BATCH) throw refused(Code.InvalidArgument, 'invalid_batch_size', `A request commits 1 to ${MAX_BATCH} events.`, []);
  const [calculations, taxClasses] = await Promise.all([calculationsOf(deps, principal, req.events), taxClassesOf(deps, req.events)]);
  const checked = req.events.map((raw) => {
    const linked = linkCalculation(raw, calculations);
    const c = validateSupplyEvent(linked.input, (id) => taxClasses.has(id));
    const sealed = c.event && c.customerVatNumber !== undefined ? sealCustomerVatNumber(deps, principal.accountId, c.customerVatNumber) : undefined;
    const event = c.event && sealed ? { ...c.event, customerVatNumberDigest: sealed.digest, customerVatNumberMasked: sealed.masked } : c.event;
    return { event, encrypted: sealed?.encrypted ?? null, violations: [...c.violations, ...linked.violations] as RuleViolation[] };
  });
  const valid = checked.flatMap((c) => (c.event && !c.violations.length ? [c.event] : []));
  // All before the commit's transaction, from the ledger's own pool.
  const [table, originals, evidence] = await Promise.all([
    rateTableFor(deps, valid),
    originalsOf(deps, principal.accountId, valid),
    req.validateOnly ? new Map<string, EcbRateEvidence>() : ecbEvidenceFor(deps, valid),
  ]);
  const rejections: Rejection[] = [];
  const batch: { event: NormalizedSupplyEvent; digest: string; evidence: EcbRateEvidence | null; customerVatNumberEncrypted: Buffer | null }[] = [];
  checked.forEach(({ event, encrypted, violations }, index) => {
    if (event && !violations.length) violations.push(...rateViolations(event, table, event.originalEventId === null ? undefined : originals.get(event.originalEventId)));
    if (violations.length) rejections.push(...violations.map((v) => ({ index, eventId: req.events[index]!.eventId, ...v })));
    else batch.push({ event: event!, digest: contentDigest(event!), evidence: evidence.get(event!.occurredAt.slice(0, 10)) ?? null, customerVatNumberEncrypted: encrypted });
  });
  if (rejections.length) {
    throw refused(Code.InvalidArgument, 'invalid_supply_events', `${new Set(rejections.map((r) => r.index)).size} of ${req.events.length} events are invalid; nothing was stored.`, rejections);
  }
  if (req.validateOnly) return create(CommitSupplyEventsResponseSchema, { items: [] });
  // Each record's message is built once, without its ECB evidence (the answer leaves it out); the SupplyCommitted
  // events carry each with its evidence, encoded once per distinct evidence object of the batch.
  const messages = new Map<SupplyEventRecord, SupplyEvent>();
  const messageOf = (r: SupplyEventRecord) => messages.get(r) ?? messages.set(r, supplyEventMessage(r, null)).get(r)!;
  const outcome = await deps.supplyEvents.commit(principal.accountId, batch, deps.now(), (fresh) => supplyCommittedEvents(fresh, messageOf));
  if (!outcome.ok) {
    const items = outcome.conflicts.map((c) => ({ index: c.index, eventId: c.eventId, field: 'event_id', error: 'supply_event_conflict', detail: 'This event_id is already committed with different content; events are immutable (send a correction event instead).' }));
    throw refused(Code.AlreadyExists, 'supply_event_conflict', 'An event_id of this request is already committed with different content; nothing was stored.', items);
  }
  if (outcome.items.some((i) => i.created)) deps.relay.kick();
  const items = outcome.items.map((i) => ({ event: messageOf(i.record), created: i.created, notice: i.created ? lateNotice(i.record, originals.get(i.record.originalEventId ?? ''), outcome.fencedPeriods) : undefined }));
  return create(CommitSupplyEventsResponseSchema, { items });
}

const SUPPLY_COMMITTED_SUBJECT = subjectOf(SupplyCommittedSchema);

/**
 * The outbox events of newly committed records (one account, ledger order): one `SupplyCommitted` per chunk, each
 * event its message (`messageOf`, without evidence) and its evidence (`evidenceOf`, one encoding per distinct
 * evidence of the commit; see supplyCommittedPayload).
 */
export function supplyCommittedEvents(records: readonly SupplyEventRecord[], messageOf: (r: SupplyEventRecord) => SupplyEvent, evidenceOf: (e: EcbRateEvidence) => Uint8Array = evidenceFields()): OutboxEvent[] {
  const out: OutboxEvent[] = [];
  for (let i = 0; i < records.length; i += EVENTS_PER_MESSAGE) {
    const id = uuidv7();
    out.push({ id, subject: SUPPLY_COMMITTED_SUBJECT, payload: supplyCommittedPayload(id, records.slice(i, i + EVENTS_PER_MESSAGE), messageOf, evidenceOf) });
  }
  return out;
}
