import type { ServiceModule } from '@vat/platform/service-module';
import { calculationEntities } from './entities/index';
import { migrations, MIGRATIONS_PATH } from './migrations/index';
import { seedEcbRates, seedVatRates } from './reference/seed';
import { routes } from './routes';
import { storesFor } from './stores';

export const calculationModule: ServiceModule = {
  name: 'calculation',
  schema: 'calculation',
  entities: calculationEntities,
  migrations,
  migrationsPath: MIGRATIONS_PATH,
  seed: async (deps) => {
    const rates = await seedVatRates(deps.orm, deps.now());
    if (rates.loaded) deps.log.info({ digest: rates.digest }, 'VAT rate release loaded');
    const started = Date.now();
    const ecb = await seedEcbRates(deps.orm, deps.databaseUrl);
    if (ecb.loaded) deps.log.info({ ms: Date.now() - started }, 'ECB reference rates loaded');
    const stores = storesFor(deps);
    await stores.rates.refresh();
    // The ECB table (200k+ rates) is only needed by conversions: warm it without delaying start.
    void stores.fx.current().catch((err: Error) => deps.log.warn({ err: err.message }, 'ECB table not loaded yet'));
  },
  routes: (deps) => routes(deps, storesFor(deps)),
  stop: (deps) => storesFor(deps).close(),
  readiness: async (deps) => {
    const stores = storesFor(deps);
    const snap = await stores.rates.current().catch(() => undefined);
    const ecb = (await deps.orm.em.fork().getConnection().execute(
      `select count(*)::int as n, max(version) as last from "calculation".reference_release where kind = 'ecb'`,
    )) as { n: number; last: string | null }[];
    const ecbLoaded = (ecb[0]?.n ?? 0) > 0;
    return [
      { name: 'calculation.reference_data.vat_rates', ok: !!snap && snap.classes.length > 0, detail: snap ? `release ${snap.release.version}, ${snap.windows.length} rate windows` : 'not loaded' },
      { name: 'calculation.reference_data.ecb_rates', ok: ecbLoaded, detail: ecbLoaded ? `ECB rates imported to ${ecb[0]!.last}` : 'not loaded' },
    ];
  },
};
