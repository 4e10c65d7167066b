import type { ServiceModule } from '@vat/platform/service-module';
import { ledgerContext, type LedgerDeps } from './context';
import { ledgerEntities } from './entities/index';
import { migrations, MIGRATIONS_PATH } from './migrations/index';
import { routes } from './routes';

export const ledgerModule: ServiceModule<LedgerDeps> = {
  name: 'ledger',
  schema: 'ledger',
  entities: ledgerEntities,
  migrations,
  migrationsPath: MIGRATIONS_PATH,
  context: ledgerContext,
  routes,
};
