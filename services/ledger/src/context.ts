import type { ServiceDeps } from '@vat/platform/service-module';
import { SupplyEventRepository } from './repositories/supply-events';

/** The ledger's deps: the platform's plus its repository. */
export type LedgerDeps = ServiceDeps & { supplyEvents: SupplyEventRepository };

export function ledgerContext(deps: ServiceDeps): LedgerDeps {
  return { ...deps, supplyEvents: new SupplyEventRepository(deps.pool) };
}
