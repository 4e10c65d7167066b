import { createHash } from 'node:crypto';
import type { AdminDeps } from '@vat/classification/admin/admin-deps';
import { consumeStep, refuse, requireOperator, secondOperator } from '@vat/classification/admin/operators';
import { inTransaction } from '@vat/platform/transaction';
import { parseTreatmentRelease, releaseDigest, TreatmentReleaseError } from '@vat/calculation/domain/treatment-release';
import type { TreatmentReleaseRecord, TreatmentReleaseRepository } from '@vat/calculation/repositories/treatment-releases';

/**
 * The treatment-release workflow of the admin CLI (the composition root): the release lives in the
 * calculation schema, the operators, their TOTP check and the audit log are the classification module's
 * own (one operator registry). Importer ≠ activator, a fresh never-reused code, every attempt audited.
 */
export type TreatmentAdminDeps = { operators: AdminDeps; releases: TreatmentReleaseRepository };

const MAX_FILE_BYTES = 4 * 1024 * 1024;

function releaseSummary(r: TreatmentReleaseRecord) {
  return {
    id: r.id.toString(),
    release_id: r.releaseId,
    format: 'governed-treatment/v2',
    status: r.status,
    digest: r.digest,
    file_sha256: r.fileSha256,
    jurisdictions: r.jurisdictions.length,
    legal_from: r.legalFrom,
    legal_to: r.legalTo,
    rate_release_digest: r.rateReleaseDigest,
    imported_by: r.importedBy,
    imported_at: r.importedAt.toISOString(),
    activated_by: r.activatedBy,
    activated_at: r.activatedAt?.toISOString() ?? null,
  };
}

/** Imports a `governed-treatment/v2` file as a candidate (never active), sealing the current VAT rate release. */
export async function importTreatmentRelease(deps: TreatmentAdminDeps, input: { fileName: string; bytes: Uint8Array; operator: string }) {
  const ops = deps.operators;
  const attempt = { operator: input.operator, action: 'treatment.import', target: 'governed-treatment/v2' };
  await requireOperator(ops, input.operator, attempt.action, attempt.target);
  const fileSha256 = createHash('sha256').update(input.bytes).digest('hex');
  if (input.bytes.length === 0 || input.bytes.length > MAX_FILE_BYTES) return refuse(ops, attempt, 'invalid_release', `the file must hold 1 to ${MAX_FILE_BYTES} bytes.`);
  let content;
  try {
    content = parseTreatmentRelease(input.bytes);
  } catch (err) {
    if (!(err instanceof TreatmentReleaseError)) throw err;
    return refuse(ops, attempt, 'invalid_release', err.message, { file_sha256: fileSha256, issues: err.issues });
  }
  const rateReleaseDigest = await deps.releases.currentRateReleaseDigest();
  if (!rateReleaseDigest) return refuse(ops, attempt, 'rate_release_unavailable', 'no VAT rate release is stored yet; start the service once.');
  const at = ops.now();
  const id = await inTransaction(ops.pool, async (db) => {
    const newId = await deps.releases.insertCandidate(db, {
      releaseId: content.release_id,
      fileSha256,
      digest: releaseDigest(content, rateReleaseDigest),
      content,
      jurisdictions: content.jurisdictions,
      legalFrom: content.legal_from,
      legalTo: content.legal_to,
      rateReleaseDigest,
      importedBy: input.operator,
      importedAt: at,
    });
    await ops.operators.audit({ ...attempt, target: `treatment_release:${newId}`, outcome: 'ok', detail: { file_sha256: fileSha256, release_id: content.release_id, rate_release_digest: rateReleaseDigest } }, at, db);
    return newId;
  });
  return releaseSummary((await deps.releases.byId(id))!);
}

/** Activates a candidate: a second operator with a fresh TOTP code; the stored content must still hash to its digest. */
export async function activateTreatmentRelease(deps: TreatmentAdminDeps, input: { id: string; operator: string; totp: string }) {
  const ops = deps.operators;
  const attempt = { operator: input.operator, action: 'treatment.activate', target: `treatment_release:${input.id}` };
  const candidate = /^\d{1,18}$/.test(input.id) ? await deps.releases.byId(BigInt(input.id)) : undefined;
  if (!candidate) return refuse(ops, attempt, 'candidate_not_found', `no treatment release has id ${input.id}.`);
  if (candidate.status !== 'candidate') return refuse(ops, attempt, 'not_a_candidate', `treatment release ${input.id} is ${candidate.status}.`);
  const { op, step } = await secondOperator(ops, attempt, candidate.importedBy, input.totp);
  if (releaseDigest(candidate.content, candidate.rateReleaseDigest) !== candidate.digest) {
    return refuse(ops, attempt, 'candidate_tampered', 'the stored release changed since import; import the file again.');
  }
  const at = ops.now();
  const outcome = await inTransaction(ops.pool, async (db) => {
    if (!(await consumeStep(ops, db, op, step))) return 'totp_reused' as const;
    if (!(await deps.releases.activate(db, candidate.id, op.name, at))) return 'not_a_candidate' as const;
    await ops.operators.audit({ ...attempt, outcome: 'ok', detail: { digest: candidate.digest, release_id: candidate.releaseId, imported_by: candidate.importedBy } }, at, db);
    return 'ok' as const;
  });
  if (outcome === 'totp_reused') return refuse(ops, attempt, 'totp_reused', 'this code was already used; wait for the next 30-second code.');
  if (outcome === 'not_a_candidate') return refuse(ops, attempt, 'not_a_candidate', `treatment release ${input.id} was activated meanwhile.`);
  return releaseSummary((await deps.releases.byId(candidate.id))!);
}

export async function listTreatmentReleases(deps: TreatmentAdminDeps) {
  return (await deps.releases.list()).map(releaseSummary);
}
