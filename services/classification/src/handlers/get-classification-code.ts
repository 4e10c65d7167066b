import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { GetClassificationCodeResponseSchema, type GetClassificationCodeRequest } from '@vat/gen/vat/classification/v1/classification_service_pb';
import { ClassificationCodeSchema } from '@vat/gen/vat/classification/v1/resources_pb';
import { failedPrecondition, notFound } from '@vat/platform/rpc-errors';
import type { ClassificationDeps } from '../context';
import { covers, requireCatalogVersion, requireCode, requireDate, requireScheme } from '../domain/catalog-choice';
import type { Scheme } from '../domain/codes';
import type { EditionRecord } from '../repositories/catalogs';

/**
 * The approved revision that answers for a legal date: the named edition (approved and covering the date),
 * or the approved edition whose legal interval covers the date. Errors name the date and the edition.
 */
async function editionFor(deps: ClassificationDeps, scheme: Scheme, legalDate: string, version: string | undefined): Promise<EditionRecord> {
  const label = scheme.toUpperCase();
  if (version !== undefined) {
    const served = await deps.catalogs.servedRevision(scheme, version);
    if (!served) throw notFound('catalog_unavailable', `${label} ${version} is not an approved catalog edition of this installation, so no approved catalog of that version covers ${legalDate} (an edition under review is never served).`);
    if (!covers(served, legalDate)) throw failedPrecondition('catalog_version_outside_legal_date', `${label} ${version} applies from ${served.legalFrom} to ${served.legalTo ?? 'open'} (exclusive); it does not cover ${legalDate}.`);
    return served;
  }
  const edition = (await deps.catalogs.approvedEditions(scheme)).find((e) => covers(e, legalDate));
  if (!edition) throw notFound('catalog_unavailable', `No approved ${label} catalog covers ${legalDate}; an operator must import, review and approve an official catalog first.`);
  return edition;
}

/** Exact-code validation against an approved catalog revision; never a nearest match. */
export async function getClassificationCode(deps: ClassificationDeps, req: GetClassificationCodeRequest, _ctx: HandlerContext) {
  const scheme = requireScheme(req.scheme);
  const normalized = requireCode(scheme, req.code);
  const version = req.catalogVersion === undefined ? undefined : requireCatalogVersion(scheme, req.catalogVersion);
  const legalDate = req.legalDate === undefined ? deps.now().toISOString().slice(0, 10) : requireDate(req.legalDate, 'invalid_legal_date', 'legal_date');
  const edition = await editionFor(deps, scheme, legalDate, version);
  const code = await deps.catalogs.code(edition.id, normalized);
  if (!code) throw notFound('code_not_found', `${normalized} is not a code of ${scheme.toUpperCase()} ${edition.version} (revision ${edition.revision}); codes are matched exactly, never to a nearest code.`);
  return create(GetClassificationCodeResponseSchema, {
    code: create(ClassificationCodeSchema, {
      scheme,
      normalizedCode: code.code,
      displayCode: code.displayCode,
      level: code.level,
      parentCode: code.parentCode ?? undefined,
      selfExplanatoryText: code.selfText,
      legalText: code.legalText,
      includes: code.includes ?? undefined,
      excludes: code.excludes ?? undefined,
      sourceUrl: edition.sourceUrl,
      sourceConceptId: code.conceptId,
      catalogVersion: edition.version,
      catalogRevision: edition.revision,
      catalogDigest: edition.digest,
      legalAct: edition.legalAct,
      applicableFrom: edition.legalFrom,
      applicableTo: edition.legalTo ?? undefined,
      recordedAt: edition.retrievedAt.toISOString(),
      approvedAt: edition.approvedAt!.toISOString(),
    }),
  });
}
