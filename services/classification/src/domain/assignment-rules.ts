import { createHash } from 'node:crypto';
import { create } from '@bufbuild/protobuf';
import { AssignmentRevisionSchema, AttestationSchema, type Attestation } from '@vat/gen/vat/classification/v1/resources_pb';
import { failedPrecondition, invalidArgument } from '@vat/platform/rpc-errors';
import type { RevisionRecord } from '../repositories/assignments';
import { requireCode, requireDate, requireScheme } from './catalog-choice';
import type { Scheme } from './codes';

/** Revisions an account may keep (submissions, validations and archivals all count); then 422. */
const ASSIGNMENT_REVISION_LIMIT = 10_000;

export const ASSIGNMENT_STATES = ['submitted', 'validated', 'archived'] as const;

const LEAF: Record<Scheme, { pattern: RegExp; name: string }> = {
  cn: { pattern: /^\d{8}$/, name: 'an 8-digit CN subheading' },
  cpa: { pattern: /^\d{2}\.\d{2}\.\d{2}$/, name: 'a 6-digit CPA subcategory (01.11.11)' },
};

function reference(value: string, field: string): string {
  if (value.trim() === '' || value.length > 200 || value !== value.trim()) throw invalidArgument(`invalid_${field}`, `${field} must be 1 to 200 characters without leading or trailing spaces.`);
  return value;
}

function attestation(a: Attestation | undefined): { statement: string; attested_by: string } | null {
  if (!a) return null;
  if (a.statement.trim() === '' || a.statement.length > 2000 || a.attestedBy.trim() === '' || a.attestedBy.length > 200) {
    throw invalidArgument('invalid_attestation', 'attestation needs statement (1-2,000 characters) and attested_by (1-200 characters).');
  }
  return { statement: a.statement, attested_by: a.attestedBy };
}

type AssignmentRequest = {
  scheme: Scheme;
  code: string;
  product: string;
  variant: string | null;
  validFrom: string;
  requestedValidTo: string | null;
  attestation: { statement: string; attested_by: string } | null;
};

/** Checks a submission's fields; the codes are the request field names. */
export function assignmentRequest(req: { scheme: string; exactCode: string; productReference: string; variantReference?: string; requestedValidFrom: string; requestedValidTo?: string; attestation?: Attestation }): AssignmentRequest {
  const scheme = requireScheme(req.scheme);
  const code = requireCode(scheme, req.exactCode);
  if (!LEAF[scheme].pattern.test(code)) throw invalidArgument('invalid_code', `an assignment names ${LEAF[scheme].name}; ${code} is a broader level.`);
  const product = reference(req.productReference, 'product_reference');
  const variant = req.variantReference === undefined ? null : reference(req.variantReference, 'variant_reference');
  const validFrom = requireDate(req.requestedValidFrom, 'invalid_requested_valid_from', 'requested_valid_from');
  const requestedValidTo = req.requestedValidTo === undefined ? null : requireDate(req.requestedValidTo, 'invalid_requested_valid_to', 'requested_valid_to');
  if (requestedValidTo !== null && requestedValidTo <= validFrom) throw invalidArgument('invalid_requested_valid_to', 'requested_valid_to is exclusive and must be after requested_valid_from.');
  return { scheme, code, product, variant, validFrom, requestedValidTo, attestation: attestation(req.attestation) };
}

/** What makes two submissions identical (an identical retry of the head is answered with the head). */
export function requestDigest(r: AssignmentRequest): string {
  return createHash('sha256').update(JSON.stringify([r.scheme, r.code, r.product, r.variant, r.validFrom, r.requestedValidTo, r.attestation?.statement ?? null, r.attestation?.attested_by ?? null])).digest('hex');
}

export function requireRevisionRoom(count: number): void {
  if (count >= ASSIGNMENT_REVISION_LIMIT) {
    throw failedPrecondition('assignment_revision_limit_reached', `this account keeps at most ${ASSIGNMENT_REVISION_LIMIT.toLocaleString('en-US')} assignment revisions (submissions, validations and archivals); no revision was stored.`);
  }
}

export function revisionMessage(r: RevisionRecord, head: boolean) {
  return create(AssignmentRevisionSchema, {
    assignmentId: r.assignmentId,
    revision: r.revision,
    head,
    state: r.state,
    integrationId: r.integrationId,
    productReference: r.productReference,
    variantReference: r.variantReference ?? undefined,
    scheme: r.scheme,
    exactCode: r.exactCode,
    displayCode: r.displayCode,
    validFrom: r.validFrom,
    validTo: r.validTo ?? undefined,
    validToSource: r.validToSource,
    catalogVersion: r.catalogVersion,
    catalogDigest: r.catalogDigest,
    backdated: r.backdated,
    attestation: r.attestation ? create(AttestationSchema, { statement: r.attestation.statement, attestedBy: r.attestation.attested_by }) : undefined,
    impactReview: r.impactReview ?? undefined,
    createdAt: r.createdAt.toISOString(),
  });
}
