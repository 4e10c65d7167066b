import { ReferenceProjection } from '@vat/platform/reference-projection';
import type { ServiceDeps } from '@vat/platform/service-module';
import { CalculationSummaries } from './repositories/calculation-summaries';
import { ClassificationCorrectionRepository } from './repositories/classification-corrections';
import { ClassificationDecisionRepository } from './repositories/classification-decisions';
import { ReturnPeriodFenceRepository } from './repositories/return-period-fences';
import { SupplyEventRepository } from './repositories/supply-events';

/** The ledger's deps: the platform's plus its repositories and its projections of calculation's data (it calls no service). */
export type LedgerDeps = ServiceDeps & {
  supplyEvents: SupplyEventRepository;
  decisions: ClassificationDecisionRepository;
  corrections: ClassificationCorrectionRepository;
  fences: ReturnPeriodFenceRepository;
  calculationSummaries: CalculationSummaries;
  reference: ReferenceProjection;
};

export function ledgerContext(deps: ServiceDeps): LedgerDeps {
  return {
    ...deps,
    supplyEvents: new SupplyEventRepository(deps.pool),
    decisions: new ClassificationDecisionRepository(deps.pool),
    corrections: new ClassificationCorrectionRepository(deps.pool),
    fences: new ReturnPeriodFenceRepository(deps.pool),
    calculationSummaries: new CalculationSummaries(deps.pool),
    reference: new ReferenceProjection(deps.pool, 'ledger'),
  };
}
