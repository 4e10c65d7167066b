import type { ConnectRouter } from '@connectrpc/connect';
import { CalculationService, ExchangeRateService, GovernedCalculationService, SourceService, TaxClassService } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { bindHandlers } from '@vat/platform/service-module';
import type { CalculationDeps } from './context';
import { aggregateTransactions } from './handlers/aggregate-transactions';
import { calculate } from './handlers/calculate';
import { calculateGoverned } from './handlers/calculate-governed';
import { getDecision } from './handlers/get-decision';
import { listDecisions } from './handlers/list-decisions';
import { createSource } from './handlers/create-source';
import { exportTransactions } from './handlers/export-transactions';
import { getExchangeRates } from './handlers/get-exchange-rates';
import { getTaxClass } from './handlers/get-tax-class';
import { getTransaction } from './handlers/get-transaction';
import { listRateHistories } from './handlers/list-rate-histories';
import { listRates } from './handlers/list-rates';
import { listRatesInForce } from './handlers/list-rates-in-force';
import { listSources } from './handlers/list-sources';
import { listTaxClasses } from './handlers/list-tax-classes';
import { listTransactions } from './handlers/list-transactions';
import { listUnknownSources } from './handlers/list-unknown-sources';
import { lookupCalculations } from './handlers/lookup-calculations';
import { replayTransaction } from './handlers/replay-transaction';
import { updateSource } from './handlers/update-source';

export function routes(deps: CalculationDeps) {
  return (router: ConnectRouter) => {
    router.service(CalculationService, bindHandlers(deps, { calculate, getTransaction, listTransactions, replayTransaction, exportTransactions, aggregateTransactions, lookupCalculations }));
    router.service(GovernedCalculationService, bindHandlers(deps, { calculateGoverned, getDecision, listDecisions }));
    router.service(SourceService, bindHandlers(deps, { listSources, createSource, updateSource, listUnknownSources }));
    router.service(TaxClassService, bindHandlers(deps, { listTaxClasses, getTaxClass, listRates, listRateHistories, listRatesInForce }));
    router.service(ExchangeRateService, bindHandlers(deps, { getExchangeRates }));
  };
}
