import type { ServiceModule } from '@vat/platform/service-module';
import { thresholdEntities } from './entities/index';
import { migrations, MIGRATIONS_PATH } from './migrations/index';
import { routes } from './routes';
import { seedSmeThresholds, SmeThresholdStore } from './sme-store';

const stores = new WeakMap<object, SmeThresholdStore>();
const storeFor = (orm: object & ConstructorParameters<typeof SmeThresholdStore>[0]) => {
  let s = stores.get(orm);
  if (!s) stores.set(orm, (s = new SmeThresholdStore(orm)));
  return s;
};

export const thresholdsModule: ServiceModule = {
  name: 'thresholds',
  schema: 'thresholds',
  entities: thresholdEntities,
  migrations,
  migrationsPath: MIGRATIONS_PATH,
  seed: async (deps) => {
    await seedSmeThresholds(deps.orm, deps.now());
  },
  routes: (deps) => routes(deps, storeFor(deps.orm)),
  readiness: async (deps) => {
    const rows = await storeFor(deps.orm).rows().then((r) => r.length, () => 0);
    return [{ name: 'thresholds.reference_data', ok: rows > 0, detail: rows > 0 ? `${rows} SME threshold rows` : 'SME thresholds not loaded' }];
  },
};
