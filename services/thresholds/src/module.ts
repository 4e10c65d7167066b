import type { ServiceDeps, ServiceModule } from '@vat/platform/service-module';
import { supplyProjectionConsumer } from '@vat/platform/supply-projection';
import { thresholdEntities } from './entities/index';
import { migrations, MIGRATIONS_PATH } from './migrations/index';
import { routes } from './routes';
import { seedSmeThresholds, SmeThresholdStore } from './sme-store';

/** The thresholds service's deps: the platform's plus its reference-data store. */
export type ThresholdsDeps = ServiceDeps & { sme: SmeThresholdStore };

export const thresholdsModule: ServiceModule<ThresholdsDeps> = {
  name: 'thresholds',
  schema: 'thresholds',
  entities: thresholdEntities,
  migrations,
  migrationsPath: MIGRATIONS_PATH,
  context: (deps) => ({ ...deps, sme: new SmeThresholdStore(deps.pool) }),
  // Stored and in memory before the service counts as started: /ready means loaded.
  seed: async (deps) => {
    const shipped = await seedSmeThresholds(deps.pool, deps.now());
    deps.sme.remember(shipped.digest, shipped.rows);
    await deps.sme.rows();
  },
  routes,
  consumers: (deps) => [supplyProjectionConsumer(deps.pool, 'thresholds', 'thresholds-supply-projection')],
  readiness: async (deps) => {
    const rows = await deps.sme.rows().then((r) => r.length, () => 0);
    return [{ name: 'thresholds.reference_data', ok: rows > 0, detail: rows > 0 ? `${rows} SME threshold rows` : 'SME thresholds not loaded' }];
  },
};
