import type { EntityManager, InferEntity, MikroORM } from '@mikro-orm/postgresql';
import { transactionScope } from '@vat/platform/transaction';
import { TaxRegistration } from '../entities/index';

export type RegistrationRecord = InferEntity<typeof TaxRegistration>;

/** A new row as the handlers build it: identifiers arrive already masked and encrypted. */
export type NewRegistration = {
  schemeType: string;
  memberStateIdentification: string;
  vatRegistrationNumberMasked: string | null;
  vatRegistrationNumberEncrypted: Buffer | null;
  iossIntermediaryName: string | null;
  iossIntermediaryNumberMasked: string | null;
  iossIntermediaryNumberEncrypted: Buffer | null;
  effectiveFrom: string;
  effectiveTo: string | null;
  status: string;
};

/** What a write sees of the account's rows of one scheme while it holds that scheme's lock. */
export type LockedScheme = {
  /** Every row of the scheme (all statuses), read after the lock was taken. */
  rows(): Promise<RegistrationRecord[]>;
  create(values: NewRegistration, now: Date): RegistrationRecord;
};

const ORDER = { effectiveFrom: 'desc', id: 'desc' } as const;

/** Every database access of the tax-registration aggregate (MikroORM entities, one fork per call). */
export class TaxRegistrationRepository {
  constructor(private readonly orm: MikroORM) {}

  /** The account's rows, most recent effective window first. */
  list(accountId: bigint): Promise<RegistrationRecord[]> {
    return this.orm.em.fork().find(TaxRegistration, { accountId }, { orderBy: ORDER });
  }

  /** The scheme of one of the account's rows (immutable, so safe to read before locking), or undefined. */
  async schemeOf(accountId: bigint, id: bigint): Promise<string | undefined> {
    const row = await this.orm.em.fork().findOne(TaxRegistration, { id, accountId }, { fields: ['schemeType'] });
    return row?.schemeType;
  }

  /**
   * Runs `work` in one transaction holding the lock of (account, scheme), so two writes that
   * would overlap cannot both pass the overlap check; entities changed by `work` are flushed on
   * commit.
   */
  withSchemeLock<T>(accountId: bigint, schemeType: string, work: (scheme: LockedScheme) => Promise<T>): Promise<T> {
    return this.orm.em.fork().transactional((em) => transactionScope(async () => {
      await lockScheme(em, accountId, schemeType);
      return work({
        rows: () => em.find(TaxRegistration, { accountId, schemeType }, { orderBy: ORDER }),
        create: (v, now) => em.create(TaxRegistration, { ...v, accountId, createdAt: now, updatedAt: now }),
      });
    }));
  }
}

async function lockScheme(em: EntityManager, accountId: bigint, schemeType: string): Promise<void> {
  await em.getConnection().execute('select pg_advisory_xact_lock(hashtext(?))', [`tax-registrations:${accountId}:${schemeType}`], 'all', em.getTransactionContext());
}
