import type { ConnectRouter } from '@connectrpc/connect';
import { SupplyLedgerService } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import { bindHandlers } from '@vat/platform/service-module';
import type { LedgerDeps } from './context';
import { appendClassificationDecisions } from './handlers/append-classification-decisions';
import { fenceReturnPeriod } from './handlers/fence-return-period';
import { listClassificationCorrections } from './handlers/list-classification-corrections';
import { resolveClassificationCorrection } from './handlers/resolve-classification-correction';
import { commitSupplyEvents } from './handlers/commit-supply-events';
import { countSupplyEvents } from './handlers/count-supply-events';
import { getLedgerHead } from './handlers/get-ledger-head';
import { getSupplyEvent } from './handlers/get-supply-event';
import { listProductSupplyEvents } from './handlers/list-product-supply-events';
import { listSupplyEvents } from './handlers/list-supply-events';

export function routes(deps: LedgerDeps) {
  return (router: ConnectRouter) => router.service(SupplyLedgerService, bindHandlers(deps, { commitSupplyEvents, getSupplyEvent, listSupplyEvents, getLedgerHead, countSupplyEvents, listProductSupplyEvents, appendClassificationDecisions, fenceReturnPeriod, listClassificationCorrections, resolveClassificationCorrection }));
}
