import type { ServiceDeps } from '@vat/platform/service-module';
import { ClassificationDecisionRepository } from './repositories/classification-decisions';
import { SupplyEventRepository } from './repositories/supply-events';

/** The services whose RPCs it calls (the module's `uses`). */
type Uses = 'calculation';

/** The ledger's deps: the platform's plus its repositories. */
export type LedgerDeps = ServiceDeps<Uses> & { supplyEvents: SupplyEventRepository; decisions: ClassificationDecisionRepository };

export function ledgerContext(deps: ServiceDeps<Uses>): LedgerDeps {
  return { ...deps, supplyEvents: new SupplyEventRepository(deps.pool), decisions: new ClassificationDecisionRepository(deps.pool) };
}
