import { PgChangeListener, SoleWriterFeed } from '@vat/platform/change-listener';
import type { ServiceDeps } from '@vat/platform/service-module';
import { FxStore } from './reference/fx-store';
import { RateStore } from './reference/rate-store';
import { CalculationRepository, GROUPS_IN_FLIGHT_ON_SERVER } from './repositories/calculations';
import { DecisionRepository } from './repositories/decisions';
import { TreatmentReleaseRepository } from './repositories/treatment-releases';
import { SourceProfileRepository } from './repositories/source-profiles';
import { sourceProfileChangedEvent } from './events';
import { ReferencePublications } from './repositories/reference-publications';

/** The channel on which a committed change of an account's source profiles reaches every calculation process. */
export const SOURCE_PROFILE_CHANNEL = 'vat_calculation_source_profiles';

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
    // The embedded database runs one statement at a time: one group insert in flight (GROUPS_IN_FLIGHT_ON_SERVER).
    calculations: new CalculationRepository(deps.pool, deps.config.databaseUrl === undefined ? 1 : GROUPS_IN_FLIGHT_ON_SERVER),
    sourceProfiles: new SourceProfileRepository(deps.pool, sourceProfileChangedEvent, (cache) =>
      // On the embedded database this process is the only writer (DATA_DIR is exclusive); on a PostgreSQL server
      // other replicas write too, and tell this one through LISTEN/NOTIFY.
      deps.config.databaseUrl === undefined
        ? new SoleWriterFeed()
        : new PgChangeListener({ url: deps.databaseUrl, pool: deps.pool, channel: SOURCE_PROFILE_CHANNEL, applicationName: 'vat-calculation-listen', onChange: (k) => cache.changed(k), onReset: () => cache.reset(), log: deps.log }),
    ),
    decisions: new DecisionRepository(deps.pool),
    treatments: new TreatmentReleaseRepository(deps.pool),
    rates: new RateStore(deps.pool),
    fx: new FxStore(deps.pool),
    publications: new ReferencePublications(deps.pool),
  };
}
