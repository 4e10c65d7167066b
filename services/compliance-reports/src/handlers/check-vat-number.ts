import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { CheckVatNumberResponseSchema, type CheckVatNumberRequest } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { callerOf } from '@vat/platform/principal';
import { vatNumberDigest } from '@vat/platform/vat-number-digest';
import type { ComplianceReportsDeps } from '../context';
import { checkVatNumberFormat, parseVatNumberInput } from '../domain/vat-number-format';
import type { NewVatNumberCheck } from '../repositories/vat-number-checks';
import { vatNumberCheckMessage } from '../vat-number-messages';
import type { ViesAnswer } from '../vies/vies-client';

const DAY_MS = 86_400_000;

/** The account's own VAT number to send as requester: its Union OSS registration in force today, else its latest. */
async function requesterOf(deps: ComplianceReportsDeps, accountId: bigint, today: string) {
  const rows = (await deps.registrations.list(accountId)).filter((r) => r.schemeType === 'union_oss' && r.vatRegistrationNumberEncrypted && r.status !== 'excluded');
  const inForce = rows.find((r) => r.effectiveFrom <= today && (!r.effectiveTo || r.effectiveTo >= today)) ?? rows[0];
  if (!inForce) return undefined;
  const number = deps.identifiers.open(accountId, 'vat_registration_number', inForce.vatRegistrationNumberEncrypted as Buffer);
  return { state: number.slice(0, 2) === 'GR' ? 'EL' : number.slice(0, 2), number: number.slice(2), masked: inForce.vatRegistrationNumberMasked };
}

/** What an answer of VIES stores: a refusal of its own syntax check is `format_invalid`, never `invalid`. */
function outcomeOf(a: ViesAnswer): Pick<NewVatNumberCheck, 'result' | 'reason' | 'viesRequestDate' | 'consultationNumber' | 'name' | 'address' | 'attempts'> {
  if (a.kind === 'unavailable' || a.kind === 'refused') {
    const result: NewVatNumberCheck['result'] = a.kind === 'refused' && a.reason === 'INVALID_INPUT' ? 'format_invalid' : 'unavailable';
    return { result, reason: a.reason, viesRequestDate: null, consultationNumber: null, name: null, address: null, attempts: a.attempts };
  }
  return { result: a.kind, reason: null, viesRequestDate: a.requestDate, consultationNumber: a.requestIdentifier, name: a.name, address: a.address, attempts: a.attempts };
}

/**
 * Checks a customer's VAT number: offline format, then a reusable earlier answer, then VIES with the
 * account's own number as requester (so VIES issues a consultation number). Every answer is stored, with
 * its `VatNumberChecked` event (thresholds keeps the evidence of b2b Article 59c candidates from it).
 * No transaction is held while VIES is asked.
 */
export async function checkVatNumber(deps: ComplianceReportsDeps, req: CheckVatNumberRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  const number = parseVatNumberInput(req.vatNumber);
  const format = checkVatNumberFormat(number);
  const digest = vatNumberDigest(deps.vatNumberDigestKey, number);
  const sealed = deps.identifiers.sealCustomerVatNumber(accountId, number);
  const now = deps.now();
  const base = { accountId, vatNumberDigest: digest, vatNumberMasked: sealed.masked, vatNumberEncrypted: sealed.encrypted, memberState: format.state };

  if (!format.ok) {
    const row = await deps.vatNumberChecks.insert({ ...base, result: 'format_invalid', reason: format.reason, checkedAt: now, viesRequestDate: null, consultationNumber: null, name: null, address: null, requesterVatNumberMasked: null, memberStateAvailability: 'unknown', attempts: 0 });
    deps.relay.kick();
    return create(CheckVatNumberResponseSchema, { check: vatNumberCheckMessage(row), reused: false });
  }
  const reuseDays = deps.config.vies.reuseDays;
  if (reuseDays > 0) {
    const earlier = await deps.vatNumberChecks.latestDefinitive(accountId, digest, new Date(now.getTime() - reuseDays * DAY_MS));
    if (earlier) return create(CheckVatNumberResponseSchema, { check: vatNumberCheckMessage(earlier), reused: true });
  }
  const requester = await requesterOf(deps, accountId, now.toISOString().slice(0, 10));
  const availability = await deps.vies.availability(format.state);
  // check-status says the Member State is down: answer at once rather than spend retries on it.
  let answer: ViesAnswer =
    availability === 'Unavailable' ? { kind: 'unavailable', reason: 'MS_UNAVAILABLE', attempts: 0 } : await deps.vies.check(format.state, format.body, requester);
  // VIES refused our requester (INVALID_REQUESTER_INFO): the number is still checked, without consultation number.
  let sentRequester = requester;
  if (answer.kind === 'refused' && answer.reason === 'INVALID_REQUESTER_INFO') {
    const again = await deps.vies.check(format.state, format.body);
    answer = { ...again, attempts: again.attempts + answer.attempts };
    sentRequester = undefined;
  }
  const row = await deps.vatNumberChecks.insert({
    ...base,
    ...outcomeOf(answer),
    checkedAt: deps.now(),
    requesterVatNumberMasked: sentRequester?.masked ?? null,
    memberStateAvailability: availability,
  });
  deps.relay.kick();
  return create(CheckVatNumberResponseSchema, { check: vatNumberCheckMessage(row), reused: false });
}
