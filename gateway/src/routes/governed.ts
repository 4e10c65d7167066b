import type { Clients } from '@vat/platform/clients';
import type { DecisionComponent, GovernedDecision } from '@vat/gen/vat/calculation/v1/resources_pb';
import { num, opt } from '../json';
import type { RouteDef } from '../route';
import { CALCULATE_SCOPES } from './calculation';
import { body, country, currency, intOf, intParam, query, singleHeader, str } from './schemas';
import { arrayOf, dateTime, integer, nullable, object, page, ref, string, strings } from '../openapi/shapes';

const COMPONENT = object({
  kind: string,
  treatment: nullable(string),
  treatment_status: string,
  amount_status: string,
  jurisdiction: nullable(string),
  place_of_supply_rule: nullable(string),
  liable_party: nullable(string),
  collection_point: nullable(string),
  rate_category: nullable(string),
  vat_rate_bps: nullable(integer),
  net_amount_minor: ref('NullableMoneyMinor'),
  amount_minor: ref('NullableMoneyMinor'),
  gross_amount_minor: ref('NullableMoneyMinor'),
  currency: string,
  calculation_id: nullable(string),
  legal_basis: strings,
  provenance: strings,
  deduction_status: string,
  findings: strings,
});
const DECISION_PROPS = {
  decision_id: string,
  schema_version: string,
  status: { type: 'string', enum: ['complete', 'partial', 'incomplete', 'conflicting', 'unsupported'] },
  components: arrayOf(COMPONENT),
  legal_at: string,
  knowledge_at: dateTime,
  resolver_version: string,
  findings: strings,
  supersedes_decision_id: nullable(string),
  treatment_release: nullable(object({ release_id: string, digest: nullable(string) })),
  evidence_profile_revision: nullable(object({ revision_id: string, digest: nullable(string) })),
  source_id: nullable(string),
  created_at: dateTime,
  request_digest: string,
};
const STORED_DECISION = object({ ...DECISION_PROPS, answered_with: object({ http_status: integer, error: nullable(string) }) });

const big = (v: bigint | undefined) => (v === undefined ? null : num(v));

function componentJson(c: DecisionComponent) {
  return {
    kind: c.kind,
    treatment: opt(c.treatment),
    treatment_status: c.treatmentStatus,
    amount_status: c.amountStatus,
    jurisdiction: opt(c.jurisdiction),
    place_of_supply_rule: opt(c.placeOfSupplyRule),
    liable_party: opt(c.liableParty),
    collection_point: opt(c.collectionPoint),
    rate_category: opt(c.rateCategory),
    vat_rate_bps: opt(c.vatRateBps),
    net_amount_minor: big(c.netAmountMinor),
    amount_minor: big(c.amountMinor),
    gross_amount_minor: big(c.grossAmountMinor),
    currency: c.currency,
    calculation_id: opt(c.calculationId),
    legal_basis: c.legalBasis,
    provenance: c.provenance,
    deduction_status: c.deductionStatus,
    findings: c.findings,
  };
}

/** The governed decision as the REST body (`governed-calculation/v2`). */
function decisionJson(d: GovernedDecision) {
  return {
    decision_id: d.decisionId,
    schema_version: d.schemaVersion,
    status: d.status,
    components: d.components.map(componentJson),
    legal_at: d.legalAt,
    knowledge_at: d.knowledgeAt,
    resolver_version: d.resolverVersion,
    findings: d.findings,
    supersedes_decision_id: opt(d.supersedesDecisionId),
    treatment_release: d.treatmentReleaseId === undefined ? null : { release_id: d.treatmentReleaseId, digest: opt(d.treatmentReleaseDigest) },
    evidence_profile_revision: d.evidenceProfileRevisionId === undefined ? null : { revision_id: d.evidenceProfileRevisionId, digest: opt(d.evidenceProfileRevisionDigest) },
    source_id: opt(d.sourceId),
    created_at: d.createdAt,
    request_digest: d.requestDigest,
  };
}

const countryField = (code: string) => country(code);

export function governedRoutes(clients: Clients): RouteDef[] {
  return [
    {
      method: 'POST',
      url: '/v2/vat/calculate',
      access: { scopes: CALCULATE_SCOPES },
      summary: 'Governed, component-aware calculation: a durable decision with exactly four components',
      tags: ['calculation'],
      schema: {
        headers: {
          type: 'object',
          properties: {
            'idempotency-key': { type: 'string', description: 'required; 1-255 visible ASCII' },
            'x-evidence-profile': { type: 'string', description: 'id or source_key of one active source profile of the account; its revision is sealed' },
            'x-source-id': { type: 'string', description: 'reporting tag only; part of the idempotent identity' },
          },
        },
        body: body(
          {
            country: country(),
            currency: currency(),
            amount_minor: { type: 'integer', minimum: 0, maximum: 1e15, 'x-error': 'invalid_amount', description: 'minor units; gross when price_includes_vat, else net' },
            price_includes_vat: { type: 'boolean', 'x-error': 'invalid_price_includes_vat', 'x-error-missing': 'missing_price_includes_vat', 'x-error-null': 'missing_price_includes_vat' },
            transaction_date: str('invalid_transaction_date', { maxLength: 40, description: 'YYYY-MM-DD (midnight UTC) or RFC 3339; required' }),
            classification: {
              type: 'object',
              additionalProperties: false,
              'x-error': 'invalid_classification',
              properties: { scheme: str('invalid_scheme', { enum: ['cn', 'cpa'] }), code: str('invalid_code', { maxLength: 20 }), catalog_version: str('invalid_catalog_version', { maxLength: 10 }) },
              required: ['scheme', 'code', 'catalog_version'],
            },
            treatment_context: {
              type: 'object',
              additionalProperties: false,
              'x-error': 'invalid_treatment_context',
              properties: {
                customer_type: str('invalid_customer_type', { enum: ['b2c', 'b2b'] }),
                supplier_establishment_country: countryField('invalid_supplier_establishment_country'),
                dispatch_country: countryField('invalid_dispatch_country'),
                destination_country: countryField('invalid_destination_country'),
                customer_vat_number: str('invalid_customer_vat_number', {
                  maxLength: 60,
                  description: 'b2b only: the customer VAT number with its country prefix; its VIES evidence at the legal date decides a cross-border B2B supply (docs/vat-numbers.md). Kept only masked.',
                }),
              },
            },
            tax_class_id: str('unknown_tax_class', { minLength: 1, maxLength: 60 }),
            supersedes_decision_id: str('invalid_supersedes_decision_id', { format: 'uuid' }),
          },
          ['country', 'currency', 'amount_minor', 'price_includes_vat'],
        ),
      },
      responses: { 200: object(DECISION_PROPS) },
      // A 409 or 422 decision is stored: its body is the error code and detail plus the whole decision.
      errors: {
        400: ['missing_idempotency_key', 'invalid_idempotency_key', 'idempotency_requires_v2_key', 'missing_transaction_date', 'missing_treatment_context', 'missing_destination_country', 'missing_tax_selector', 'unknown_tax_class', 'invalid_tax_class_id', 'evidence_profile_unavailable', 'invalid_source_id', 'invalid_customer_vat_number'],
        404: ['decision_not_found'],
        409: ['idempotency_conflict', 'classification_conflict', 'jurisdiction_conflict', 'decision_conflicting'],
        422: ['evidence_profile_unavailable', 'treatment_coverage_unavailable', 'decision_incomplete', 'decision_unsupported'],
      },
      handler: async ({ req, reply, call }) => {
        const b = req.body as {
          country: string;
          currency: string;
          amount_minor: number;
          price_includes_vat: boolean;
          transaction_date?: string;
          classification?: { scheme: string; code: string; catalog_version: string };
          treatment_context?: { customer_type?: string; supplier_establishment_country?: string; dispatch_country?: string; destination_country?: string; customer_vat_number?: string };
          tax_class_id?: string;
          supersedes_decision_id?: string;
        };
        const t = b.treatment_context;
        const res = await clients.governed.calculateGoverned(
          {
            country: b.country,
            currency: b.currency,
            amountMinor: BigInt(b.amount_minor),
            priceIncludesVat: b.price_includes_vat,
            transactionDate: b.transaction_date,
            classification: b.classification ? { scheme: b.classification.scheme, code: b.classification.code, catalogVersion: b.classification.catalog_version } : undefined,
            treatmentContext: t ? { customerType: t.customer_type, supplierEstablishmentCountry: t.supplier_establishment_country, dispatchCountry: t.dispatch_country, destinationCountry: t.destination_country, customerVatNumber: t.customer_vat_number } : undefined,
            taxClassId: b.tax_class_id,
            supersedesDecisionId: b.supersedes_decision_id,
            idempotencyKey: singleHeader(req.headers['idempotency-key'], 'invalid_idempotency_key', 'Idempotency-Key'),
            evidenceProfile: singleHeader(req.headers['x-evidence-profile'], 'evidence_profile_unavailable', 'X-Evidence-Profile'),
            sourceId: singleHeader(req.headers['x-source-id'], 'invalid_source_id', 'X-Source-ID'),
          },
          call,
        );
        reply.status(res.httpStatus);
        if (res.replayed) reply.header('idempotent-replayed', 'true');
        const decision = decisionJson(res.decision!);
        return res.httpStatus === 200 ? decision : { error: res.error, detail: res.detail, ...decision };
      },
    },
    {
      method: 'GET',
      url: '/v2/decisions',
      access: { scopes: ['full', 'read-only', 'calculate-only'] },
      summary: "The account's stored governed decisions, newest first (keyset cursor)",
      tags: ['calculation'],
      schema: {
        querystring: query({
          cursor: str('invalid_cursor', { maxLength: 64 }),
          limit: { ...intParam('invalid_limit'), description: '1-200, default 50' },
          status: str('invalid_status', { maxLength: 20 }),
        }),
      },
      responses: { 200: page(STORED_DECISION) },
      errors: { 400: ['invalid_cursor', 'invalid_limit', 'invalid_status'] },
      handler: async ({ req, call }) => {
        const q = req.query as { cursor?: string; limit?: string; status?: string };
        const res = await clients.governed.listDecisions({ cursor: q.cursor, limit: intOf(q.limit), status: q.status }, call);
        return {
          items: res.items.map((i) => ({ ...decisionJson(i.decision!), answered_with: { http_status: i.httpStatus, error: i.error || null } })),
          next_cursor: res.nextCursor ?? null,
        };
      },
    },
    {
      method: 'GET',
      url: '/v2/decisions/:id',
      access: { scopes: ['full', 'read-only', 'calculate-only'] },
      summary: 'One stored governed decision of the account, as it was sealed',
      tags: ['calculation'],
      schema: { params: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }, querystring: query({}) },
      responses: { 200: STORED_DECISION },
      errors: { 404: ['decision_not_found'] },
      handler: async ({ req, call }) => {
        const { id } = req.params as { id: string };
        const res = await clients.governed.getDecision({ id }, call);
        return { ...decisionJson(res.decision!), answered_with: { http_status: res.httpStatus, error: res.error || null } };
      },
    },
  ];
}
