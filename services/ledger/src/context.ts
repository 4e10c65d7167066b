import { FieldCipher, requireDataEncryptionKey } from '@vat/platform/crypto';
import { ReferenceProjection } from '@vat/platform/reference-projection';
import { ReferenceDataRequester } from '@vat/platform/reference-request';
import type { ServiceDeps } from '@vat/platform/service-module';
import { vatNumberDigestKey } from '@vat/platform/vat-number-digest';
import { CalculationSummaries } from './repositories/calculation-summaries';
import { ClassificationCorrectionRepository } from './repositories/classification-corrections';
import { ClassificationDecisionRepository } from './repositories/classification-decisions';
import { ReturnPeriodFenceRepository } from './repositories/return-period-fences';
import { SupplyEventRepository } from './repositories/supply-events';

/** The ledger's deps: the platform's plus its repositories and its projections of calculation's data (it calls no service). */
export type LedgerDeps = ServiceDeps & {
  supplyEvents: SupplyEventRepository;
  decisions: ClassificationDecisionRepository;
  corrections: ClassificationCorrectionRepository;
  fences: ReturnPeriodFenceRepository;
  calculationSummaries: CalculationSummaries;
  reference: ReferenceProjection;
  /** Asks calculation again for the reference data the projection lacks (started by the module). */
  referenceRequests: ReferenceDataRequester;
  /** Seals customers' VAT numbers at rest (DATA_ENCRYPTION_KEY). */
  cipher: FieldCipher;
  /** The key of VAT-number digests; compliance-reports derives the same one to match its VIES evidence. */
  vatNumberDigestKey: Buffer;
};

/** Fails the start when DATA_ENCRYPTION_KEY is missing or malformed (customers' VAT numbers are encrypted at rest). */
export function ledgerContext(deps: ServiceDeps): LedgerDeps {
  const key = requireDataEncryptionKey(deps.config.dataEncryptionKey, 'the ledger service');
  const reference = new ReferenceProjection(deps.pool, 'ledger');
  return {
    ...deps,
    cipher: new FieldCipher(key),
    vatNumberDigestKey: vatNumberDigestKey(key),
    supplyEvents: new SupplyEventRepository(deps.pool),
    decisions: new ClassificationDecisionRepository(deps.pool),
    corrections: new ClassificationCorrectionRepository(deps.pool),
    fences: new ReturnPeriodFenceRepository(deps.pool),
    calculationSummaries: new CalculationSummaries(deps.pool),
    reference,
    referenceRequests: new ReferenceDataRequester(reference, deps.bus, 'ledger', deps.log, deps.now),
  };
}
