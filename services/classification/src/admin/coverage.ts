import { loadTaxClasses } from '@vat/seeds/vat-rates';
import { sha256Hex } from '../domain/catalog-file';
import { COVERAGE_MANIFEST, manifestDigest, ManifestError, parseCoverageManifest, type CoverageRuleInput } from '../domain/coverage-manifest';
import type { ManifestRecord } from '../repositories/coverage';
import { inTransaction } from '@vat/platform/transaction';
import type { AdminDeps } from './admin-deps';
import { consumeStep, refuse, requireOperator, secondOperator } from './operators';

const MAX_FILE_BYTES = 32 * 1024 * 1024;

function manifestSummary(m: ManifestRecord) {
  return {
    id: m.id.toString(),
    name: m.name,
    version: m.version,
    status: m.status,
    file_name: m.fileName,
    file_sha256: m.fileSha256,
    digest: m.digest,
    rule_count: m.ruleCount,
    imported_by: m.importedBy,
    imported_at: m.importedAt.toISOString(),
    published_by: m.publishedBy,
    published_at: m.publishedAt?.toISOString() ?? null,
  };
}

/** Every rule's code must be a code of the served revision of its edition, inside the edition's legal interval. */
async function catalogProblems(deps: AdminDeps, rules: readonly CoverageRuleInput[]): Promise<{ rule: string; error: string; detail: string }[]> {
  const problems: { rule: string; error: string; detail: string }[] = [];
  const editions = new Map<string, Awaited<ReturnType<AdminDeps['catalogs']['servedRevision']>>>();
  const codes = new Map<string, Set<string>>();
  for (const r of rules) {
    const key = `${r.scheme}:${r.catalogVersion}`;
    if (!editions.has(key)) {
      const e = await deps.catalogs.servedRevision(r.scheme, r.catalogVersion);
      editions.set(key, e);
      if (e) codes.set(key, new Set((await deps.catalogs.codes(e.id)).map((c) => c.code)));
    }
    const e = editions.get(key);
    if (!e) problems.push({ rule: r.ruleId, error: 'catalog_not_approved', detail: `${r.scheme.toUpperCase()} ${r.catalogVersion} has no approved revision.` });
    else if (!codes.get(key)!.has(r.code)) problems.push({ rule: r.ruleId, error: 'code_not_in_catalog', detail: `${r.code} is not a code of ${r.scheme.toUpperCase()} ${r.catalogVersion}.` });
    else if (r.legalFrom < e.legalFrom || (e.legalTo !== null && (r.legalTo === null || r.legalTo > e.legalTo))) {
      problems.push({ rule: r.ruleId, error: 'outside_catalog_interval', detail: `${r.scheme.toUpperCase()} ${r.catalogVersion} applies ${e.legalFrom} to ${e.legalTo ?? 'open'}.` });
    }
    if (problems.length >= 100) break;
  }
  return problems;
}

/** Imports a `classification_coverage_v1` file as a new manifest version under review. */
export async function importCoverage(deps: AdminDeps, input: { fileName: string; bytes: Uint8Array; operator: string }) {
  const attempt = { operator: input.operator, action: 'coverage.import', target: COVERAGE_MANIFEST };
  await requireOperator(deps, input.operator, attempt.action, attempt.target);
  const fileSha256 = sha256Hex(input.bytes);
  if (input.bytes.length === 0 || input.bytes.length > MAX_FILE_BYTES) return refuse(deps, attempt, 'invalid_manifest', `the file must hold 1 byte to ${MAX_FILE_BYTES} bytes.`);
  let rules: CoverageRuleInput[] = [];
  try {
    rules = parseCoverageManifest(input.bytes, new Set(loadTaxClasses().classes.map((c) => c.id)));
  } catch (err) {
    if (!(err instanceof ManifestError)) throw err;
    return refuse(deps, attempt, 'invalid_manifest', err.message, { file_sha256: fileSha256, issues: err.issues });
  }
  const problems = await catalogProblems(deps, rules);
  if (problems.length) return refuse(deps, attempt, 'manifest_not_covered_by_catalog', `${problems.length} rule(s) name codes no approved catalog holds; first: ${problems[0]!.rule} ${problems[0]!.error}.`, { issues: problems });
  const at = deps.now();
  const id = await inTransaction(deps.pool, async (db) => {
    const newId = await deps.coverage.insertCandidate(db, { name: COVERAGE_MANIFEST, fileName: input.fileName.slice(-300), fileSha256, rawFile: input.bytes, digest: manifestDigest(rules), importedBy: input.operator, importedAt: at }, rules);
    await deps.operators.audit({ ...attempt, target: `coverage_manifest:${newId}`, outcome: 'ok', detail: { file_sha256: fileSha256, rules: rules.length } }, at, db);
    return newId;
  });
  return manifestSummary((await deps.coverage.byId(id))!);
}

/**
 * Publishes a manifest version: second operator with a current TOTP, stored file unchanged, then sealed.
 * In the same transaction every live assignment's product is queued for reprocessing (affected mappings).
 */
export async function publishCoverage(deps: AdminDeps, input: { id: string; operator: string; totp: string }) {
  const attempt = { operator: input.operator, action: 'coverage.publish', target: `coverage_manifest:${input.id}` };
  const candidate = /^\d{1,18}$/.test(input.id) ? await deps.coverage.byId(BigInt(input.id)) : undefined;
  if (!candidate) return refuse(deps, attempt, 'candidate_not_found', `no coverage manifest has id ${input.id}.`);
  if (candidate.status !== 'under_review') return refuse(deps, attempt, 'not_under_review', `coverage manifest ${input.id} is ${candidate.status}.`);
  const { op, step } = await secondOperator(deps, attempt, candidate.importedBy, input.totp);
  const current = await deps.coverage.published(candidate.name);
  if (current && current.version > candidate.version) return refuse(deps, attempt, 'superseded_candidate', `version ${current.version} is published already; import the manifest again.`);
  const rules = await deps.coverage.rules(candidate.id);
  if (sha256Hex(await deps.coverage.rawFile(candidate.id)) !== candidate.fileSha256 || manifestDigest(rules) !== candidate.digest) {
    return refuse(deps, attempt, 'candidate_tampered', 'the stored file or its rules changed since import; import the manifest again.');
  }
  const problems = await catalogProblems(deps, rules);
  if (problems.length) return refuse(deps, attempt, 'manifest_not_covered_by_catalog', `${problems.length} rule(s) name codes no approved catalog holds.`, { issues: problems });
  const at = deps.now();
  const outcome = await inTransaction(deps.pool, async (db) => {
    if (!(await consumeStep(deps, db, op, step))) return { status: 'totp_reused' as const };
    if (!(await deps.coverage.publish(db, candidate.id, op.name, at))) return { status: 'not_under_review' as const };
    const jobs = await deps.assignments.enqueueReprocessing(db, await deps.assignments.activeProducts(db), 'coverage_published', at);
    await deps.operators.audit({ ...attempt, outcome: 'ok', detail: { digest: candidate.digest, version: candidate.version, imported_by: candidate.importedBy, reprocessing_jobs: jobs } }, at, db);
    return { status: 'ok' as const, jobs };
  });
  if (outcome.status === 'totp_reused') return refuse(deps, attempt, 'totp_reused', 'this code was already used; wait for the next 30-second code.');
  if (outcome.status === 'not_under_review') return refuse(deps, attempt, 'not_under_review', `coverage manifest ${input.id} was published meanwhile.`);
  return { ...manifestSummary((await deps.coverage.byId(candidate.id))!), reprocessing_jobs: outcome.jobs };
}

export async function listCoverage(deps: AdminDeps) {
  return (await deps.coverage.list()).map(manifestSummary);
}
