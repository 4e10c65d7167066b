import { classificationDecisionConsumer, supplyProjectionConsumer } from '@vat/platform/supply-projection';
import { serviceModule } from '@vat/platform/service-module';
import { complianceReportsContext } from './context';
import { complianceEntities } from './entities/index';
import { migrations, MIGRATIONS_PATH } from './migrations/index';
import { routes } from './routes';

export const complianceReportsModule = serviceModule({
  name: 'compliance-reports',
  uses: ['calculation', 'ledger'],
  schema: 'compliance_reports',
  entities: complianceEntities,
  migrations,
  migrationsPath: MIGRATIONS_PATH,
  context: complianceReportsContext,
  routes,
  // Decisions travel on a durable of their own (it starts at the beginning of the stream, so decisions
  // published before this consumer existed arrive too); a decision that overtakes its fact is retried.
  consumers: (deps) => [
    supplyProjectionConsumer(deps.pool, 'compliance_reports', 'compliance-reports-supply-projection'),
    classificationDecisionConsumer(deps.pool, 'compliance_reports', 'compliance-reports-classification-decisions'),
  ],
});
