import { hasControlCharacter } from '@vat/platform/control-characters';
import { isValidDate } from '@vat/platform/http-inputs';
import { invalidArgument } from '@vat/platform/rpc-errors';
import { checkIntermediaryNumber, checkRegistrationNumber, MAX_IDENTIFIER_LENGTH, memberState, type MemberState, type SchemeType } from './identifiers';

const SCHEME_TYPES = ['union_oss', 'non_union_oss', 'ioss'] as const satisfies readonly SchemeType[];
export const STATUSES = ['active', 'pending', 'ended', 'excluded'] as const;
export type Status = (typeof STATUSES)[number];

/** IOSS exists from 1 July 2021 (Council Directive (EU) 2017/2455 as amended by (EU) 2020/1756). */
const IOSS_START = '2021-07-01';
const MAX_INTERMEDIARY_NAME = 200;

/** A full identifier in a change: absent keeps, null clears, a string replaces (checked against the final Member State). */
type IdentifierChange = string | null | undefined;

/** The request's fields after the per-field checks; `undefined` = not sent. */
export type RegistrationChanges = {
  memberStateIdentification?: string;
  vatRegistrationNumber?: string | null;
  iossIntermediaryName?: string | null;
  iossIntermediaryNumber?: string | null;
  effectiveFrom?: string;
  effectiveTo?: string | null;
  status?: Status;
};

/** What the rules need to know of a stored row (never its identifiers, only whether it has them). */
type StoredRegistration = {
  memberStateIdentification: string;
  hasVatRegistrationNumber: boolean;
  iossIntermediaryName?: string | null;
  hasIossIntermediaryNumber: boolean;
  effectiveFrom: string;
  effectiveTo?: string | null;
  status: string;
};

/** The row as it will be stored; identifiers: undefined keeps the stored one, null clears, a string is the normalized value. */
export type ResolvedRegistration = {
  memberStateIdentification: string;
  iossIntermediaryName: string | null;
  effectiveFrom: string;
  effectiveTo: string | null;
  status: Status;
  vatRegistrationNumber: IdentifierChange;
  iossIntermediaryNumber: IdentifierChange;
};

export function checkSchemeType(v: string): SchemeType {
  if (v === '') throw invalidArgument('invalid_scheme_type', `scheme_type is required: one of ${SCHEME_TYPES.join(', ')}.`);
  if (!(SCHEME_TYPES as readonly string[]).includes(v)) throw invalidArgument('invalid_scheme_type', `scheme_type must be one of ${SCHEME_TYPES.join(', ')}.`);
  return v as SchemeType;
}

function checkMemberState(v: string): MemberState {
  const m = memberState(v);
  if (m) return m;
  const hint = v === 'EL' ? ' Greece is GR here (EL is only the prefix of Greek VAT numbers).' : v === 'XI' ? ' Northern Ireland (XI) is not a Member State of identification.' : '';
  throw invalidArgument('invalid_member_state_identification', `member_state_identification must be the ISO 3166-1 alpha-2 code of an EU Member State.${hint}`);
}

function checkDate(field: string, v: string): string {
  if (!isValidDate(v)) throw invalidArgument(`invalid_${field}`, `${field} must be a calendar date written YYYY-MM-DD (years 1900 to 9999).`);
  return v;
}

function checkStatus(v: string): Status {
  if (!(STATUSES as readonly string[]).includes(v)) throw invalidArgument('invalid_status', `status must be one of ${STATUSES.join(', ')}.`);
  return v as Status;
}

/** An optional field: '' clears (null), undefined keeps, anything else must pass `check`. */
function optional<T>(v: string | undefined, check: (v: string) => T): T | null | undefined {
  if (v === undefined) return undefined;
  if (v === '') return null;
  return check(v);
}

function checkIntermediaryName(v: string): string {
  if (v.trim() === '' || [...v].length > MAX_INTERMEDIARY_NAME || hasControlCharacter(v)) {
    throw invalidArgument('invalid_ioss_intermediary_name', `ioss_intermediary_name must be 1 to ${MAX_INTERMEDIARY_NAME} characters, not blank, without control characters ("" clears it).`);
  }
  return v;
}

/** A full identifier is only length-checked here; its format depends on the final scheme and Member State. */
function rawIdentifier(field: string) {
  return (v: string): string => {
    if (v.length > MAX_IDENTIFIER_LENGTH) throw invalidArgument(`invalid_${field}`, `${field} must be at most ${MAX_IDENTIFIER_LENGTH} characters.`);
    return v;
  };
}

type FieldInput = {
  memberStateIdentification?: string;
  vatRegistrationNumber?: string;
  iossIntermediaryName?: string;
  iossIntermediaryNumber?: string;
  effectiveFrom?: string;
  effectiveTo?: string;
  status?: string;
};

/** Per-field checks of a create or update request, in field order; '' clears an optional field. */
export function registrationChanges(req: FieldInput): RegistrationChanges {
  const required = <T>(field: string, v: string | undefined, check: (v: string) => T): T | undefined => {
    if (v === undefined) return undefined;
    if (v === '') throw invalidArgument(`invalid_${field}`, `${field} is required and cannot be cleared.`);
    return check(v);
  };
  return {
    memberStateIdentification: required('member_state_identification', req.memberStateIdentification, (v) => checkMemberState(v).code),
    vatRegistrationNumber: optional(req.vatRegistrationNumber, rawIdentifier('vat_registration_number')),
    iossIntermediaryName: optional(req.iossIntermediaryName, checkIntermediaryName),
    iossIntermediaryNumber: optional(req.iossIntermediaryNumber, rawIdentifier('ioss_intermediary_number')),
    effectiveFrom: required('effective_from', req.effectiveFrom, (v) => checkDate('effective_from', v)),
    effectiveTo: optional(req.effectiveTo, (v) => checkDate('effective_to', v)),
    status: required('status', req.status, checkStatus),
  };
}

/** The fields a create request must carry (the four the spec's example accepts). */
export function requireCreateFields(c: RegistrationChanges): void {
  if (c.memberStateIdentification === undefined) throw invalidArgument('invalid_member_state_identification', 'member_state_identification is required.');
  if (c.effectiveFrom === undefined) throw invalidArgument('invalid_effective_from', 'effective_from is required.');
  if (c.status === undefined) throw invalidArgument('invalid_status', `status is required: one of ${STATUSES.join(', ')}.`);
}

function resolveIdentifier(
  change: string | null | undefined,
  stored: boolean,
  movedFrom: string | undefined,
  field: string,
  check: (raw: string) => { ok: true; value: string } | { ok: false; expected: string },
  finalCode: string,
): IdentifierChange {
  if (typeof change === 'string') {
    const r = check(change);
    if (!r.ok) throw invalidArgument(`invalid_${field}`, `${field} must be ${r.expected}.`);
    return r.value;
  }
  if (change === undefined && stored && movedFrom !== undefined) {
    throw invalidArgument(`invalid_${field}`, `The stored ${field} was issued for ${movedFrom}; send the number issued for ${finalCode} with the new member_state_identification, or "" to clear it.`);
  }
  return change;
}

/**
 * Applies a change set to a stored row (or to nothing, for a create) and checks the rules that
 * span fields: `ioss_*` only on `ioss` rows, identifier formats for the final scheme and Member
 * State, the window (effective_to is the last day, inclusive, on or after effective_from), IOSS
 * not before its start, and `ended` with an effective_to.
 */
export function resolveRegistration(scheme: SchemeType, stored: StoredRegistration | undefined, c: RegistrationChanges): ResolvedRegistration {
  if (scheme !== 'ioss' && (c.iossIntermediaryName !== undefined || c.iossIntermediaryNumber !== undefined)) {
    const field = c.iossIntermediaryName !== undefined ? 'ioss_intermediary_name' : 'ioss_intermediary_number';
    throw invalidArgument('ioss_fields_not_allowed', `${field} is only allowed on ioss registrations (this one is ${scheme}).`);
  }
  const msi = c.memberStateIdentification ?? stored!.memberStateIdentification;
  const m = memberState(msi)!;
  const movedFrom = stored && stored.memberStateIdentification !== msi ? stored.memberStateIdentification : undefined;
  const vat = resolveIdentifier(c.vatRegistrationNumber, stored?.hasVatRegistrationNumber ?? false, movedFrom, 'vat_registration_number', (raw) => checkRegistrationNumber(scheme, m, raw), msi);
  const intermediary = resolveIdentifier(c.iossIntermediaryNumber, stored?.hasIossIntermediaryNumber ?? false, movedFrom, 'ioss_intermediary_number', (raw) => checkIntermediaryNumber(m, raw), msi);
  const effectiveFrom = c.effectiveFrom ?? stored!.effectiveFrom;
  const effectiveTo = c.effectiveTo === undefined ? (stored?.effectiveTo ?? null) : c.effectiveTo;
  const status = c.status ?? (stored!.status as Status);
  if (effectiveTo !== null && effectiveTo < effectiveFrom) {
    throw invalidArgument('invalid_effective_window', `effective_to (${effectiveTo}, the last day in force, inclusive) must be on or after effective_from (${effectiveFrom}).`);
  }
  if (scheme === 'ioss' && effectiveFrom < IOSS_START) throw invalidArgument('invalid_effective_from', `The IOSS scheme exists from ${IOSS_START}; effective_from ${effectiveFrom} is earlier.`);
  if (status === 'ended' && effectiveTo === null) throw invalidArgument('effective_to_required', 'status ended requires effective_to (the last day the registration was in force).');
  return {
    memberStateIdentification: msi,
    iossIntermediaryName: c.iossIntermediaryName === undefined ? (stored?.iossIntermediaryName ?? null) : c.iossIntermediaryName,
    effectiveFrom,
    effectiveTo,
    status,
    vatRegistrationNumber: vat,
    iossIntermediaryNumber: intermediary,
  };
}
