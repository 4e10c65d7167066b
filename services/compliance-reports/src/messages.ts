import type { TaxRegistration as TaxRegistrationMsg } from '@vat/gen/vat/compliance_reports/v1/resources_pb';
import type { Coverage } from './domain/coverage';
import type { RegistrationRecord } from './repositories/tax-registrations';

/** The one mapping of a stored row to its message: masked identifiers only, with its coverage. */
export function registrationMessage(r: RegistrationRecord, coverage: Coverage): TaxRegistrationMsg {
  return {
    $typeName: 'vat.compliance_reports.v1.TaxRegistration',
    id: r.id,
    schemeType: r.schemeType,
    memberStateIdentification: r.memberStateIdentification,
    vatRegistrationNumberMasked: r.vatRegistrationNumberMasked ?? undefined,
    iossIntermediaryName: r.iossIntermediaryName ?? undefined,
    iossIntermediaryNumberMasked: r.iossIntermediaryNumberMasked ?? undefined,
    effectiveFrom: r.effectiveFrom,
    effectiveTo: r.effectiveTo ?? undefined,
    status: r.status,
    countsTowardCoverage: coverage.counts,
    coverageStatus: coverage.status,
    conflictingRegistrationIds: coverage.conflictingIds,
  };
}
