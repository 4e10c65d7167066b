import type { ServiceModule } from '@vat/platform/service-module';
import { calculationEntities } from './entities/index';
import { migrations, MIGRATIONS_PATH } from './migrations/index';
import { routes } from './routes';

export const calculationModule: ServiceModule = {
  name: 'calculation',
  schema: 'calculation',
  entities: calculationEntities,
  migrations,
  migrationsPath: MIGRATIONS_PATH,
  routes,
};
