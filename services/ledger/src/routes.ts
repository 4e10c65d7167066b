import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import { CountSupplyEventsResponseSchema, SupplyLedgerService } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import { principalOf } from '@vat/platform/principal';
import { invalidArgument } from '@vat/platform/rpc-errors';
import { isValidDate } from '@vat/platform/http-inputs';
import type { ServiceDeps } from '@vat/platform/service-module';
import { SupplyEvent } from './entities/index';

export function routes(deps: ServiceDeps) {
  return (router: ConnectRouter) =>
    router.service(SupplyLedgerService, {
      async countSupplyEvents(req, ctx) {
        const { accountId } = principalOf(ctx);
        for (const d of [req.from, req.to]) if (d !== undefined && !isValidDate(d)) throw invalidArgument('invalid_date', 'dates must be YYYY-MM-DD.');
        const occurredAt: Record<string, Date> = {};
        if (req.from) occurredAt.$gte = new Date(`${req.from}T00:00:00Z`);
        if (req.to) occurredAt.$lt = new Date(Date.parse(`${req.to}T00:00:00Z`) + 86_400_000);
        const count = await deps.orm.em.fork().count(SupplyEvent, { accountId, ...(req.from || req.to ? { occurredAt } : {}) });
        return create(CountSupplyEventsResponseSchema, { count: BigInt(count) });
      },
    });
}
