import { serviceModule } from '@vat/platform/service-module';
import { ledgerContext } from './context';
import { decidedEvent } from './handlers/append-classification-decisions';
import { ledgerEntities } from './entities/index';
import { migrations, MIGRATIONS_PATH } from './migrations/index';
import { routes } from './routes';

export const ledgerModule = serviceModule({
  name: 'ledger',
  uses: ['calculation'],
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
});
