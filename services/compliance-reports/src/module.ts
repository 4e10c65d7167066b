import { classificationDecisionConsumer, supplyProjectionConsumer } from '@vat/platform/supply-projection';
import { referenceDataConsumer } from '@vat/platform/reference-projection';
import { serviceModule } from '@vat/platform/service-module';
import { sourceProfileConsumer } from '@vat/platform/source-profile-projection';
import { complianceReportsContext } from './context';
import { complianceEntities } from './entities/index';
import { migrations, MIGRATIONS_PATH } from './migrations/index';
import { overdueCheckTask } from './overdue-check';
import { routes } from './routes';

export const complianceReportsModule = serviceModule({
  name: 'compliance-reports',
  // What it needs of calculation (rates, ECB days, source-profile defaults) it keeps in its own projections.
  uses: ['ledger'],
  schema: 'compliance_reports',
  entities: complianceEntities,
  migrations,
  migrationsPath: MIGRATIONS_PATH,
  context: complianceReportsContext,
  // VIES checks stored before `VatNumberChecked` existed are announced once (thresholds needs every check).
  seed: async (deps) => {
    const announced = await deps.vatNumberChecks.announceBacklog(deps.now());
    if (announced > 0) deps.log.info({ announced }, 'announced VIES checks stored before VatNumberChecked');
  },
  routes,
  // Decisions travel on a durable of their own (it starts at the beginning of the stream, so decisions
  // published before this consumer existed arrive too); a decision that overtakes its fact is retried.
  consumers: (deps) => [
    supplyProjectionConsumer(deps.pool, 'compliance_reports', 'compliance-reports-supply-projection'),
    classificationDecisionConsumer(deps.pool, 'compliance_reports', 'compliance-reports-classification-decisions'),
    referenceDataConsumer(deps.pool, 'compliance_reports', 'compliance-reports-reference-data', deps.now),
    sourceProfileConsumer(deps.pool, deps.profileDefaults, 'compliance-reports-source-profiles'),
  ],
  // Return periods that become overdue are announced without anyone reading the filing calendar.
  background: (deps) => [overdueCheckTask(deps)],
  readiness: (deps) => deps.reference.probes('compliance-reports'),
  // A projection still incomplete once the bus is open (a fresh or recreated NATS stream) asks calculation for it.
  started: (deps) => deps.referenceRequests.start(),
  stop: (deps) => deps.referenceRequests.stop(),
});
