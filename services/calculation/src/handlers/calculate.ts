import { randomUUID } from 'node:crypto';
import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { CalculateResponseSchema, type CalculateRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { CalculationRecordedSchema } from '@vat/gen/vat/calculation/v1/events_pb';
import type { CalculationResult } from '@vat/gen/vat/calculation/v1/resources_pb';
import { digestOf } from '@vat/platform/canonical-json';
import { isCurrencyValidOn, isKnownCurrency, minorUnits } from '@vat/platform/currencies';
import { buildEvent } from '@vat/platform/events';
import { isValidIdempotencyKey, isValidSourceId, parseTransactionDate } from '@vat/platform/http-inputs';
import { principalOf } from '@vat/platform/principal';
import { Code, invalidArgument, rpcError } from '@vat/platform/rpc-errors';
import type { ServiceDeps } from '@vat/platform/service-module';
import { calculateVat, CALCULATION_VERSION, MAX_AMOUNT_MINOR } from '../domain/calculator';
import { ALGORITHM_MANIFEST_DIGEST, EXECUTION_DIGEST } from '../domain/algorithm-manifest';
import { calculationProvenance, pinRate, rateProvenance, replayStatusOf, type CanonicalRequest, type StoredRateEvidence } from '../evidence';
import { servableByV1, type RateStore } from '../reference/rate-store';
import { checkCountry } from './tax-classes';
import type { CalculationRow } from './rows';

const V2_GUIDANCE = '/v2/vat/calculate';

function needsV2(reason: string, detail: string) {
  return rpcError(Code.FailedPrecondition, reason, `${detail} Use POST ${V2_GUIDANCE}, which evaluates context-dependent treatments and fails closed.`, { guidance: V2_GUIDANCE });
}

/** Validates a v1 request into its canonical form; every rule here is part of the algorithm manifest. */
export function canonicalize(req: CalculateRequest, now: Date): CanonicalRequest {
  checkCountry(req.country);
  if (req.amountMinor < 0n || req.amountMinor > MAX_AMOUNT_MINOR) throw invalidArgument('invalid_amount', `gross_amount_minor must be an integer from 0 to ${MAX_AMOUNT_MINOR}.`);
  if (req.idempotencyKey !== undefined && !isValidIdempotencyKey(req.idempotencyKey)) throw invalidArgument('invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 visible ASCII characters.');
  if (req.idempotencyKey !== undefined && req.transactionDate === undefined) throw invalidArgument('transaction_date_required_for_idempotency', 'An Idempotency-Key needs an explicit transaction_date.');
  if (req.sourceId !== undefined && !isValidSourceId(req.sourceId)) throw invalidArgument('invalid_source_id', 'X-Source-ID must be 1 to 100 letters, digits, _, - or /.');
  let transactionDate = now.toISOString();
  if (req.transactionDate !== undefined) {
    const parsed = parseTransactionDate(req.transactionDate);
    if (!parsed.ok) throw invalidArgument('invalid_transaction_date', 'transaction_date must be YYYY-MM-DD or an RFC 3339 timestamp (years 1900-9999).');
    transactionDate = parsed.iso;
  }
  if (!/^[A-Z]{3}$/.test(req.currency) || !isKnownCurrency(req.currency)) throw invalidArgument('invalid_currency', `"${req.currency}" is not an ISO 4217 currency code.`);
  // Amounts are in minor units; XXX, XTS, XAU, XDR, ... have none ("N.A." in ISO 4217), so they are not money here.
  if (minorUnits(req.currency) === undefined) throw invalidArgument('invalid_currency', `${req.currency} has no minor unit in ISO 4217 and cannot carry an amount.`);
  if (!isCurrencyValidOn(req.currency, transactionDate.slice(0, 10))) throw invalidArgument('invalid_currency', `${req.currency} was not a valid currency on ${transactionDate.slice(0, 10)}.`);
  return {
    schema: 'vat-calculate-request/v1',
    country: req.country,
    currency: req.currency,
    tax_class_id: req.taxClassId,
    amount_minor: req.amountMinor.toString(),
    price_includes_vat: req.priceIncludesVat,
    transaction_date: transactionDate,
    source_id: req.sourceId ?? null,
  };
}

/** The v1 result of a stored row (fresh or an idempotent replay: the same function, the same answer). */
export function resultFromRow(row: CalculationRow): CalculationResult {
  const evidence = row.rate_evidence as StoredRateEvidence;
  const transactionDate = new Date(row.transaction_date).toISOString();
  return create(CalculateResponseSchema, {
    result: {
      calculationId: row.id,
      country: row.country,
      currency: row.currency,
      vatRateBps: row.vat_rate_bps,
      grossAmountMinor: BigInt(row.gross_minor),
      netAmountMinor: BigInt(row.net_minor),
      vatAmountMinor: BigInt(row.vat_minor),
      transactionDate,
      rateProvenance: rateProvenance(evidence, transactionDate, row.request_digest),
      calculationProvenance: calculationProvenance('tenant_owned', row.replay_status === 'available' ? 'available' : 'ineligible'),
    },
  }).result!;
}

const INSERT_SQL = `
with c as (
  insert into "calculation".calculation (id, account_id, api_key_id, created_at, transaction_date, country, currency, tax_class_id,
    price_includes_vat, amount_minor, net_minor, vat_minor, gross_minor, vat_rate_bps, source_id, idempotency_key, request_digest,
    canonical_request, rate_evidence, rate_evidence_status, replay_status, calculation_version, execution_digest, manifest_digest)
  values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, ?, ?, ?)
  on conflict (account_id, idempotency_key) do nothing
  returning *
), o as (
  insert into "calculation".outbox (id, subject, payload, created_at, attempts)
  select ?, ?, ?, now(), 0 from c
)
select * from c`;

const SELECT_BY_KEY_SQL = `select * from "calculation".calculation where account_id = ? and idempotency_key = ?`;

export function createCalculate(deps: ServiceDeps, rates: RateStore) {
  return async function calculate(req: CalculateRequest, ctx: HandlerContext) {
    const principal = principalOf(ctx);
    const now = deps.now();
    const canonical = canonicalize(req, now);
    const snap = await rates.current();
    if (!snap.classById.has(canonical.tax_class_id)) throw invalidArgument('unknown_tax_class', `No tax class "${canonical.tax_class_id}"; see GET /v1/tax-classes.`);
    const conn = deps.orm.em.fork().getConnection();
    const requestDigest = digestOf(canonical);

    if (principal.keyKind === 'legacy' && req.idempotencyKey !== undefined) {
      throw invalidArgument('idempotency_requires_v2_key', 'Legacy keys get unowned, unstored results; Idempotency-Key needs a V2 key.');
    }
    if (principal.keyKind === 'v2' && req.idempotencyKey !== undefined) {
      const existing = (await conn.execute(SELECT_BY_KEY_SQL, [principal.accountId.toString(), req.idempotencyKey])) as CalculationRow[];
      if (existing[0]) return replayOrConflict(existing[0], requestDigest);
    }

    const date = canonical.transaction_date.slice(0, 10);
    const window = snap.windowAt(canonical.country, canonical.tax_class_id, date);
    if (!window) throw needsV2('rate_unavailable', `No reviewed ${canonical.tax_class_id} rate exists for ${canonical.country} on ${date}; the service does not guess.`);
    if (window.conditional) throw needsV2('conditional_rate', `The ${canonical.tax_class_id} rate in ${canonical.country} on ${date} depends on conditions v1 cannot evaluate (${window.conditions ?? 'see the rate data'}).`);
    if (!servableByV1(window)) throw rpcError(Code.FailedPrecondition, 'rate_unreviewed', `The ${canonical.tax_class_id} rate in ${canonical.country} on ${date} is not yet backed by a cited source; the service does not apply unreviewed rates.`);
    const amounts = calculateVat({ amountMinor: BigInt(canonical.amount_minor), rateBps: window.rateBps, priceIncludesVat: canonical.price_includes_vat });
    const evidence = pinRate(snap.release, window);

    if (principal.keyKind === 'legacy') {
      return create(CalculateResponseSchema, {
        result: {
          calculationId: '',
          country: canonical.country,
          currency: canonical.currency,
          vatRateBps: window.rateBps,
          grossAmountMinor: amounts.grossMinor,
          netAmountMinor: amounts.netMinor,
          vatAmountMinor: amounts.vatMinor,
          transactionDate: canonical.transaction_date,
          rateProvenance: rateProvenance(evidence, canonical.transaction_date, requestDigest),
          calculationProvenance: calculationProvenance('unowned_compatibility', 'ineligible'),
        },
      });
    }

    const id = randomUUID();
    const replayStatus = replayStatusOf(requestDigest, canonical, evidence, CALCULATION_VERSION);
    const event = buildEvent(CalculationRecordedSchema, {
      calculationId: id,
      accountId: principal.accountId,
      apiKeyId: principal.apiKeyId,
      country: canonical.country,
      currency: canonical.currency,
      taxClassId: canonical.tax_class_id,
      vatRateBps: window.rateBps,
      netAmountMinor: amounts.netMinor,
      vatAmountMinor: amounts.vatMinor,
      grossAmountMinor: amounts.grossMinor,
      transactionDate: canonical.transaction_date,
      sourceId: canonical.source_id ?? undefined,
      recordedAt: now.toISOString(),
    });
    // One statement writes the calculation and its outbox event atomically (no transaction held open).
    const inserted = (await conn.execute(INSERT_SQL, [
      id, principal.accountId.toString(), principal.apiKeyId.toString(), now, canonical.transaction_date, canonical.country, canonical.currency,
      canonical.tax_class_id, canonical.price_includes_vat, canonical.amount_minor, amounts.netMinor.toString(), amounts.vatMinor.toString(),
      amounts.grossMinor.toString(), window.rateBps, canonical.source_id, req.idempotencyKey ?? null, requestDigest, JSON.stringify(canonical),
      JSON.stringify(evidence), evidence.evidence_status, replayStatus, CALCULATION_VERSION, EXECUTION_DIGEST, ALGORITHM_MANIFEST_DIGEST,
      event.id, event.subject, Buffer.from(event.payload),
    ])) as CalculationRow[];
    if (inserted[0]) {
      deps.relay.kick();
      return create(CalculateResponseSchema, { result: resultFromRow(inserted[0]), replayed: false });
    }
    // Lost a race with a concurrent request carrying the same key: answer as that request did.
    const winner = (await conn.execute(SELECT_BY_KEY_SQL, [principal.accountId.toString(), req.idempotencyKey ?? null])) as CalculationRow[];
    if (!winner[0]) throw rpcError(Code.Unavailable, 'transient_conflict', 'Concurrent write; retry with the same Idempotency-Key.');
    return replayOrConflict(winner[0], requestDigest);
  };
}

function replayOrConflict(row: CalculationRow, requestDigest: string) {
  if (row.request_digest !== requestDigest) {
    throw rpcError(Code.Aborted, 'idempotency_conflict', 'This Idempotency-Key was already used with a different request body or X-Source-ID.');
  }
  return create(CalculateResponseSchema, { result: resultFromRow(row), replayed: true });
}
