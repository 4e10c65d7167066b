import type { ServiceModule } from '@vat/platform/service-module';
import { complianceEntities } from './entities/index';
import { migrations, MIGRATIONS_PATH } from './migrations/index';
import { routes } from './routes';

export const complianceReportsModule: ServiceModule = {
  name: 'compliance-reports',
  schema: 'compliance_reports',
  entities: complianceEntities,
  migrations,
  migrationsPath: MIGRATIONS_PATH,
  routes,
};
