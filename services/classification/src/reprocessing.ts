import type { Subscription } from '@vat/platform/bus';
import { decodeEvent, subjectOf } from '@vat/platform/events';
import { principalHeaders } from '@vat/platform/principal';
import { ProductReprocessingRequestedSchema } from '@vat/gen/vat/classification/v1/events_pb';
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { ProductSupplyEvent, ProposedClassificationDecisionSchema } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import { isEuMemberState } from '@vat/platform/countries';
import type { ClassificationDeps } from './context';
import { resolveMapping } from './handlers/resolve-tax-class';
import type { RevisionRecord } from './repositories/assignments';

/** At most this many decisions per ledger call; an order is never split across calls. */
const DECISIONS_PER_CALL = 5_000;

type Proposal = MessageInitShape<typeof ProposedClassificationDecisionSchema> & { supplyEventId: string };

/** The assignment that speaks for an event: its variant's, else the product-level one (no variant). */
function headFor(heads: readonly RevisionRecord[], e: ProductSupplyEvent): RevisionRecord | undefined {
  return heads.find((h) => h.variantReference !== null && h.variantReference === e.variantReference) ?? heads.find((h) => h.variantReference === null);
}

const inInterval = (h: RevisionRecord, day: string) => h.validFrom <= day && (h.validTo === null || day < h.validTo);

/**
 * The decision an event should carry now. Only a validated head in force on the event's date is
 * classification authority: its mapping is resolved for the event's country and date (resolved, or
 * needs_review with the reason). Without authority an earlier assignment decision is withdrawn by restoring
 * the facts committed with the event. Destinations outside the EU bypass assignment resolution.
 */
async function proposalFor(deps: ClassificationDeps, heads: readonly RevisionRecord[], e: ProductSupplyEvent, cache: Map<string, Awaited<ReturnType<typeof resolveMapping>>>): Promise<Proposal | undefined> {
  if (!isEuMemberState(e.countryOfConsumption)) return undefined;
  const head = headFor(heads, e);
  const base = { supplyEventId: e.id, expectedLatestDecisionId: e.latestDecisionId };
  if (head && head.state === 'validated' && inInterval(head, e.occurredOn)) {
    const key = `${head.scheme}|${head.exactCode}|${head.catalogVersion}|${e.countryOfConsumption}|${e.occurredOn}`;
    if (!cache.has(key)) cache.set(key, await resolveMapping(deps, { scheme: head.scheme, exactCode: head.exactCode, catalogVersion: head.catalogVersion, jurisdiction: e.countryOfConsumption, legalDate: e.occurredOn }));
    const r = cache.get(key)!;
    const provenance = { source: 'assignment', assignmentId: head.assignmentId, assignmentRevision: head.revision, ruleId: r.ruleId, coverageManifestDigest: r.coverageManifestDigest, catalogDigest: r.catalogDigest };
    return r.status === 'resolved'
      ? { ...base, ...provenance, classificationStatus: 'classified', taxClassId: r.taxClassId }
      : { ...base, ...provenance, classificationStatus: 'needs_review', taxClassId: undefined, reason: r.reasons[0] };
  }
  if (e.latestDecisionSource !== 'assignment') return undefined;
  const reason = !head ? 'assignment_removed' : head.state === 'archived' ? 'assignment_archived' : head.state === 'submitted' ? 'assignment_not_validated' : 'outside_assignment_interval';
  return { ...base, source: 'restored', classificationStatus: e.originalClassificationStatus, taxClassId: e.originalTaxClassId, reason };
}

/** Packs proposals into calls of at most {@link DECISIONS_PER_CALL}, keeping each order in one call. */
function batches(events: readonly ProductSupplyEvent[], proposals: readonly Proposal[]): Proposal[][] {
  const orderOf = new Map(events.map((e) => [e.id, e.orderReference ?? `event:${e.id}`]));
  const byOrder = new Map<string, Proposal[]>();
  for (const p of proposals) byOrder.set(orderOf.get(p.supplyEventId)!, [...(byOrder.get(orderOf.get(p.supplyEventId)!) ?? []), p]);
  const out: Proposal[][] = [];
  let current: Proposal[] = [];
  for (const group of byOrder.values()) {
    if (current.length > 0 && current.length + group.length > DECISIONS_PER_CALL) {
      out.push(current);
      current = [];
    }
    current.push(...group);
  }
  if (current.length) out.push(current);
  return out;
}

/**
 * Runs one reprocessing job: reads the product's events from the ledger, computes each event's decision and
 * has the ledger append the changed ones (order by order). Throws when the ledger is unreachable or an
 * order changed meanwhile, so the event is delivered again and the job retried.
 */
async function runReprocessingJob(deps: ClassificationDeps, jobId: bigint): Promise<Record<string, number> | undefined> {
  const job = await deps.assignments.claimJob(jobId, deps.now());
  if (!job) return undefined;
  const call = { headers: principalHeaders({ accountId: job.accountId, apiKeyId: 0n, keyKind: 'v2', scope: 'full' }) };
  const events: ProductSupplyEvent[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.clients.ledger.listProductSupplyEvents({ integrationId: job.integrationId, productReference: job.productReference, cursor, limit: 1000 }, call);
    events.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  const heads = await deps.assignments.productHeads(job.accountId, job.integrationId, job.productReference);
  const cache = new Map<string, Awaited<ReturnType<typeof resolveMapping>>>();
  const proposals: Proposal[] = [];
  for (const e of events) {
    const p = await proposalFor(deps, heads, e, cache);
    if (p) proposals.push(p);
  }
  const outcome = { events: events.length, appended: 0, unchanged: 0, routed_to_correction_review: 0, stale: 0 };
  for (const decisions of batches(events, proposals)) {
    const r = await deps.clients.ledger.appendClassificationDecisions({ integrationId: job.integrationId, productReference: job.productReference, decisions }, call);
    outcome.appended += r.appended;
    outcome.unchanged += r.unchanged;
    outcome.routed_to_correction_review += r.routedToCorrectionReview;
    outcome.stale += r.stale;
  }
  if (outcome.stale > 0) throw new Error(`reprocessing job ${jobId}: ${outcome.stale} decisions were stale; retrying`);
  await deps.assignments.finishJob(jobId, deps.now(), outcome);
  return outcome;
}

/** The durable consumer of the service's own `ProductReprocessingRequested` events (retried on failure). */
export function reprocessingConsumer(deps: ClassificationDeps): Subscription {
  return {
    durable: 'classification-reprocessing',
    subjects: [subjectOf(ProductReprocessingRequestedSchema)],
    handler: async (batch) => {
      for (const msg of batch) {
        const event = decodeEvent(ProductReprocessingRequestedSchema, msg.data);
        await runReprocessingJob(deps, event.jobId);
      }
    },
  };
}
