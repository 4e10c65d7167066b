import type { AssignmentRevision } from '@vat/gen/vat/classification/v1/resources_pb';
import type { Clients } from '@vat/platform/clients';
import { isRowId } from '@vat/platform/http-inputs';
import { HttpError } from '../errors';
import { num, opt } from '../json';
import type { RouteDef } from '../route';
import { CODE_FIELD } from './classification-codes';
import { body, date, intOf, intParam, query, str } from './schemas';
import { arrayOf, boolean, dateTime, enumOf, integer, nullable, object, page, string } from '../openapi/shapes';

const REVISION_PROPS = {
  assignment_id: string,
  revision: integer,
  head: boolean,
  state: enumOf(['submitted', 'validated', 'archived']),
  integration_id: integer,
  scheme: enumOf(['cn', 'cpa']),
  exact_code: string,
  display_code: string,
  product_reference: string,
  variant_reference: nullable(string),
  valid_from: string,
  valid_to: nullable(string),
  valid_to_source: string,
  catalog_version: string,
  catalog_digest: string,
  backdated: boolean,
  attestation: nullable(object({ statement: string, attested_by: string })),
  impact_review: nullable(string),
  created_at: dateTime,
};
const REVISION = object(REVISION_PROPS);
/** Refusals of a new head revision (submission, validation and archival alike count against the revision limit). */
const SUCCESSOR_ERRORS = { 404: ['integration_not_found', 'assignment_not_found'], 422: ['assignment_already_validated', 'assignment_archived', 'code_not_found', 'assignment_revision_limit_reached'] };
import type { IntegrationOwnership } from './supply-events';

export const CLASSIFICATION_WRITE_SCOPES = ['classification-write', 'full'];

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
  if (isRowId(raw) && (await owned(BigInt(raw), accountId))) return BigInt(raw);
  throw new HttpError(404, 'integration_not_found', 'No integration of this account has this id.');
}

/** Product-code assignments of an integration: submitted, listed, read, validated and archived as revisions. */
export function productCodeAssignmentRoutes(clients: Clients, integrationOwned: IntegrationOwnership): RouteDef[] {
  const integration = async (req: { params: unknown }, principal: { accountId: bigint } | undefined) => ownedIntegration((req.params as { integration_id: string }).integration_id, principal!.accountId, integrationOwned);
  const successor = (kind: 'validate' | 'archive'): RouteDef => ({
    method: 'POST',
    url: `/v1/integrations/:integration_id/product-code-assignments/:assignment_id/${kind}`,
    access: { scopes: CLASSIFICATION_WRITE_SCOPES },
    limiter: 'classification',
    summary: kind === 'validate' ? 'Validate the head: a validated successor revision (the code is checked again), reprocessing enqueued' : 'Archive: a tombstone successor revision, reprocessing enqueued',
    tags: ['classification'],
    schema: { params: assignmentParams },
    responses: { 200: REVISION },
    errors: SUCCESSOR_ERRORS,
    handler: async ({ req, principal, call }) => {
      const integrationId = await integration(req, principal);
      const { assignment_id } = req.params as { assignment_id: string };
      const rpc = kind === 'validate' ? clients.classification.validateAssignment.bind(clients.classification) : clients.classification.archiveAssignment.bind(clients.classification);
      return revisionJson((await rpc({ integrationId, assignmentId: assignment_id }, call)).revision!);
    },
  });
  return [
    {
      method: 'POST',
      url: '/v1/integrations/:integration_id/product-code-assignments',
      access: { scopes: CLASSIFICATION_WRITE_SCOPES },
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
      responses: { 201: REVISION, 200: REVISION },
      errors: {
        400: ['invalid_scheme', 'invalid_code', 'invalid_product_reference', 'invalid_variant_reference', 'invalid_requested_valid_from', 'invalid_requested_valid_to', 'invalid_attestation', 'invalid_catalog_version'],
        404: ['integration_not_found'],
        422: ['assignment_outside_catalog_interval', 'attestation_required', 'catalog_unavailable', 'code_not_found', 'assignment_revision_limit_reached'],
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
      access: { scopes: CLASSIFICATION_WRITE_SCOPES },
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
      responses: { 200: page(REVISION) },
      errors: { 400: ['invalid_product_reference', 'invalid_state', 'invalid_cursor', 'invalid_limit'], 404: ['integration_not_found'] },
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
      access: { scopes: CLASSIFICATION_WRITE_SCOPES },
      limiter: 'classification',
      summary: 'One assignment: its head and every revision, oldest first',
      tags: ['classification'],
      schema: { params: assignmentParams },
      responses: { 200: object({ ...REVISION_PROPS, revisions: arrayOf(REVISION) }) },
      errors: { 404: ['integration_not_found', 'assignment_not_found'] },
      handler: async ({ req, principal, call }) => {
        const integrationId = await integration(req, principal);
        const { assignment_id } = req.params as { assignment_id: string };
        const r = await clients.classification.getAssignment({ integrationId, assignmentId: assignment_id }, call);
        return { ...revisionJson(r.head!), revisions: r.revisions.map(revisionJson) };
      },
    },
    successor('validate'),
    successor('archive'),
  ];
}
