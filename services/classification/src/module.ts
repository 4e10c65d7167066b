import type { ServiceModule } from '@vat/platform/service-module';
import { classificationEntities } from './entities/index';
import { migrations, MIGRATIONS_PATH } from './migrations/index';
import { routes } from './routes';

export const classificationModule: ServiceModule = {
  name: 'classification',
  schema: 'classification',
  entities: classificationEntities,
  migrations,
  migrationsPath: MIGRATIONS_PATH,
  context: (deps) => deps,
  routes,
};
