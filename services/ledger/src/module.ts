import type { ServiceModule } from '@vat/platform/service-module';
import { ledgerEntities } from './entities/index';
import { migrations, MIGRATIONS_PATH } from './migrations/index';
import { routes } from './routes';

export const ledgerModule: ServiceModule = {
  name: 'ledger',
  schema: 'ledger',
  entities: ledgerEntities,
  migrations,
  migrationsPath: MIGRATIONS_PATH,
  routes,
};
