import type { VatNumberCheck } from '@vat/gen/vat/compliance_reports/v1/resources_pb';
import type { VatNumberCheckRecord } from './repositories/vat-number-checks';

/** The one mapping of a stored check to its message: the number masked, never in clear. */
export function vatNumberCheckMessage(r: VatNumberCheckRecord): VatNumberCheck {
  return {
    $typeName: 'vat.compliance_reports.v1.VatNumberCheck',
    id: r.id,
    vatNumberMasked: r.vatNumberMasked,
    memberState: r.memberState,
    result: r.result,
    reason: r.reason ?? undefined,
    checkedAt: r.checkedAt.toISOString(),
    viesRequestDate: r.viesRequestDate ?? undefined,
    consultationNumber: r.consultationNumber ?? undefined,
    name: r.name ?? undefined,
    address: r.address ?? undefined,
    requesterVatNumberMasked: r.requesterVatNumberMasked ?? undefined,
    memberStateAvailability: r.memberStateAvailability,
    attempts: r.attempts,
  };
}
