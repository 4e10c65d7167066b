import type { ServiceDeps } from '@vat/platform/service-module';
import { ClassificationCorrectionRepository } from './repositories/classification-corrections';
import { ClassificationDecisionRepository } from './repositories/classification-decisions';
import { ReturnPeriodFenceRepository } from './repositories/return-period-fences';
import { SupplyEventRepository } from './repositories/supply-events';

/** The services whose RPCs it calls (the module's `uses`). */
type Uses = 'calculation';

/** The ledger's deps: the platform's plus its repositories. */
export type LedgerDeps = ServiceDeps<Uses> & {
  supplyEvents: SupplyEventRepository;
  decisions: ClassificationDecisionRepository;
  corrections: ClassificationCorrectionRepository;
  fences: ReturnPeriodFenceRepository;
};

export function ledgerContext(deps: ServiceDeps<Uses>): LedgerDeps {
  return {
    ...deps,
    supplyEvents: new SupplyEventRepository(deps.pool),
    decisions: new ClassificationDecisionRepository(deps.pool),
    corrections: new ClassificationCorrectionRepository(deps.pool),
    fences: new ReturnPeriodFenceRepository(deps.pool),
  };
}
