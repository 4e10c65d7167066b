import type { AssignmentRevision, ClassificationCode } from '@vat/gen/vat/classification/v1/resources_pb';
import type { ClassificationCorrection } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import type { Clients } from '@vat/platform/clients';
import { HttpError } from '../errors';
import { num, opt } from '../json';
import type { RouteDef } from '../route';
import { body, country, date, intOf, intParam, query, str } from './schemas';
import type { IntegrationOwnership } from './supply-events';

const WRITE_SCOPES = ['classification-write', 'full'];
const CODE_FIELD = str('invalid_code', { maxLength: 24, description: 'CN: 2, 4, 6 or 8 digits (or the display form 0101 21 00); CPA: dot-separated digit groups' });

function codeJson(c: ClassificationCode) {
  return {
    scheme: c.scheme,
    normalized_code: c.normalizedCode,
    display_code: c.displayCode,
    level: c.level,
    parent_code: opt(c.parentCode),
    self_explanatory_text: c.selfExplanatoryText,
    legal_text: c.legalText,
    includes: opt(c.includes),
    excludes: opt(c.excludes),
    source_url: c.sourceUrl,
    source_concept_id: c.sourceConceptId,
    catalog_version: c.catalogVersion,
    catalog_revision: c.catalogRevision,
    catalog_digest: c.catalogDigest,
    legal_act: c.legalAct,
    applicable_from: c.applicableFrom,
    applicable_to: opt(c.applicableTo),
    recorded_at: c.recordedAt,
    approved_at: c.approvedAt,
  };
}

function revisionJson(r: AssignmentRevision) {
  return {
    assignment_id: r.assignmentId,
    revision: r.revision,
    head: r.head,
    state: r.state,
    integration_id: num(r.integrationId),
    scheme: r.scheme,
    exact_code: r.exactCode,
    display_code: r.displayCode,
    product_reference: r.productReference,
    variant_reference: opt(r.variantReference),
    valid_from: r.validFrom,
    valid_to: opt(r.validTo),
    valid_to_source: r.validToSource,
    catalog_version: r.catalogVersion,
    catalog_digest: r.catalogDigest,
    backdated: r.backdated,
    attestation: r.attestation ? { statement: r.attestation.statement, attested_by: r.attestation.attestedBy } : null,
    impact_review: opt(r.impactReview),
    created_at: r.createdAt,
  };
}

const integrationParams = { type: 'object', properties: { integration_id: { type: 'string', description: 'an integration of the key\'s account' } }, required: ['integration_id'] };
const assignmentParams = { type: 'object', properties: { integration_id: { type: 'string' }, assignment_id: { type: 'string', description: 'UUID' } }, required: ['integration_id', 'assignment_id'] };

/** The integration id of the path when the key's account owns it; anything else is 404 (never a hint that it exists). */
async function ownedIntegration(raw: string, accountId: bigint, owned: IntegrationOwnership): Promise<bigint> {
  if (/^[1-9][0-9]{0,17}$/.test(raw) && (await owned(BigInt(raw), accountId))) return BigInt(raw);
  throw new HttpError(404, 'integration_not_found', 'No integration of this account has this id.');
}

export function classificationRoutes(clients: Clients, integrationOwned: IntegrationOwnership): RouteDef[] {
  const integration = async (req: { params: unknown }, principal: { accountId: bigint } | undefined) => ownedIntegration((req.params as { integration_id: string }).integration_id, principal!.accountId, integrationOwned);
  const successor = (kind: 'validate' | 'archive'): RouteDef => ({
    method: 'POST',
    url: `/v1/integrations/:integration_id/product-code-assignments/:assignment_id/${kind}`,
    access: { scopes: WRITE_SCOPES },
    limiter: 'classification',
    summary: kind === 'validate' ? 'Validate the head: a validated successor revision (the code is checked again), reprocessing enqueued' : 'Archive: a tombstone successor revision, reprocessing enqueued',
    tags: ['classification'],
    schema: { params: assignmentParams },
    handler: async ({ req, principal, call }) => {
      const integrationId = await integration(req, principal);
      const { assignment_id } = req.params as { assignment_id: string };
      const rpc = kind === 'validate' ? clients.classification.validateAssignment.bind(clients.classification) : clients.classification.archiveAssignment.bind(clients.classification);
      return revisionJson((await rpc({ integrationId, assignmentId: assignment_id }, call)).revision!);
    },
  });
  return [
    {
      method: 'GET',
      url: '/v1/classification-codes/:scheme/:code',
      access: 'public',
      limiter: 'classification',
      summary: 'Validate an exact CN or CPA code against an approved catalog',
      tags: ['classification'],
      schema: {
        params: { type: 'object', properties: { scheme: str('invalid_scheme', { enum: ['cn', 'cpa'] }), code: CODE_FIELD }, required: ['scheme', 'code'] },
        querystring: query({ catalog_version: str('invalid_catalog_version', { maxLength: 40, description: 'CN year (2022) or CPA version (2.1); must be approved and cover legal_date' }), legal_date: date('invalid_legal_date', 'default today (UTC)') }),
      },
      handler: async ({ req, call }) => {
        const p = req.params as { scheme: string; code: string };
        const q = req.query as { catalog_version?: string; legal_date?: string };
        const r = await clients.classification.getClassificationCode({ scheme: p.scheme, code: p.code, catalogVersion: q.catalog_version, legalDate: q.legal_date }, call);
        return codeJson(r.code!);
      },
    },
    {
      method: 'POST',
      url: '/v1/tax-class/resolve',
      access: { scopes: ['classification-resolve', 'full'] },
      limiter: 'classification',
      summary: 'Resolve the governed mapping of an exact code to a tax class (fails closed to needs_review)',
      tags: ['classification'],
      schema: {
        body: body(
          { scheme: str('invalid_scheme', { enum: ['cn', 'cpa'] }), exact_code: { ...CODE_FIELD }, catalog_version: str('invalid_catalog_version', { maxLength: 40 }), jurisdiction: country('invalid_jurisdiction'), legal_date: date('invalid_legal_date') },
          ['scheme', 'exact_code', 'catalog_version', 'jurisdiction', 'legal_date'],
        ),
      },
      handler: async ({ req, call }) => {
        const b = req.body as { scheme: string; exact_code: string; catalog_version: string; jurisdiction: string; legal_date: string };
        const r = await clients.classification.resolveTaxClass({ scheme: b.scheme, exactCode: b.exact_code, catalogVersion: b.catalog_version, jurisdiction: b.jurisdiction, legalDate: b.legal_date }, call);
        return {
          status: r.status,
          authoritative_for_mapping: r.authoritativeForMapping,
          not_final_tax_treatment: r.notFinalTaxTreatment,
          supply_kind: opt(r.supplyKind),
          tax_class_id: opt(r.taxClassId),
          reasons: r.reasons,
          coverage_manifest: r.coverageManifest,
          coverage_manifest_version: opt(r.coverageManifestVersion),
          coverage_manifest_digest: opt(r.coverageManifestDigest),
          catalog_version: opt(r.catalogVersion),
          catalog_digest: opt(r.catalogDigest),
          rule_id: opt(r.ruleId),
          matched_by: opt(r.matchedBy),
          matched_code: opt(r.matchedCode),
          matched_jurisdiction: opt(r.matchedJurisdiction),
          legal_reference: opt(r.legalReference),
        };
      },
    },
    {
      method: 'POST',
      url: '/v1/integrations/:integration_id/product-code-assignments',
      access: { scopes: WRITE_SCOPES },
      limiter: 'classification',
      summary: 'Submit a product-code assignment: a new head revision (201), or the unchanged head for an identical retry (200)',
      tags: ['classification'],
      schema: {
        params: integrationParams,
        body: body(
          {
            scheme: str('invalid_scheme', { enum: ['cn', 'cpa'] }),
            exact_code: { ...CODE_FIELD, description: 'an 8-digit CN subheading or a 6-digit CPA subcategory' },
            product_reference: str('invalid_product_reference', { minLength: 1, maxLength: 200 }),
            variant_reference: { type: ['string', 'null'], maxLength: 200, 'x-error': 'invalid_variant_reference' },
            requested_valid_from: date('invalid_requested_valid_from', 'a date before today needs an attestation'),
            requested_valid_to: { ...date('invalid_requested_valid_to', 'exclusive; null or omitted = the catalog edition\'s end'), type: ['string', 'null'] },
            attestation: {
              type: ['object', 'null'],
              additionalProperties: false,
              'x-error': 'invalid_attestation',
              description: 'required when requested_valid_from is before today',
              properties: { statement: { type: 'string', maxLength: 2000 }, attested_by: { type: 'string', maxLength: 200 } },
            },
          },
          ['scheme', 'exact_code', 'product_reference', 'requested_valid_from'],
        ),
      },
      handler: async ({ req, reply, principal, call }) => {
        const integrationId = await integration(req, principal);
        const b = req.body as { scheme: string; exact_code: string; product_reference: string; variant_reference?: string | null; requested_valid_from: string; requested_valid_to?: string | null; attestation?: { statement?: string; attested_by?: string } | null };
        const r = await clients.classification.submitAssignment(
          {
            integrationId,
            scheme: b.scheme,
            exactCode: b.exact_code,
            productReference: b.product_reference,
            variantReference: b.variant_reference ?? undefined,
            requestedValidFrom: b.requested_valid_from,
            requestedValidTo: b.requested_valid_to ?? undefined,
            attestation: b.attestation ? { statement: b.attestation.statement ?? '', attestedBy: b.attestation.attested_by ?? '' } : undefined,
          },
          call,
        );
        reply.status(r.created ? 201 : 200);
        return revisionJson(r.revision!);
      },
    },
    {
      method: 'GET',
      url: '/v1/integrations/:integration_id/product-code-assignments',
      access: { scopes: WRITE_SCOPES },
      limiter: 'classification',
      summary: 'Current assignment heads of an integration (keyset cursor; filters product_reference, state)',
      tags: ['classification'],
      schema: {
        params: integrationParams,
        querystring: query({
          product_reference: str('invalid_product_reference', { maxLength: 200 }),
          state: str('invalid_state', { enum: ['submitted', 'validated', 'archived'] }),
          cursor: str('invalid_cursor'),
          limit: { ...intParam('invalid_limit'), description: '1-200, default 50' },
        }),
      },
      handler: async ({ req, principal, call }) => {
        const integrationId = await integration(req, principal);
        const q = req.query as Record<string, string | undefined>;
        const r = await clients.classification.listAssignments({ integrationId, productReference: q.product_reference, state: q.state, cursor: q.cursor, limit: intOf(q.limit) }, call);
        return { items: r.items.map(revisionJson), next_cursor: opt(r.nextCursor) };
      },
    },
    {
      method: 'GET',
      url: '/v1/integrations/:integration_id/product-code-assignments/:assignment_id',
      access: { scopes: WRITE_SCOPES },
      limiter: 'classification',
      summary: 'One assignment: its head and every revision, oldest first',
      tags: ['classification'],
      schema: { params: assignmentParams },
      handler: async ({ req, principal, call }) => {
        const integrationId = await integration(req, principal);
        const { assignment_id } = req.params as { assignment_id: string };
        const r = await clients.classification.getAssignment({ integrationId, assignmentId: assignment_id }, call);
        return { ...revisionJson(r.head!), revisions: r.revisions.map(revisionJson) };
      },
    },
    successor('validate'),
    successor('archive'),
    {
      method: 'GET',
      url: '/v1/classification/correction-reviews',
      access: { scopes: ['classification-write', 'full', 'read-only'] },
      limiter: 'classification',
      summary: 'The correction-review list: reclassifications the ledger did not apply (locked or filed Union OSS quarter, oversized order, manual decision), oldest first (keyset cursor)',
      tags: ['classification'],
      schema: {
        querystring: query({
          reason: str('invalid_reason', { enum: ['union_oss_period_locked', 'order_too_large', 'manual_decision'] }),
          product_reference: str('invalid_product_reference', { maxLength: 200 }),
          order_reference: str('invalid_order_reference', { maxLength: 200 }),
          supply_event_id: str('invalid_supply_event_id', { description: 'the ledger id (UUID) of a supply event' }),
          status: str('invalid_status', { enum: ['open', 'applied', 'dismissed'] }),
          cursor: str('invalid_cursor'),
          limit: { ...intParam('invalid_limit'), description: '1-200, default 50' },
        }),
      },
      handler: async ({ req, call }) => {
        const q = req.query as Record<string, string | undefined>;
        const r = await clients.ledger.listClassificationCorrections(
          { reason: q.reason, status: q.status, productReference: q.product_reference, orderReference: q.order_reference, supplyEventId: q.supply_event_id, cursor: q.cursor, limit: intOf(q.limit) },
          call,
        );
        return {
          items: r.items.map(correctionJson),
          next_cursor: opt(r.nextCursor),
        };
      },
    },
    {
      method: 'POST',
      url: '/v1/classification/correction-reviews/:id/resolve',
      access: { scopes: WRITE_SCOPES },
      limiter: 'classification',
      summary: 'Resolve a correction-review entry: apply (its proposal, with the open entries routed with it for the same order, becomes a manual decision) or dismiss; an identical retry answers the stored resolution',
      tags: ['classification'],
      schema: {
        params: { type: 'object', properties: { id: { type: 'string', description: 'the entry id (UUID)' } }, required: ['id'] },
        body: body(
          { action: str('invalid_action', { enum: ['apply', 'dismiss'] }), note: str('invalid_note', { minLength: 1, maxLength: 1000, description: 'required, 1-1000 characters, not only spaces, no control characters' }) },
          ['action', 'note'],
        ),
      },
      handler: async ({ req, call }) => {
        const b = req.body as { action: string; note: string };
        const r = await clients.ledger.resolveClassificationCorrection({ id: (req.params as { id: string }).id, action: b.action, note: b.note }, call);
        return { ...correctionJson(r.correction!), resolved_with: r.resolvedWith };
      },
    },
  ];
}

/** The REST form of a correction-review entry with its status and resolution. */
function correctionJson(c: ClassificationCorrection) {
  const s = c.resolution;
  return {
    id: c.id,
    supply_event_id: c.supplyEventId,
    event_id: c.eventId,
    order_reference: opt(c.orderReference),
    product_reference: opt(c.productReference),
    integration_id: c.integrationId === undefined ? null : num(c.integrationId),
    occurred_at: c.occurredAt,
    reason: c.reason,
    proposed: JSON.parse(c.proposedJson) as unknown,
    created_at: c.createdAt,
    status: c.status,
    resolution: s === undefined ? null : { action: s.action, note: s.note, resolved_at: s.resolvedAt, resolved_by_api_key_id: num(s.resolvedByApiKeyId), decision_id: opt(s.decisionId) },
  };
}


