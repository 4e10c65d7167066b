import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { AppendClassificationDecisionsResponseSchema, type AppendClassificationDecisionsRequest, type ProposedClassificationDecision } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import { ClassificationDecidedSchema } from '@vat/gen/vat/ledger/v1/events_pb';
import { buildEvent } from '@vat/platform/events';
import { callerOf } from '@vat/platform/principal';
import { invalidArgument } from '@vat/platform/rpc-errors';
import type { LedgerDeps } from '../context';
import { CLASSIFICATION_STATUSES } from '../domain/supply-event-rules';
import type { AppendedDecision, DecisionInput, ProductEventRecord } from '../repositories/classification-decisions';

/** An order with more events than this is never reclassified automatically: it goes to correction review. */
const MAX_REPROCESSED_ORDER_EVENTS = 500;
const MAX_DECISIONS = 10_000;
const SOURCES = ['assignment', 'restored'];

async function productEvents(deps: LedgerDeps, accountId: bigint, integrationId: bigint, product: string): Promise<Map<string, ProductEventRecord>> {
  const out = new Map<string, ProductEventRecord>();
  let after: string | undefined;
  for (;;) {
    const page = await deps.decisions.productEvents(accountId, integrationId, product, after, 1000);
    for (const e of page) out.set(e.id, e);
    if (page.length < 1000) return out;
    after = page.at(-1)!.id;
  }
}

function decisionOf(p: ProposedClassificationDecision): DecisionInput {
  if (!(CLASSIFICATION_STATUSES as readonly string[]).includes(p.classificationStatus) || !SOURCES.includes(p.source)) {
    throw invalidArgument('invalid_decision', `classification_status must be one of ${CLASSIFICATION_STATUSES.join(', ')} and source one of ${SOURCES.join(', ')}.`);
  }
  return {
    supplyEventId: p.supplyEventId,
    supersedes: p.expectedLatestDecisionId ?? null,
    classificationStatus: p.classificationStatus,
    taxClassId: p.taxClassId ?? null,
    source: p.source,
    assignmentId: p.assignmentId ?? null,
    assignmentRevision: p.assignmentRevision ?? null,
    ruleId: p.ruleId ?? null,
    reason: p.reason ?? null,
    coverageManifestDigest: p.coverageManifestDigest ?? null,
    catalogDigest: p.catalogDigest ?? null,
  };
}

/** The `ClassificationDecided` event of an appended decision: its id is the decision's (the `Nats-Msg-Id`). */
export function decidedEvent(d: AppendedDecision) {
  const e = buildEvent(ClassificationDecidedSchema, {
    eventId: d.id,
    accountId: d.accountId,
    supplyEventId: d.supplyEventId,
    supersedes: d.supersedes ?? undefined,
    generation: d.generation,
    classificationStatus: d.classificationStatus,
    taxClassId: d.taxClassId ?? undefined,
    source: d.source,
    reason: d.reason ?? undefined,
    assignmentId: d.assignmentId ?? undefined,
    assignmentRevision: d.assignmentRevision ?? undefined,
    ruleId: d.ruleId ?? undefined,
    coverageManifestDigest: d.coverageManifestDigest ?? undefined,
    catalogDigest: d.catalogDigest ?? undefined,
    decidedAt: d.decidedAt.toISOString(),
  });
  return { id: e.id, subject: e.subject, payload: e.payload };
}

/** Whether the decision changes nothing: it repeats the decision in effect, or restores an event never decided. */
function unchanged(d: DecisionInput, e: ProductEventRecord): boolean {
  if (e.decisionId === null) return d.source === 'restored';
  return e.decisionStatus === d.classificationStatus && e.decisionTaxClassId === d.taxClassId && e.decisionSource === d.source && e.decisionAssignmentId === d.assignmentId && e.decisionAssignmentRevision === d.assignmentRevision && e.decisionRuleId === d.ruleId;
}

/**
 * Appends successor classification decisions for one product's events, never editing an event. Each
 * economic order (`order_reference`; an event without one is its own order) is written in one transaction or
 * not at all, with one `ClassificationDecided` per decision in the outbox of that transaction. An order above
 * {@link MAX_REPROCESSED_ORDER_EVENTS} events, holding a manually decided event, or holding an event of a
 * locked or filed Union OSS quarter (fenced) is routed to the correction-review list unchanged. A repeat of
 * the decisions in effect is a no-op.
 */
export async function appendClassificationDecisions(deps: LedgerDeps, req: AppendClassificationDecisionsRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  if (req.decisions.length > MAX_DECISIONS) throw invalidArgument('invalid_decisions', `at most ${MAX_DECISIONS} decisions per call.`);
  const events = await productEvents(deps, accountId, req.integrationId, req.productReference);
  const orders = new Map<string, { orderReference: string | null; items: { d: DecisionInput; e: ProductEventRecord }[] }>();
  let unchangedCount = 0;
  for (const p of req.decisions) {
    const e = events.get(p.supplyEventId.toLowerCase());
    if (!e) throw invalidArgument('supply_event_not_found', `${p.supplyEventId.slice(0, 40)} is not an event of this product and integration.`);
    const d = decisionOf({ ...p, supplyEventId: e.id });
    if (unchanged(d, e)) {
      unchangedCount++;
      continue;
    }
    const key = e.orderReference === null ? `event:${e.id}` : `order:${e.orderReference}`;
    const group = orders.get(key) ?? { orderReference: e.orderReference, items: [] };
    group.items.push({ d, e });
    orders.set(key, group);
  }
  const now = deps.now();
  let appended = 0;
  let routed = 0;
  let stale = 0;
  for (const { orderReference, items } of orders.values()) {
    const review = (reason: string) => deps.corrections.routeToReview(accountId, items.map(({ d, e }) => ({ supplyEventId: e.id, orderReference, proposed: { ...d } })), reason, now);
    if (orderReference !== null && (await deps.decisions.orderSize(accountId, orderReference)) > MAX_REPROCESSED_ORDER_EVENTS) {
      await review('order_too_large');
      routed += items.length;
    } else if (items.some(({ e }) => e.decisionSource === 'manual')) {
      await review('manual_decision');
      routed += items.length;
    } else if (items.some(({ d, e }) => d.supersedes !== e.decisionId)) {
      stale += items.length;
    } else {
      const outcome = await deps.decisions.appendOrder(accountId, items.map((i) => i.d), now, decidedEvent);
      if (outcome === 'appended') appended += items.length;
      else if (outcome === 'stale') stale += items.length;
      else {
        await review('union_oss_period_locked');
        routed += items.length;
      }
    }
  }
  if (appended > 0) deps.relay.kick();
  return create(AppendClassificationDecisionsResponseSchema, { appended, unchanged: unchangedCount, routedToCorrectionReview: routed, stale });
}
