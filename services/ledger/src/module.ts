import { CalculationRecordedSchema } from '@vat/gen/vat/calculation/v1/events_pb';
import { subjectOf } from '@vat/platform/events';
import { PER_REQUEST_EVENT_LINGER_MS } from '@vat/platform/bus';
import { referenceDataConsumer } from '@vat/platform/reference-projection';
import { serviceModule } from '@vat/platform/service-module';
import { ledgerContext } from './context';
import { decidedEvent } from './handlers/append-classification-decisions';
import { ledgerEntities } from './entities/index';
import { migrations, MIGRATIONS_PATH } from './migrations/index';
import { routes } from './routes';

export const ledgerModule = serviceModule({
  name: 'ledger',
  // The bottom of the service graph: what it needs of calculation (tax classes, rates in force, ECB days,
  // linked calculations) it keeps in its own projections, fed by calculation's events (docs/ledger.md).
  uses: [],
  schema: 'ledger',
  entities: ledgerEntities,
  migrations,
  migrationsPath: MIGRATIONS_PATH,
  context: ledgerContext,
  routes,
  // Decisions appended before decisions were published are published once (idempotent: the outbox id is the decision's).
  seed: async (deps) => {
    const n = await deps.decisions.publishUnpublished(deps.now(), decidedEvent);
    if (n > 0) deps.log.info({ published: n }, 'published earlier classification decisions');
  },
  consumers: (deps) => [
    referenceDataConsumer(deps.pool, 'ledger', 'ledger-reference-data', deps.now),
    { durable: 'ledger-calculation-summaries', subjects: [subjectOf(CalculationRecordedSchema)], handler: (batch) => deps.calculationSummaries.apply(batch), lingerMs: PER_REQUEST_EVENT_LINGER_MS },
  ],
  readiness: (deps) => deps.reference.probes('ledger'),
  // A projection still incomplete once the bus is open (a fresh or recreated NATS stream) asks calculation for it.
  started: (deps) => deps.referenceRequests.start(),
  stop: (deps) => deps.referenceRequests.stop(),
});
