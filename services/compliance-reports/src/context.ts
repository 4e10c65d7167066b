import { FieldCipher, requireDataEncryptionKey } from '@vat/platform/crypto';
import { ReferenceProjection } from '@vat/platform/reference-projection';
import { ReferenceDataRequester } from '@vat/platform/reference-request';
import type { ServiceDeps } from '@vat/platform/service-module';
import { vatNumberDigestKey } from '@vat/platform/vat-number-digest';
import { SourceProfileDefaults } from '@vat/platform/source-profile-projection';
import { IdentifierVault } from './identifier-vault';
import { FilingCalendarRepository } from './repositories/filing-calendar';
import { IossFactRepository } from './repositories/ioss-facts';
import { TaxRegistrationRepository } from './repositories/tax-registrations';
import { UnionOssFactRepository } from './repositories/union-oss-facts';
import { UnionOssLockRepository } from './repositories/union-oss-locks';
import { UnionOssSealedEventRepository } from './repositories/union-oss-sealed-events';
import { VatNumberCheckRepository } from './repositories/vat-number-checks';
import { ViesClient } from './vies/vies-client';

/** The services whose RPCs it calls (the module's `uses`). */
type Uses = 'ledger';

/**
 * The compliance-reports service's deps: the platform's plus its repositories, the identifier vault and its
 * projections of calculation's reference data and source-profile defaults (it never calls calculation).
 */
export type ComplianceReportsDeps = ServiceDeps<Uses> & {
  registrations: TaxRegistrationRepository;
  identifiers: IdentifierVault;
  unionOssFacts: UnionOssFactRepository;
  unionOssLocks: UnionOssLockRepository;
  unionOssSealedEvents: UnionOssSealedEventRepository;
  iossFacts: IossFactRepository;
  filingCalendar: FilingCalendarRepository;
  vatNumberChecks: VatNumberCheckRepository;
  vies: ViesClient;
  /** The key of customers' VAT-number digests (derived from DATA_ENCRYPTION_KEY; the ledger derives the same). */
  vatNumberDigestKey: Buffer;
  reference: ReferenceProjection;
  /** Asks calculation again for the reference data the projection lacks (started by the module). */
  referenceRequests: ReferenceDataRequester;
  profileDefaults: SourceProfileDefaults;
};

/** Fails the start (not the first request) when DATA_ENCRYPTION_KEY is missing or malformed. */
export function complianceReportsContext(deps: ServiceDeps<Uses>): ComplianceReportsDeps {
  const key = requireDataEncryptionKey(deps.config.dataEncryptionKey, 'the compliance-reports service');
  const reference = new ReferenceProjection(deps.pool, 'compliance_reports');
  return {
    ...deps,
    registrations: new TaxRegistrationRepository(deps.pool),
    identifiers: new IdentifierVault(new FieldCipher(key)),
    unionOssFacts: new UnionOssFactRepository(deps.pool),
    unionOssLocks: new UnionOssLockRepository(deps.pool),
    unionOssSealedEvents: new UnionOssSealedEventRepository(deps.pool),
    iossFacts: new IossFactRepository(deps.pool),
    filingCalendar: new FilingCalendarRepository(deps.pool),
    vatNumberChecks: new VatNumberCheckRepository(deps.pool),
    vies: new ViesClient(deps.config.vies),
    vatNumberDigestKey: vatNumberDigestKey(key),
    reference,
    referenceRequests: new ReferenceDataRequester(reference, deps.bus, 'compliance-reports', deps.log, deps.now),
    profileDefaults: new SourceProfileDefaults(deps.pool, 'compliance_reports'),
  };
}
