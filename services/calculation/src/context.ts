import type { ServiceDeps } from '@vat/platform/service-module';
import { FxStore } from './reference/fx-store';
import { RateStore } from './reference/rate-store';
import { CalculationRepository } from './repositories/calculations';
import { DecisionRepository } from './repositories/decisions';
import { TreatmentReleaseRepository } from './repositories/treatment-releases';
import { SourceProfileRepository } from './repositories/source-profiles';
import { sourceProfileChangedEvent } from './events';
import { ReferencePublications } from './repositories/reference-publications';

/** The services whose RPCs it calls (the module's `uses`). */
type Uses = 'classification' | 'thresholds' | 'compliance-reports';

/** The calculation service's deps: the platform's plus its repositories and reference stores. */
export type CalculationDeps = ServiceDeps<Uses> & {
  calculations: CalculationRepository;
  sourceProfiles: SourceProfileRepository;
  decisions: DecisionRepository;
  treatments: TreatmentReleaseRepository;
  rates: RateStore;
  fx: FxStore;
  publications: ReferencePublications;
};

export function calculationContext(deps: ServiceDeps<Uses>): CalculationDeps {
  return {
    ...deps,
    calculations: new CalculationRepository(deps.pool),
    sourceProfiles: new SourceProfileRepository(deps.pool, sourceProfileChangedEvent),
    decisions: new DecisionRepository(deps.pool),
    treatments: new TreatmentReleaseRepository(deps.pool),
    rates: new RateStore(deps.pool),
    fx: new FxStore(deps.pool),
    publications: new ReferencePublications(deps.pool),
  };
}
