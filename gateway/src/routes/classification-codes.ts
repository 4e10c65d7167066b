import type { ClassificationCode } from '@vat/gen/vat/classification/v1/resources_pb';
import type { Clients } from '@vat/platform/clients';
import { opt } from '../json';
import type { RouteDef } from '../route';
import { boolean, integer, nullable, object, string, strings } from '../openapi/shapes';
import { body, country, date, query, str } from './schemas';

export const CODE_FIELD = str('invalid_code', { maxLength: 24, description: 'CN: 2, 4, 6 or 8 digits (or the display form 0101 21 00); CPA: dot-separated digit groups' });

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

const CODE = object({
  scheme: string,
  normalized_code: string,
  display_code: string,
  level: string,
  parent_code: nullable(string),
  self_explanatory_text: string,
  legal_text: string,
  includes: nullable(string),
  excludes: nullable(string),
  source_url: string,
  source_concept_id: string,
  catalog_version: string,
  catalog_revision: integer,
  catalog_digest: string,
  legal_act: string,
  applicable_from: string,
  applicable_to: nullable(string),
  recorded_at: string,
  approved_at: string,
});
const RESOLUTION = object({
  status: { type: 'string', enum: ['resolved', 'needs_review'] },
  authoritative_for_mapping: boolean,
  not_final_tax_treatment: boolean,
  supply_kind: nullable(string),
  tax_class_id: nullable(string),
  reasons: strings,
  coverage_manifest: string,
  coverage_manifest_version: nullable(integer),
  coverage_manifest_digest: nullable(string),
  catalog_version: nullable(string),
  catalog_digest: nullable(string),
  rule_id: nullable(string),
  matched_by: nullable(string),
  matched_code: nullable(string),
  matched_jurisdiction: nullable(string),
  legal_reference: nullable(string),
});

/** Classification codes: an exact CN or CPA code as approved, and the governed mapping of a code to a tax class. */
export function classificationCodeRoutes(clients: Clients): RouteDef[] {
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
      responses: { 200: CODE },
      errors: { 400: ['invalid_scheme', 'invalid_code', 'invalid_catalog_version', 'invalid_legal_date'], 404: ['catalog_unavailable', 'code_not_found'], 422: ['catalog_version_outside_legal_date'] },
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
      responses: { 200: RESOLUTION },
      errors: { 400: ['invalid_scheme', 'invalid_code', 'invalid_catalog_version', 'invalid_jurisdiction', 'invalid_legal_date'] },
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
  ];
}
