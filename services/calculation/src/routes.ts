import type { ConnectRouter } from '@connectrpc/connect';
import { CalculationService, ExchangeRateService, TaxClassService } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import type { ServiceDeps } from '@vat/platform/service-module';
import { createCalculate } from './handlers/calculate';
import { exchangeRateService } from './handlers/exchange-rates';
import { taxClassService } from './handlers/tax-classes';
import { transactionHandlers } from './handlers/transactions';
import { sourceService } from './handlers/sources';
import type { CalculationStores } from './stores';

export function routes(deps: ServiceDeps, stores: CalculationStores) {
  const tx = transactionHandlers(deps, stores.fx, stores.db);
  return (router: ConnectRouter) => {
    router.service(CalculationService, {
      calculate: createCalculate(deps, stores.rates),
      getTransaction: tx.getTransaction,
      listTransactions: tx.listTransactions,
      replayTransaction: tx.replayTransaction,
      exportTransactions: tx.exportTransactions,
      aggregateTransactions: tx.aggregateTransactions,
    });
    router.service(TaxClassService, taxClassService(deps, stores.rates));
    router.service(ExchangeRateService, exchangeRateService(stores.fx));
    sourceService(deps)(router);
  };
}
