import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { GetTransactionResponseSchema, type GetTransactionRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { digestOf } from '@vat/platform/canonical-json';
import { isUuid } from '@vat/platform/http-inputs';
import { callerOf } from '@vat/platform/principal';
import { invalidArgument, notFound } from '@vat/platform/rpc-errors';
import type { CalculationDeps } from '../context';
import { MAPPING_VERSION, rateProvenance, snapshotReferences } from '../evidence';
import { transactionSummary } from '../messages';

/** The evidence record of one stored calculation; another account's id is not found. */
export async function getTransaction(deps: CalculationDeps, req: GetTransactionRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  if (!isUuid(req.id)) throw invalidArgument('invalid_transaction_id', 'The transaction id must be a UUID.');
  const r = await deps.calculations.owned(accountId, req.id.toLowerCase());
  if (!r) throw notFound('transaction_not_found', 'No such transaction.');
  const e = r.rateEvidence;
  return create(GetTransactionResponseSchema, {
    transaction: {
      summary: transactionSummary(r),
      rateSource: `EU VAT rate reference release ${e.release_version}`,
      rateReleaseVersion: e.release_version,
      rateReleaseDigest: e.release_digest,
      rateEffectiveFrom: e.window.valid_from,
      rateEffectiveTo: e.window.valid_to ?? undefined,
      mappingVersion: MAPPING_VERSION,
      calculationVersion: r.calculationVersion,
      executionDigest: r.executionDigest,
      algorithmManifestDigest: r.manifestDigest,
      evidenceStatus: 'captured',
      snapshotReferences: snapshotReferences(r.requestDigest, e, r.manifestDigest),
      idempotencyKeyDigest: r.idempotencyKey ? digestOf({ idempotency_key: r.idempotencyKey }) : undefined,
      rateProvenance: rateProvenance(e, r.transactionDate.toISOString(), r.requestDigest),
    },
  });
}
