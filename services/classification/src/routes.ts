import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import { ClassificationService, GetClassificationCodeResponseSchema, ResolveTaxClassResponseSchema } from '@vat/gen/vat/classification/v1/classification_service_pb';
import type { ServiceDeps } from '@vat/platform/service-module';
import { invalidArgument, notFound } from '@vat/platform/rpc-errors';
import { isValidDate } from '@vat/platform/http-inputs';
import { CatalogCode, CatalogEdition, CoverageManifest } from './entities/index';

export const COVERAGE_MANIFEST = 'classification_coverage_v1';
const CN_CODE = /^\d{2}(\d{2}(\d{2}(\d{2})?)?)?$/;
const CPA_CODE = /^\d{2}(\.\d{1,2}(\.\d{1,2}(\.\d{1,2})?)?)?$/;

/** Normalizes an exact code, or undefined when it is not of the scheme's shape. Never guesses. */
export function normalizeCode(scheme: string, code: string): string | undefined {
  if (scheme === 'cn') {
    const compact = code.replace(/ /g, '');
    return CN_CODE.test(compact) ? compact : undefined;
  }
  if (scheme === 'cpa') return CPA_CODE.test(code) ? code : undefined;
  return undefined;
}

/** An edition as imported: a CN year (`2022`) or a CPA version (`2.1`); the scheme is given separately. */
const CATALOG_VERSION = { cn: /^(19|20)[0-9]{2}$/, cpa: /^[0-9]{1,2}\.[0-9]{1,2}$/ } as const;

function checkCatalogVersion(scheme: 'cn' | 'cpa', version: string | undefined): void {
  if (version !== undefined && !CATALOG_VERSION[scheme].test(version)) {
    throw invalidArgument('invalid_catalog_version', scheme === 'cn' ? 'catalog_version of a CN code is the edition year, e.g. 2022.' : 'catalog_version of a CPA code is the version, e.g. 2.1.');
  }
}

export function routes(deps: ServiceDeps) {
  return (router: ConnectRouter) =>
    router.service(ClassificationService, {
      async getClassificationCode(req) {
        if (req.scheme !== 'cn' && req.scheme !== 'cpa') throw invalidArgument('invalid_scheme', 'scheme must be cn or cpa.');
        const normalized = normalizeCode(req.scheme, req.code);
        if (!normalized) throw invalidArgument('invalid_code', `"${req.code.slice(0, 40)}" is not an exact ${req.scheme.toUpperCase()} code.`);
        checkCatalogVersion(req.scheme, req.catalogVersion);
        if (req.legalDate !== undefined && !isValidDate(req.legalDate)) throw invalidArgument('invalid_legal_date', 'legal_date must be YYYY-MM-DD.');
        const legalDate = req.legalDate ?? deps.now().toISOString().slice(0, 10);
        const em = deps.orm.em.fork();
        const editions = await em.find(CatalogEdition, {
          scheme: req.scheme,
          status: 'approved',
          applicableFrom: { $lte: legalDate },
          $or: [{ applicableTo: null }, { applicableTo: { $gt: legalDate } }],
          ...(req.catalogVersion ? { version: req.catalogVersion } : {}),
        }, { orderBy: { applicableFrom: 'desc' }, limit: 1 });
        const edition = editions[0];
        if (!edition) throw notFound('catalog_unavailable', `No approved ${req.scheme.toUpperCase()} catalog covers ${legalDate}; an operator must import, review and approve an official catalog first.`);
        const code = await em.findOne(CatalogCode, { editionId: edition.id, normalizedCode: normalized });
        if (!code) throw notFound('code_not_found', `${normalized} is not a code of ${req.scheme.toUpperCase()} ${edition.version}.`);
        return create(GetClassificationCodeResponseSchema, {
          scheme: req.scheme,
          normalizedCode: code.normalizedCode,
          displayCode: code.displayCode,
          description: code.description,
          sourceUrl: code.sourceUrl,
          catalogVersion: edition.version,
          catalogDigest: edition.digest,
          applicableFrom: edition.applicableFrom,
          applicableTo: edition.applicableTo ?? undefined,
          knowledgeAt: code.recordedAt.toISOString(),
        });
      },
      async resolveTaxClass(req) {
        if (req.scheme !== 'cn' && req.scheme !== 'cpa') throw invalidArgument('invalid_scheme', 'scheme must be cn or cpa.');
        if (!normalizeCode(req.scheme, req.exactCode)) throw invalidArgument('invalid_code', `"${req.exactCode.slice(0, 40)}" is not an exact ${req.scheme.toUpperCase()} code.`);
        checkCatalogVersion(req.scheme, req.catalogVersion);
        if (!/^[A-Z]{2}$/.test(req.jurisdiction)) throw invalidArgument('invalid_jurisdiction', 'jurisdiction must be an ISO 3166-1 alpha-2 code.');
        if (!isValidDate(req.legalDate)) throw invalidArgument('invalid_legal_date', 'legal_date must be YYYY-MM-DD.');
        const manifest = await deps.orm.em.fork().findOne(CoverageManifest, { name: COVERAGE_MANIFEST });
        // Fail closed: without the reviewed coverage manifest no mapping is authoritative.
        return create(ResolveTaxClassResponseSchema, {
          status: 'needs_review',
          authoritativeForMapping: false,
          notFinalTaxTreatment: true,
          reasons: [manifest ? 'mapping_rule_unavailable' : 'coverage_manifest_unpublished'],
          coverageManifest: COVERAGE_MANIFEST,
        });
      },
    });
}
