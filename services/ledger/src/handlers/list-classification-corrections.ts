import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ClassificationCorrectionResolutionSchema, ClassificationCorrectionSchema, ListClassificationCorrectionsResponseSchema, type ListClassificationCorrectionsRequest } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import { isUuid } from '@vat/platform/http-inputs';
import { pageLimit } from '@vat/platform/paging';
import { callerOf } from '@vat/platform/principal';
import { invalidArgument } from '@vat/platform/rpc-errors';
import type { LedgerDeps } from '../context';
import type { CorrectionRecord, CorrectionStatus } from '../repositories/classification-corrections';

/** Why a reclassification waits for a person (`classification_correction.reason`). */
const CORRECTION_REASONS = ['order_too_large', 'manual_decision', 'union_oss_period_locked'] as const;
/** Where an entry stands: no resolution yet, or resolved by `apply` or `dismiss`. */
const CORRECTION_STATUSES: readonly CorrectionStatus[] = ['open', 'applied', 'dismissed'];

/** The proposal as the API names it (stored with the decision's field names). */
function proposedJson(p: Record<string, unknown>): string {
  const v = (k: string) => (p[k] === undefined ? null : p[k]);
  return JSON.stringify({
    classification_status: v('classificationStatus'),
    tax_class_id: v('taxClassId'),
    source: v('source'),
    reason: v('reason'),
    assignment_id: v('assignmentId'),
    assignment_revision: v('assignmentRevision'),
    rule_id: v('ruleId'),
    coverage_manifest_digest: v('coverageManifestDigest'),
    catalog_digest: v('catalogDigest'),
    supersedes: v('supersedes'),
  });
}

const text = (v: string | undefined, field: string) => {
  if (v !== undefined && (v === '' || v.length > 200)) throw invalidArgument(`invalid_${field}`, `${field} must be 1 to 200 characters.`);
  return v;
};

/** The caller's correction-review list in creation order, 1-200 per page (default 50), keyset cursor = last id. */
export async function listClassificationCorrections(deps: LedgerDeps, req: ListClassificationCorrectionsRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  const limit = pageLimit(req.limit, 200, 50);
  if (req.cursor !== undefined && !isUuid(req.cursor)) throw invalidArgument('invalid_cursor', 'cursor must be a next_cursor value returned by this list.');
  if (req.reason !== undefined && !(CORRECTION_REASONS as readonly string[]).includes(req.reason)) throw invalidArgument('invalid_reason', `reason must be one of ${CORRECTION_REASONS.join(', ')}.`);
  if (req.status !== undefined && !(CORRECTION_STATUSES as readonly string[]).includes(req.status)) throw invalidArgument('invalid_status', `status must be one of ${CORRECTION_STATUSES.join(', ')}.`);
  if (req.supplyEventId !== undefined && !isUuid(req.supplyEventId)) throw invalidArgument('invalid_supply_event_id', 'supply_event_id must be the id of a supply event (a UUID).');
  const q = { reason: req.reason, orderReference: text(req.orderReference, 'order_reference'), productReference: text(req.productReference, 'product_reference'), supplyEventId: req.supplyEventId?.toLowerCase(), status: req.status as CorrectionStatus | undefined };
  const rows = await deps.corrections.list(accountId, q, req.cursor?.toLowerCase(), limit + 1);
  const page = rows.slice(0, limit);
  return create(ListClassificationCorrectionsResponseSchema, { items: page.map(correctionMessage), nextCursor: rows.length > limit ? page.at(-1)!.id : undefined });
}

/** The protobuf form of an entry with its status and resolution. */
export function correctionMessage(r: CorrectionRecord) {
  const s = r.resolution;
  return create(ClassificationCorrectionSchema, {
    id: r.id,
    supplyEventId: r.supplyEventId,
    eventId: r.eventId,
    orderReference: r.orderReference ?? undefined,
    productReference: r.productReference ?? undefined,
    integrationId: r.integrationId ?? undefined,
    occurredAt: r.occurredAt.toISOString(),
    reason: r.reason,
    proposedJson: proposedJson(r.proposed),
    createdAt: r.createdAt.toISOString(),
    status: s === null ? 'open' : s.action === 'apply' ? 'applied' : 'dismissed',
    resolution: s === null ? undefined : create(ClassificationCorrectionResolutionSchema, { action: s.action, note: s.note, resolvedAt: s.resolvedAt.toISOString(), resolvedByApiKeyId: s.apiKeyId, decisionId: s.decisionId ?? undefined }),
  });
}
