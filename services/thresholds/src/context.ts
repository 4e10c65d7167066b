import type { ServiceDeps } from '@vat/platform/service-module';
import { Article59cRepository } from './repositories/article59c';
import { Article59cStatusRepository } from './repositories/article59c-status';
import { ReleaseStore } from './repositories/releases';
import { SourceProfileDefaults } from '@vat/platform/source-profile-projection';
import { StatusSnapshots } from './repositories/status-snapshots';
import { ThresholdNotificationRepository } from './repositories/threshold-notifications';
import { SmeThresholdStore } from './sme-store';

/** The services whose RPCs it calls (the module's `uses`). */
type Uses = 'ledger';

/** The thresholds service's deps: the platform's plus its reference-data stores and repositories. */
export type ThresholdsDeps = ServiceDeps<Uses> & {
  sme: SmeThresholdStore;
  releases: ReleaseStore;
  article59c: Article59cRepository;
  article59cStatus: Article59cStatusRepository;
  notifications: ThresholdNotificationRepository;
  statusSnapshots: StatusSnapshots;
  profileDefaults: SourceProfileDefaults;
};

export function thresholdsContext(deps: ServiceDeps<Uses>): ThresholdsDeps {
  const article59cStatus = new Article59cStatusRepository(deps.pool);
  return {
    ...deps,
    sme: new SmeThresholdStore(deps.pool),
    releases: new ReleaseStore(deps.pool),
    article59c: new Article59cRepository(deps.pool, deps.config.vies.reuseDays),
    article59cStatus,
    notifications: new ThresholdNotificationRepository(deps.pool),
    statusSnapshots: new StatusSnapshots(deps.pool, article59cStatus),
    profileDefaults: new SourceProfileDefaults(deps.pool, 'thresholds'),
  };
}
