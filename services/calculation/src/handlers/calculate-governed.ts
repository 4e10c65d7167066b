import { uuidv7 } from '@vat/platform/uuid7';
import { create } from '@bufbuild/protobuf';
import { Code, ConnectError, type HandlerContext } from '@connectrpc/connect';
import { CalculateGovernedResponseSchema, type CalculateGovernedRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { digestOf } from '@vat/platform/canonical-json';
import { callerOf, principalHeaders, type Principal } from '@vat/platform/principal';
import { notFound, rpcError } from '@vat/platform/rpc-errors';
import type { Statement } from '@vat/platform/sql';
import { storedCalculation } from '../calculation-record';
import type { CalculationDeps } from '../context';
import { aggregateStatus, decisionFindings, RESOLVER_VERSION, SCHEMA_VERSION } from '../domain/governed/decision';
import { canonicalizeGoverned, customerVatNumberOf, type GovernedCanonical } from '../domain/governed/request';
import { thresholdPosition, type ThresholdPosition } from '../domain/governed/sales-vat';
import { answerOf, evaluateGoverned, type Arithmetic, type CustomerVatEvidence, type GovernedLookups } from '../domain/governed/walk';
import { pinRate, type CanonicalRequest } from '../evidence';
import { decisionMessage } from '../messages-governed';
import type { RateSnapshot } from '../reference/rate-store';
import type { DecisionRecord } from '../repositories/decisions';

/** Another service failed transiently: 503, nothing stored; a refusal of the input (4xx) passes through. */
function downstream(err: unknown): never {
  if (err instanceof ConnectError && [Code.InvalidArgument, Code.NotFound].includes(err.code)) throw err;
  throw rpcError(Code.Unavailable, 'service_unavailable', 'A service the decision depends on is temporarily unavailable; nothing was stored. Retry with the same Idempotency-Key.');
}

/**
 * `POST /v2/vat/calculate`. Every RPC (classification mapping, Article 59c status) is made before the
 * one statement that stores the decision; a replay of the key answers the stored original, whatever
 * was activated since.
 */
export async function calculateGoverned(deps: CalculationDeps, req: CalculateGovernedRequest, ctx: HandlerContext) {
  const principal = callerOf(ctx);
  const now = deps.now();
  const snap = await deps.rates.current();
  const canonical = canonicalizeGoverned(req, (id) => snap.classById.has(id));
  // The customer's VAT number is only sent to compliance-reports (before any write); what is kept is its mask and keyed digest.
  const vatNumber = customerVatNumberOf(req);
  const customerVat = vatNumber === undefined ? undefined : await customerVatEvidence(deps, principal, vatNumber, canonical.transaction_date.slice(0, 10));
  if (customerVat) canonical.treatment_context.customer_vat_number = { masked: customerVat.masked, digest: customerVat.digest };
  const requestDigest = digestOf(canonical);
  const stored = await deps.decisions.byIdempotencyKey(principal.accountId, req.idempotencyKey!);
  if (stored) return replayOrConflict(stored, requestDigest);
  if (canonical.supersedes_decision_id && !(await deps.decisions.owned(principal.accountId, canonical.supersedes_decision_id))) {
    throw notFound('decision_not_found', 'supersedes_decision_id names no decision of this account.');
  }
  const draft = await evaluateGoverned(canonical, lookups(deps, principal), snap, now, customerVat);
  const components = draft.components;
  const status = aggregateStatus(components);
  const { httpStatus, error, detail } = answerOf(status, draft);
  const id = uuidv7(now.getTime());
  const decision = {
    decision_id: id,
    schema_version: SCHEMA_VERSION,
    status,
    components,
    legal_at: canonical.transaction_date,
    knowledge_at: now.toISOString(),
    resolver_version: RESOLVER_VERSION,
    findings: decisionFindings(draft.findings, components),
    supersedes_decision_id: canonical.supersedes_decision_id,
    treatment_release_id: draft.release?.releaseId ?? null,
    treatment_release_digest: draft.release?.digest ?? null,
    evidence_profile_revision_id: draft.profile?.revisionId ?? null,
    evidence_profile_revision_digest: draft.profile?.digest ?? null,
    source_id: canonical.source_id,
    created_at: now.toISOString(),
    request_digest: requestDigest,
  };
  const record: DecisionRecord = {
    id,
    accountId: principal.accountId,
    apiKeyId: principal.apiKeyId,
    idempotencyKey: req.idempotencyKey!,
    requestDigest,
    canonicalRequest: canonical,
    status,
    httpStatus,
    errorCode: error,
    detail,
    decision,
    supersedesDecisionId: canonical.supersedes_decision_id,
    createdAt: now,
  };
  const arithmetic = draft.arithmetic;
  const inserted = await deps.decisions.insertOnce(record, arithmetic && ((guard, offset) => calculationRecord(deps, principal, canonical, snap, arithmetic, now, guard, offset)));
  if (inserted) {
    if (arithmetic) deps.relay.kick();
    return answer(inserted, false);
  }
  const winner = await deps.decisions.byIdempotencyKey(principal.accountId, req.idempotencyKey!);
  if (!winner) throw rpcError(Code.Unavailable, 'service_unavailable', 'Concurrent write; retry with the same Idempotency-Key.');
  return replayOrConflict(winner, requestDigest);
}

/**
 * The transaction record of a calculated sales-VAT component: the v1 canonical form of the arithmetic (the
 * State whose VAT it is, the tax class the decision selected), its pinned rate window and the calculator, so
 * it is listed, exported and replayable like a v1 calculation. No idempotency key: the decision holds it.
 */
function calculationRecord(deps: CalculationDeps, principal: Principal, req: GovernedCanonical, snap: RateSnapshot, a: Arithmetic, now: Date, guard: string, offset: number): Statement {
  const canonical: CanonicalRequest = {
    schema: 'vat-calculate-request/v1',
    country: a.jurisdiction,
    currency: req.currency,
    tax_class_id: a.taxClassId,
    amount_minor: req.amount_minor,
    price_includes_vat: req.price_includes_vat,
    transaction_date: req.transaction_date,
    source_id: req.source_id,
  };
  const requestDigest = digestOf(canonical);
  const evidence = pinRate(snap.release, a.window);
  const { record, event } = storedCalculation({ id: a.calculationId, principal, canonical, requestDigest, window: a.window, amounts: a.amounts, evidence, now, idempotencyKey: null });
  return deps.calculations.guardedInsert(record, event, guard, offset);
}

function answer(r: DecisionRecord, replayed: boolean) {
  return create(CalculateGovernedResponseSchema, { decision: decisionMessage(r.decision), httpStatus: r.httpStatus, error: r.errorCode, detail: r.detail, replayed });
}

function replayOrConflict(stored: DecisionRecord, requestDigest: string) {
  if (stored.requestDigest !== requestDigest) {
    throw rpcError(Code.Aborted, 'idempotency_conflict', 'This Idempotency-Key was already used with a different request (body, X-Evidence-Profile or X-Source-ID).');
  }
  return answer(stored, true);
}

/** The walk's lookups for this caller: its repositories, and the classification and thresholds services. */
function lookups(deps: CalculationDeps, principal: Principal): GovernedLookups {
  const call = { headers: principalHeaders(principal) };
  return {
    profilesNamed: (ref) => deps.decisions.profilesNamed(principal.accountId, ref),
    treatmentInForce: (country, legalDate) => deps.treatments.inForce(country, legalDate),
    resolveTaxClass: (q) => deps.clients.classification.resolveTaxClass(q, call).catch(downstream),
    article59cPosition: (establishment, legalDate) => article59cPosition(deps, principal, establishment, legalDate),
  };
}

async function article59cPosition(deps: CalculationDeps, principal: Principal, establishment: string, legalDate: string): Promise<ThresholdPosition> {
  // A sale dated before today is placed by the status as of the end of its own day (its year and the one
  // before); today or later, by today's status (a later year stays unknown: nothing can be known of it yet).
  const today = deps.now().toISOString().slice(0, 10);
  const asOf = legalDate < today ? legalDate : undefined;
  const res = await deps.clients.thresholds.getThresholdStatus({ asOf }, { headers: principalHeaders(principal) }).catch(downstream);
  const s = res.status;
  if (!s) return 'unknown';
  return thresholdPosition(
    {
      currentYear: s.currentYear,
      checks: s.checks.map((c) => ({ establishmentCountry: c.establishmentCountry, currentComparison: c.currentComparison, previousComparison: c.previousComparison, currentYearCrossingOccurredAt: c.currentYearCrossing?.occurredAt })),
    },
    establishment,
    legalDate,
  );
}

/**
 * The VIES evidence of the customer's VAT number at the legal date (compliance-reports, which derives the keyed
 * digest: calculation holds no key and never logs or stores the number). An outage is a 503, nothing stored.
 */
async function customerVatEvidence(deps: CalculationDeps, principal: Principal, vatNumber: string, legalDate: string): Promise<CustomerVatEvidence & { digest: string }> {
  const res = await deps.clients.vatNumbers.getVatNumberEvidence({ vatNumber, legalDate }, { headers: principalHeaders(principal) }).catch(downstream);
  const status = (['valid', 'invalid', 'unavailable'] as const).find((v) => v === res.status) ?? 'none';
  const c = res.check;
  return {
    state: vatNumber.slice(0, 2),
    masked: res.vatNumberMasked,
    digest: res.vatNumberDigest,
    status,
    check: c && { id: c.id.toString(), result: c.result, consultationNumber: c.consultationNumber ?? null, checkedAt: c.checkedAt, viesRequestDate: c.viesRequestDate ?? null },
  };
}
