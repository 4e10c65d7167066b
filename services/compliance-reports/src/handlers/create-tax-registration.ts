import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { CreateTaxRegistrationResponseSchema, type CreateTaxRegistrationRequest } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { callerOf } from '@vat/platform/principal';
import type { ComplianceReportsDeps } from '../context';
import { coverageOf, overlappingRows } from '../domain/coverage';
import { checkSchemeType, registrationChanges, requireCreateFields, resolveRegistration } from '../domain/registration-rules';
import { registrationMessage } from '../messages';
import { identifierColumns, limitReached, MAX_REGISTRATIONS_PER_SCHEME, overlapError } from '../registration-writes';

const given = (v: string) => (v === '' ? undefined : v);

/**
 * Creates a registration under the (account, scheme) lock, so two overlapping creates cannot both
 * pass the overlap check. Full identifiers are encrypted before the transaction starts.
 */
export async function createTaxRegistration(deps: ComplianceReportsDeps, req: CreateTaxRegistrationRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  const scheme = checkSchemeType(req.schemeType);
  const changes = registrationChanges({ ...req, memberStateIdentification: given(req.memberStateIdentification), effectiveFrom: given(req.effectiveFrom), status: given(req.status) });
  requireCreateFields(changes);
  const resolved = resolveRegistration(scheme, undefined, changes);
  const identifiers = identifierColumns(deps, accountId, resolved);
  const { row, rows } = await deps.registrations.withSchemeLock(accountId, scheme, async (locked) => {
    const rows = await locked.rows();
    if (rows.length >= MAX_REGISTRATIONS_PER_SCHEME) throw limitReached(scheme);
    const conflicts = overlappingRows({ schemeType: scheme, ...resolved }, rows);
    if (conflicts.length > 0) throw overlapError(scheme, conflicts as typeof rows);
    const row = await locked.create(
      {
        schemeType: scheme,
        memberStateIdentification: resolved.memberStateIdentification,
        vatRegistrationNumberMasked: identifiers.vatRegistrationNumberMasked ?? null,
        vatRegistrationNumberEncrypted: identifiers.vatRegistrationNumberEncrypted ?? null,
        iossIntermediaryName: resolved.iossIntermediaryName,
        iossIntermediaryNumberMasked: identifiers.iossIntermediaryNumberMasked ?? null,
        iossIntermediaryNumberEncrypted: identifiers.iossIntermediaryNumberEncrypted ?? null,
        effectiveFrom: resolved.effectiveFrom,
        effectiveTo: resolved.effectiveTo,
        status: resolved.status,
      },
      deps.now(),
    );
    return { row, rows };
  });
  return create(CreateTaxRegistrationResponseSchema, { registration: registrationMessage(row, coverageOf(row, [...rows, row])) });
}
