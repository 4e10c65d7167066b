import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { UpdateTaxRegistrationResponseSchema, type UpdateTaxRegistrationRequest } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { isRowId } from '@vat/platform/http-inputs';
import { callerOf } from '@vat/platform/principal';
import { invalidArgument, notFound } from '@vat/platform/rpc-errors';
import type { ComplianceReportsDeps } from '../context';
import { coverageOf, overlappingRows } from '../domain/coverage';
import type { SchemeType } from '../domain/identifiers';
import { registrationChanges, resolveRegistration } from '../domain/registration-rules';
import { registrationMessage } from '../messages';
import { identifierColumns, overlapError } from '../registration-writes';

const notFoundError = () => notFound('registration_not_found', 'No such tax registration.');

/**
 * Partial update under the (account, scheme) lock. The row as it will be stored must pass every
 * rule a create passes, overlap included (unless it is excluded), so no sequence of updates can
 * produce an overlap the write rule refuses. A malformed or foreign id is simply not found.
 */
export async function updateTaxRegistration(deps: ComplianceReportsDeps, req: UpdateTaxRegistrationRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  if (!isRowId(req.id)) throw notFoundError();
  if (req.schemeType !== undefined) throw invalidArgument('scheme_type_immutable', 'scheme_type cannot change; exclude this registration and create a new one for the other scheme.');
  const changes = registrationChanges(req);
  const id = BigInt(req.id);
  const scheme = (await deps.registrations.schemeOf(accountId, id)) as SchemeType | undefined;
  if (!scheme) throw notFoundError();
  const { row, rows } = await deps.registrations.withSchemeLock(accountId, scheme, async (locked) => {
    const rows = await locked.rows();
    const row = rows.find((r) => r.id === id);
    if (!row) throw notFoundError();
    const resolved = resolveRegistration(scheme, { ...row, hasVatRegistrationNumber: row.vatRegistrationNumberEncrypted != null, hasIossIntermediaryNumber: row.iossIntermediaryNumberEncrypted != null }, changes);
    const conflicts = overlappingRows({ id, schemeType: scheme, ...resolved }, rows);
    if (conflicts.length > 0) throw overlapError(scheme, conflicts as typeof rows);
    const updated = await locked.update(
      id,
      {
        ...identifierColumns(deps, accountId, resolved),
        memberStateIdentification: resolved.memberStateIdentification,
        iossIntermediaryName: resolved.iossIntermediaryName,
        effectiveFrom: resolved.effectiveFrom,
        effectiveTo: resolved.effectiveTo,
        status: resolved.status,
      },
      deps.now(),
    );
    return { row: updated, rows: rows.map((r) => (r.id === id ? updated : r)) };
  });
  return create(UpdateTaxRegistrationResponseSchema, { registration: registrationMessage(row, coverageOf(row, rows)) });
}
