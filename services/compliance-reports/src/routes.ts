import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import { ListTaxRegistrationsResponseSchema, TaxRegistrationService } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { principalOf } from '@vat/platform/principal';
import type { ServiceDeps } from '@vat/platform/service-module';
import { TaxRegistration } from './entities/index';

export function routes(deps: ServiceDeps) {
  return (router: ConnectRouter) =>
    router.service(TaxRegistrationService, {
      async listTaxRegistrations(_req, ctx) {
        const { accountId } = principalOf(ctx);
        const rows = await deps.orm.em.fork().find(TaxRegistration, { accountId }, { orderBy: { effectiveFrom: 'desc', id: 'desc' } });
        return create(ListTaxRegistrationsResponseSchema, {
          items: rows.map((r) => ({
            id: r.id,
            schemeType: r.schemeType,
            memberStateIdentification: r.memberStateIdentification,
            vatRegistrationNumberMasked: r.vatRegistrationNumberMasked ?? undefined,
            iossIntermediaryName: r.iossIntermediaryName ?? undefined,
            iossIntermediaryNumberMasked: r.iossIntermediaryNumberMasked ?? undefined,
            effectiveFrom: r.effectiveFrom,
            effectiveTo: r.effectiveTo ?? undefined,
            status: r.status,
          })),
        });
      },
    });
}
