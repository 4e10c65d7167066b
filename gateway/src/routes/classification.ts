import type { Clients } from '@vat/platform/clients';
import { opt } from '../json';
import type { RouteDef } from '../route';
import { body, country, date, query, str } from './schemas';

export function classificationRoutes(clients: Clients): RouteDef[] {
  return [
    {
      method: 'GET',
      url: '/v1/classification-codes/:scheme/:code',
      access: 'public',
      limiter: 'classification',
      summary: 'Validate an exact CN or CPA code against an approved catalog',
      tags: ['classification'],
      schema: {
        params: { type: 'object', properties: { scheme: str('invalid_scheme', { enum: ['cn', 'cpa'] }), code: str('invalid_code', { maxLength: 24 }) }, required: ['scheme', 'code'] },
        querystring: query({ catalog_version: str('invalid_catalog_version', { maxLength: 40 }), legal_date: date('invalid_legal_date', 'default today (UTC)') }),
      },
      handler: async ({ req, call }) => {
        const p = req.params as { scheme: string; code: string };
        const q = req.query as { catalog_version?: string; legal_date?: string };
        const r = await clients.classification.getClassificationCode({ scheme: p.scheme, code: p.code, catalogVersion: q.catalog_version, legalDate: q.legal_date }, call);
        return {
          scheme: r.scheme,
          normalized_code: r.normalizedCode,
          display_code: r.displayCode,
          description: r.description,
          source_url: r.sourceUrl,
          catalog_version: r.catalogVersion,
          catalog_digest: r.catalogDigest,
          applicable_from: r.applicableFrom,
          applicable_to: opt(r.applicableTo),
          knowledge_at: r.knowledgeAt,
        };
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
          { scheme: str('invalid_scheme', { enum: ['cn', 'cpa'] }), exact_code: str('invalid_code', { maxLength: 24 }), catalog_version: str('invalid_catalog_version', { maxLength: 40 }), jurisdiction: country('invalid_jurisdiction'), legal_date: date('invalid_legal_date') },
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
        };
      },
    },
  ];
}
