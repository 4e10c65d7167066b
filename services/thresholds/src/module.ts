import { serviceModule } from '@vat/platform/service-module';
import { thresholdsContext } from './context';
import { thresholdEntities } from './entities/index';
import { migrations, MIGRATIONS_PATH } from './migrations/index';
import { overdueNotificationConsumer, sourceProfileConsumer, thresholdsDecisionConsumer, thresholdsProjectionConsumer, vatNumberCheckConsumer } from './projection';
import { seedArticle59cRelease } from './repositories/releases';
import { routes } from './routes';
import { seedSmeThresholds } from './sme-store';

export const thresholdsModule = serviceModule({
  name: 'thresholds',
  uses: ['ledger'],
  schema: 'thresholds',
  entities: thresholdEntities,
  migrations,
  migrationsPath: MIGRATIONS_PATH,
  context: thresholdsContext,
  // Stored and in memory before the service counts as started: /ready means loaded.
  seed: async (deps) => {
    const shipped = await seedSmeThresholds(deps.pool, deps.now());
    deps.sme.remember(shipped.digest, shipped.rows);
    await deps.sme.rows();
    await seedArticle59cRelease(deps.pool, deps.now());
    await deps.releases.current();
  },
  routes,
  consumers: (deps) => [thresholdsProjectionConsumer(deps), thresholdsDecisionConsumer(deps), sourceProfileConsumer(deps), overdueNotificationConsumer(deps), vatNumberCheckConsumer(deps)],
  readiness: async (deps) => {
    const rows = await deps.sme.rows().then((r) => r.length, () => 0);
    const release = await deps.releases.current().then((r) => r.version, () => undefined);
    return [
      { name: 'thresholds.reference_data', ok: rows > 0, detail: rows > 0 ? `${rows} SME threshold rows` : 'SME thresholds not loaded' },
      { name: 'thresholds.article59c_release', ok: release !== undefined, detail: release ?? 'Article 59c threshold release not loaded' },
    ];
  },
});
