import { serviceModule } from '@vat/platform/service-module';
import { classificationContext } from './context';
import { classificationEntities } from './entities/index';
import { migrations, MIGRATIONS_PATH } from './migrations/index';
import { reprocessingConsumer } from './reprocessing';
import { routes } from './routes';

export const classificationModule = serviceModule({
  name: 'classification',
  uses: ['ledger'],
  schema: 'classification',
  entities: classificationEntities,
  migrations,
  migrationsPath: MIGRATIONS_PATH,
  context: classificationContext,
  routes,
  consumers: (deps) => [reprocessingConsumer(deps)],
});
