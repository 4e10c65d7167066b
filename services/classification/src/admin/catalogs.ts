import { isCalendarDate } from '@vat/platform/http-inputs';
import { catalogDiff } from '../domain/catalog-diff';
import { CatalogFileError, codesDigest, parseCatalogFile, sha256Hex } from '../domain/catalog-file';
import { CATALOG_VERSIONS, isScheme, type Scheme } from '../domain/codes';
import type { EditionRecord } from '../repositories/catalogs';
import { inTransaction } from '@vat/platform/transaction';
import { OperatorRefusal, type AdminDeps } from './admin-deps';
import { consumeStep, refuse, requireOperator, secondOperator } from './operators';
import { createHash } from 'node:crypto';

type CatalogImportInput = {
  scheme: string;
  edition: string;
  fileName: string;
  bytes: Uint8Array;
  legalFrom: string;
  legalTo?: string;
  act: string;
  sourceUrl: string;
  operator: string;
};

type Progress = (stage: string, done: number, total: number) => void;

const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** The edition digest: what an answer's `catalog_digest` names (metadata, file hash and codes digest). */
function editionDigest(e: { scheme: string; version: string; revision: number; legalFrom: string; legalTo: string | null; legalAct: string; fileSha256: string; codesDigest: string }): string {
  const canonical = JSON.stringify([e.scheme, e.version, e.revision, e.legalFrom, e.legalTo, e.legalAct, e.fileSha256, e.codesDigest]);
  return `sha256:${createHash('sha256').update(canonical).digest('hex')}`;
}

function editionSummary(e: EditionRecord) {
  return {
    id: e.id.toString(),
    scheme: e.scheme,
    catalog_version: e.version,
    revision: e.revision,
    status: e.status,
    legal_from: e.legalFrom,
    legal_to: e.legalTo,
    legal_act: e.legalAct,
    source_url: e.sourceUrl,
    file_name: e.fileName,
    file_sha256: e.fileSha256,
    layout: e.layout,
    digest: e.digest,
    row_count: e.rowCount,
    level_counts: e.levelCounts,
    diff: e.diff,
    imported_by: e.importedBy,
    retrieved_at: e.retrievedAt.toISOString(),
    approved_by: e.approvedBy,
    approved_at: e.approvedAt?.toISOString() ?? null,
  };
}

function checkInput(i: CatalogImportInput): string | undefined {
  if (!isScheme(i.scheme)) return 'scheme must be cn or cpa.';
  if (!CATALOG_VERSIONS[i.scheme].includes(i.edition)) return `edition must be one of ${CATALOG_VERSIONS[i.scheme].join(', ')} for ${i.scheme.toUpperCase()}.`;
  if (!isCalendarDate(i.legalFrom)) return '--legal-from must be the YYYY-MM-DD date the legal act applies from; a row without a legal applicability never becomes authoritative.';
  if (i.legalTo !== undefined && (!isCalendarDate(i.legalTo) || i.legalTo <= i.legalFrom)) return '--legal-to must be a YYYY-MM-DD date after --legal-from (exclusive end).';
  if (i.scheme === 'cn' && i.legalFrom.slice(0, 4) !== i.edition) return `CN ${i.edition} applies from a date in ${i.edition}; --legal-from ${i.legalFrom} does not match the edition.`;
  if (!i.act.trim() || i.act.length > 500) return '--act names the legal act (1-500 characters).';
  if (!/^https:\/\/[^\s]{1,490}$/.test(i.sourceUrl)) return '--source-url must be the https URL the file was retrieved from.';
  if (i.bytes.length === 0 || i.bytes.length > MAX_FILE_BYTES) return `the file must hold 1 byte to ${MAX_FILE_BYTES} bytes.`;
  return undefined;
}

/**
 * Imports an official file as a candidate `under_review`: raw bytes and SHA-256 stored, rows parsed and
 * validated, diff against the last approved edition of the scheme. Nothing becomes authoritative here.
 */
export async function importCatalog(deps: AdminDeps, input: CatalogImportInput, progress: Progress = () => {}) {
  const attempt = { operator: input.operator, action: 'catalog.import', target: `${input.scheme}:${input.edition}` };
  await requireOperator(deps, input.operator, attempt.action, attempt.target);
  const bad = checkInput(input);
  if (bad) await refuse(deps, attempt, 'invalid_import', bad);
  const scheme = input.scheme as Scheme;
  const fileSha256 = sha256Hex(input.bytes);
  progress('parse', 0, input.bytes.length);
  let parsed;
  try {
    parsed = parseCatalogFile(scheme, input.edition, input.bytes);
  } catch (err) {
    if (!(err instanceof CatalogFileError)) throw err;
    await refuse(deps, attempt, 'invalid_catalog_file', err.message, { file_sha256: fileSha256, issues: err.issues });
  }
  progress('parse', input.bytes.length, input.bytes.length);
  const rows = parsed!.rows;
  const base = (await deps.catalogs.servedRevision(scheme, input.edition)) ?? (await deps.catalogs.approvedEditions(scheme))[0];
  const diff = catalogDiff(base ? await deps.catalogs.codes(base.id) : undefined, rows, base ? { id: base.id.toString(), catalog_version: base.version, revision: base.revision, digest: base.digest } : null);
  const retrievedAt = deps.now();
  const id = await inTransaction(deps.pool, async (db) => {
    await deps.catalogs.lockForImport(db);
    const revision = await deps.catalogs.nextRevision(db, scheme, input.edition);
    const meta = { scheme, version: input.edition, revision, legalFrom: input.legalFrom, legalTo: input.legalTo ?? null, legalAct: input.act, fileSha256, codesDigest: parsed!.codesDigest };
    progress('store', 0, rows.length);
    const newId = await deps.catalogs.insertCandidate(db, {
      ...meta,
      sourceUrl: input.sourceUrl,
      fileName: input.fileName.slice(-300),
      rawFile: input.bytes,
      layout: parsed!.layout,
      digest: editionDigest(meta),
      rowCount: rows.length,
      levelCounts: parsed!.levelCounts,
      diff,
      baseEditionId: base?.id ?? null,
      importedBy: input.operator,
      retrievedAt,
    }, rows);
    progress('store', rows.length, rows.length);
    await deps.operators.audit({ ...attempt, target: `catalog_edition:${newId}`, outcome: 'ok', detail: { scheme, catalog_version: input.edition, revision, file_sha256: fileSha256, rows: rows.length } }, retrievedAt, db);
    return newId;
  });
  return editionSummary((await deps.catalogs.byId(id))!);
}

/**
 * Approves a candidate: a second operator with a current TOTP code, the stored file and rows unchanged
 * since import, and no overlap with another approved edition of the scheme. The revision is then sealed.
 */
export async function approveCatalog(deps: AdminDeps, input: { id: string; operator: string; totp: string }) {
  const attempt = { operator: input.operator, action: 'catalog.approve', target: `catalog_edition:${input.id}` };
  const candidate = /^\d{1,18}$/.test(input.id) ? await deps.catalogs.byId(BigInt(input.id)) : undefined;
  if (!candidate) return refuse(deps, attempt, 'candidate_not_found', `no catalog candidate has id ${input.id}.`);
  if (candidate.status !== 'under_review') return refuse(deps, attempt, 'not_under_review', `catalog edition ${input.id} is ${candidate.status}.`);
  const { op, step } = await secondOperator(deps, attempt, candidate.importedBy, input.totp);
  const raw = await deps.catalogs.rawFile(candidate.id);
  if (sha256Hex(raw) !== candidate.fileSha256 || codesDigest(await deps.catalogs.codes(candidate.id)) !== candidate.codesDigest) {
    return refuse(deps, attempt, 'candidate_tampered', 'the stored file or its rows changed since import; import the official file again.', { file_sha256: candidate.fileSha256 });
  }
  const overlap = (await deps.catalogs.approvedEditions(candidate.scheme)).find(
    (e) => e.version !== candidate.version && e.legalFrom < (candidate.legalTo ?? '9999-12-31') && candidate.legalFrom < (e.legalTo ?? '9999-12-31'),
  );
  if (overlap) {
    return refuse(deps, attempt, 'legal_interval_overlap', `${candidate.scheme.toUpperCase()} ${overlap.version} (approved) applies ${overlap.legalFrom} to ${overlap.legalTo ?? 'open'}; approve a correction of it with an end date first.`);
  }
  const at = deps.now();
  const outcome = await inTransaction(deps.pool, async (db) => {
    if (!(await consumeStep(deps, db, op, step))) return 'totp_reused' as const;
    if (!(await deps.catalogs.approve(db, candidate.id, op.name, at))) return 'not_under_review' as const;
    await deps.operators.audit({ ...attempt, outcome: 'ok', detail: { digest: candidate.digest, imported_by: candidate.importedBy } }, at, db);
    return 'ok' as const;
  });
  if (outcome === 'totp_reused') return refuse(deps, attempt, 'totp_reused', 'this code was already used; wait for the next 30-second code.');
  if (outcome === 'not_under_review') return refuse(deps, attempt, 'not_under_review', `catalog edition ${input.id} was approved meanwhile.`);
  return editionSummary((await deps.catalogs.byId(candidate.id))!);
}

export async function listCatalogs(deps: AdminDeps, scheme?: string) {
  if (scheme !== undefined && !isScheme(scheme)) throw new OperatorRefusal('invalid_scheme', 'scheme must be cn or cpa.');
  return (await deps.catalogs.list(scheme as Scheme | undefined)).map(editionSummary);
}
