import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { SubmitAssignmentResponseSchema, type SubmitAssignmentRequest } from '@vat/gen/vat/classification/v1/classification_service_pb';
import { callerOf } from '@vat/platform/principal';
import { failedPrecondition, notFound } from '@vat/platform/rpc-errors';
import { uuidv7 } from '@vat/platform/uuid7';
import type { ClassificationDeps } from '../context';
import { assignmentRequest, requestDigest, requireRevisionRoom, revisionMessage } from '../domain/assignment-rules';
import { covers } from '../domain/catalog-choice';
import { inTransaction } from '@vat/platform/transaction';

/**
 * A new head revision bound to the approved catalog edition covering `requested_valid_from`. An identical
 * retry while that revision is the head answers it unchanged; a backdated request needs an attestation and
 * opens an impact review. Every new head enqueues reprocessing of the product.
 */
export async function submitAssignment(deps: ClassificationDeps, req: SubmitAssignmentRequest, ctx: HandlerContext) {
  const { accountId, apiKeyId } = callerOf(ctx);
  if (req.integrationId <= 0n) throw notFound('integration_not_found', 'No integration of this account has this id.');
  const r = assignmentRequest(req);
  const now = deps.now();
  const backdated = r.validFrom < now.toISOString().slice(0, 10);
  if (backdated && !r.attestation) {
    throw failedPrecondition('attestation_required', `requested_valid_from ${r.validFrom} is before today; a backdated assignment needs an attestation { statement, attested_by } and opens an impact review.`);
  }
  const edition = (await deps.catalogs.approvedEditions(r.scheme)).find((e) => covers(e, r.validFrom));
  if (!edition) throw failedPrecondition('catalog_unavailable', `No approved ${r.scheme.toUpperCase()} catalog covers ${r.validFrom}.`);
  const code = await deps.catalogs.code(edition.id, r.code);
  if (!code) throw failedPrecondition('code_not_found', `${r.code} is not a code of ${r.scheme.toUpperCase()} ${edition.version}.`);
  if (r.requestedValidTo !== null && edition.legalTo !== null && r.requestedValidTo > edition.legalTo) {
    throw failedPrecondition('assignment_outside_catalog_interval', `${r.scheme.toUpperCase()} ${edition.version} applies until ${edition.legalTo} (exclusive); requested_valid_to ${r.requestedValidTo} is later. Omit it to record the edition's end.`);
  }
  const digest = requestDigest(r);
  const outcome = await inTransaction(deps.pool, async (db) => {
    await deps.assignments.lockAccount(db, accountId);
    const head = await deps.assignments.headForProduct(db, accountId, req.integrationId, r.product, r.variant);
    if (head && head.state === 'submitted' && head.requestDigest === digest) return { revision: head, created: false };
    requireRevisionRoom(await deps.assignments.revisionCount(db, accountId));
    const revision = {
      id: uuidv7(now.getTime()),
      assignmentId: head?.assignmentId ?? uuidv7(now.getTime()),
      revision: (head?.revision ?? 0) + 1,
      accountId,
      integrationId: req.integrationId,
      productReference: r.product,
      variantReference: r.variant,
      state: 'submitted' as const,
      scheme: r.scheme,
      exactCode: code.code,
      displayCode: code.displayCode,
      validFrom: r.validFrom,
      validTo: r.requestedValidTo ?? edition.legalTo,
      validToSource: r.requestedValidTo !== null ? ('request' as const) : edition.legalTo !== null ? ('catalog_edition_end' as const) : ('open' as const),
      catalogVersion: edition.version,
      catalogEditionId: edition.id,
      catalogDigest: edition.digest,
      requestDigest: digest,
      backdated,
      attestation: r.attestation,
      impactReview: backdated ? 'open' : null,
      apiKeyId,
      createdAt: now,
    };
    await deps.assignments.insert(db, revision);
    await deps.assignments.enqueueReprocessing(db, [revision], 'assignment_head', now);
    return { revision, created: true };
  });
  if (outcome.created) deps.relay.kick();
  return create(SubmitAssignmentResponseSchema, { revision: revisionMessage(outcome.revision, true), created: outcome.created });
}
