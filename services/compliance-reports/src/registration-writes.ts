import { Code, rpcError } from '@vat/platform/rpc-errors';
import type { ComplianceReportsDeps } from './context';
import type { ResolvedRegistration } from './domain/registration-rules';
import type { RegistrationRecord } from './repositories/tax-registrations';

/** Rows an account may keep per scheme, excluded ones included (the list is one unpaginated answer). */
export const MAX_REGISTRATIONS_PER_SCHEME = 500;

export function limitReached(scheme: string) {
  return rpcError(Code.FailedPrecondition, 'registration_limit_reached', `An account keeps at most ${MAX_REGISTRATIONS_PER_SCHEME} ${scheme} registrations, excluded ones included.`);
}

/** 409 naming the first (lowest id) unresolved row of the scheme whose window the write would overlap. */
export function overlapError(scheme: string, conflicts: RegistrationRecord[]) {
  const c = conflicts[0]!;
  const others = conflicts.length > 1 ? ` (and ${conflicts.length - 1} more: ${conflicts.slice(1).map((r) => r.id).join(', ')})` : '';
  return rpcError(
    Code.AlreadyExists,
    'registration_overlap',
    `The effective window overlaps ${scheme} registration ${c.id} (${c.effectiveFrom} to ${c.effectiveTo ?? 'open-ended'}, ${c.status})${others}; end that one before this window starts, exclude it, or change this window.`,
    { conflicting_registration_id: c.id.toString() },
  );
}

type IdentifierColumns = {
  vatRegistrationNumberMasked?: string | null;
  vatRegistrationNumberEncrypted?: Buffer | null;
  iossIntermediaryNumberMasked?: string | null;
  iossIntermediaryNumberEncrypted?: Buffer | null;
};

/** The identifier columns a resolved write sets: sealed values, nulls for cleared ones, nothing for kept ones. */
export function identifierColumns(deps: ComplianceReportsDeps, accountId: bigint, r: ResolvedRegistration): IdentifierColumns {
  const out: IdentifierColumns = {};
  if (r.vatRegistrationNumber !== undefined) {
    const s = r.vatRegistrationNumber === null ? null : deps.identifiers.seal(accountId, 'vat_registration_number', r.vatRegistrationNumber);
    out.vatRegistrationNumberMasked = s?.masked ?? null;
    out.vatRegistrationNumberEncrypted = s?.encrypted ?? null;
  }
  if (r.iossIntermediaryNumber !== undefined) {
    const s = r.iossIntermediaryNumber === null ? null : deps.identifiers.seal(accountId, 'ioss_intermediary_number', r.iossIntermediaryNumber);
    out.iossIntermediaryNumberMasked = s?.masked ?? null;
    out.iossIntermediaryNumberEncrypted = s?.encrypted ?? null;
  }
  return out;
}
