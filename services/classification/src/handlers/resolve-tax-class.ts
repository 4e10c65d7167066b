import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ResolveTaxClassResponseSchema, type ResolveTaxClassRequest } from '@vat/gen/vat/classification/v1/classification_service_pb';
import { invalidArgument } from '@vat/platform/rpc-errors';
import { isIsoCountry } from '@vat/platform/countries';
import { isEuMemberState } from '@vat/platform/countries';
import type { ClassificationDeps } from '../context';
import { covers, requireCatalogVersion, requireCode, requireDate, requireScheme } from '../domain/catalog-choice';
import { COVERAGE_MANIFEST } from '../domain/coverage-manifest';
import { decide } from '../domain/resolve';

/**
 * Resolves the governed mapping of an exact code. Anything that cannot be established (no published
 * manifest, no approved catalog for the version and date, a code not in it, no rule, review-only,
 * conflicting or withdrawn rules) is `needs_review` with a reason, never an error and never a guess.
 */
export async function resolveTaxClass(deps: ClassificationDeps, req: ResolveTaxClassRequest, _ctx: HandlerContext) {
  return resolveMapping(deps, req);
}

/** The resolution itself, shared by the RPC and the reprocessing worker. */
export async function resolveMapping(deps: ClassificationDeps, req: Pick<ResolveTaxClassRequest, 'scheme' | 'exactCode' | 'catalogVersion' | 'jurisdiction' | 'legalDate'>) {
  const scheme = requireScheme(req.scheme);
  const code = requireCode(scheme, req.exactCode);
  const version = requireCatalogVersion(scheme, req.catalogVersion);
  if (!/^[A-Z]{2}$/.test(req.jurisdiction) || !isIsoCountry(req.jurisdiction)) throw invalidArgument('invalid_jurisdiction', 'jurisdiction must be an ISO 3166-1 alpha-2 country code.');
  const legalDate = requireDate(req.legalDate, 'invalid_legal_date', 'legal_date');
  const review = (reason: string, extra: Record<string, unknown> = {}) =>
    create(ResolveTaxClassResponseSchema, { status: 'needs_review', authoritativeForMapping: false, notFinalTaxTreatment: true, reasons: [reason], coverageManifest: COVERAGE_MANIFEST, ...extra });
  const manifest = await deps.coverage.published(COVERAGE_MANIFEST);
  if (!manifest) return review('coverage_manifest_unpublished');
  const manifestFields = { coverageManifestVersion: manifest.version, coverageManifestDigest: manifest.digest };
  if (!isEuMemberState(req.jurisdiction)) return review('jurisdiction_outside_eu', manifestFields);
  const edition = await deps.catalogs.servedRevision(scheme, version);
  if (!edition || !covers(edition, legalDate)) return review('catalog_unavailable', manifestFields);
  const catalogFields = { ...manifestFields, catalogVersion: edition.version, catalogDigest: edition.digest };
  const lineage = (await deps.catalogs.lineage(edition.id, code)).map((c) => c.code);
  if (lineage.length === 0) return review('code_not_in_catalog', catalogFields);
  const rules = await deps.coverage.rulesFor(manifest.id, scheme, version, lineage, legalDate);
  const decision = decide(lineage, req.jurisdiction, rules);
  const ruleFields = decision.rule
    ? { ruleId: decision.rule.ruleId, matchedBy: decision.matchedBy, matchedCode: decision.rule.code, matchedJurisdiction: decision.rule.jurisdiction, legalReference: decision.rule.legalReference }
    : {};
  if (decision.status === 'needs_review') return review(decision.reason, { ...catalogFields, ...ruleFields, ...(decision.rule ? {} : decision.matchedBy ? { matchedBy: decision.matchedBy } : {}) });
  return create(ResolveTaxClassResponseSchema, {
    status: 'resolved',
    authoritativeForMapping: true,
    notFinalTaxTreatment: true,
    supplyKind: decision.rule.supplyKind,
    taxClassId: decision.rule.taxClassId,
    reasons: [],
    coverageManifest: COVERAGE_MANIFEST,
    ...catalogFields,
    ...ruleFields,
  });
}
