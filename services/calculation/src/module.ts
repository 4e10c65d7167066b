import { serviceModule } from '@vat/platform/service-module';
import { stopwatch } from '@vat/platform/stopwatch';
import { calculationContext } from './context';
import { calculationEntities } from './entities/index';
import { migrations, MIGRATIONS_PATH } from './migrations/index';
import { seedEcbRates, seedVatRates } from './reference/seed';
import { routes } from './routes';
import { calculationRecordedEvent } from './calculation-record';
import { releaseContentOf } from './events';
import { calculationRecordOf } from './repositories/calculations';
import { referenceRequestConsumer } from './reference/requests';

export const calculationModule = serviceModule({
  name: 'calculation',
  uses: ['classification', 'thresholds', 'compliance-reports'],
  schema: 'calculation',
  entities: calculationEntities,
  migrations,
  migrationsPath: MIGRATIONS_PATH,
  context: calculationContext,
  // Reference data is stored and then held in memory before the service counts as started: /ready means loaded.
  seed: async (deps) => {
    let elapsed = stopwatch();
    const rates = await seedVatRates(deps.pool, deps.now());
    deps.log.info({ digest: rates.digest, ...elapsed() }, rates.loaded ? 'VAT rate release stored' : 'VAT rate release already stored');
    elapsed = stopwatch();
    const ecb = await seedEcbRates(deps.pool);
    deps.log.info(elapsed(), ecb.loaded ? 'ECB reference rates stored' : 'ECB reference rates already stored');
    elapsed = stopwatch();
    const snapshot = await deps.rates.refresh();
    const table = ecb.everything ? await deps.fx.holdFirstImport(ecb.everything) : await deps.fx.current();
    deps.log.info({ ...elapsed(), rateWindows: snapshot.windows.length, ecbRates: table.size }, 'reference data loaded into memory');
    // Profiles stored before their changes were published are published once (thresholds' defaults start from them).
    const published = await deps.sourceProfiles.publishUnpublished(deps.now());
    if (published > 0) deps.log.info({ published }, 'published earlier source profiles');
    // The other services' projections of the reference data and calculations (docs/architecture.md, "Projections"):
    // what is not published yet goes to the outbox now, and reaches them once the relays start.
    elapsed = stopwatch();
    const content = releaseContentOf(snapshot);
    if (await deps.publications.allRecorded(content.releaseId)) {
      deps.log.info(elapsed(), 'reference data and earlier records published for the projections already');
      return;
    }
    const release = await deps.publications.publishRateRelease(content, deps.now());
    const ecbDays = await deps.publications.publishUnpublishedEcb(deps.now());
    const calculations = await deps.publications.republishCalculations((row) => calculationRecordedEvent(calculationRecordOf(row)), deps.now());
    const profiles = await deps.publications.replayOnce('source_profiles', deps.now(), (client) => deps.sourceProfiles.republishAll(client, deps.now()));
    deps.log.info({ ...elapsed(), release, ecbDays, calculations, profiles }, 'reference data and earlier records published for the projections');
  },
  routes,
  started: (deps) => deps.sourceProfiles.startCache(),
  stop: (deps) => deps.sourceProfiles.stopCache(),
  // A projection of the reference data that is still incomplete (a fresh or recreated NATS stream) asks for it again.
  consumers: (deps) => [referenceRequestConsumer(deps)],
  // In memory, so cheap: the stores re-check the database at most every few seconds.
  readiness: async (deps) => {
    const snap = await deps.rates.current().catch(() => undefined);
    const fx = await deps.fx.current().catch(() => undefined);
    const last = fx?.lastPublicationDate();
    return [
      { name: 'calculation.reference_data.vat_rates', ok: !!snap && snap.classes.length > 0, detail: snap ? `release ${snap.release.version}, ${snap.windows.length} rate windows` : 'not loaded' },
      { name: 'calculation.reference_data.ecb_rates', ok: last !== undefined, detail: last ? `${fx!.size} ECB rates to ${last}` : 'not loaded' },
    ];
  },
});
