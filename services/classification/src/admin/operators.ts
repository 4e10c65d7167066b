import type { Queryable } from '@vat/platform/sql';
import { checkTotp, newTotpSecret } from '../domain/totp';
import type { OperatorRecord } from '../repositories/operators';
import { OperatorRefusal, type AdminDeps } from './admin-deps';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,99}$/;

const secretContext = (name: string) => `classification.operator.totp:${name}`;

/** Enrols an operator: a fresh TOTP secret, stored encrypted; the otpauth URI is returned once. */
export async function createOperator(deps: AdminDeps, name: string): Promise<{ operator: string; otpauth_uri: string; secret: string }> {
  const at = deps.now();
  if (!NAME.test(name)) throw new OperatorRefusal('invalid_operator_name', 'an operator name is 1-100 letters, digits, ".", "_", "@" or "-".');
  const { secret, uri } = newTotpSecret(name);
  if (!(await deps.operators.create(name, deps.cipher.encrypt(secret, secretContext(name)), at))) {
    await deps.operators.audit({ operator: name, action: 'operator.create', target: name, outcome: 'refused', reason: 'operator_exists' }, at);
    throw new OperatorRefusal('operator_exists', `an operator named ${name} exists already.`);
  }
  await deps.operators.audit({ operator: name, action: 'operator.create', target: name, outcome: 'ok' }, at);
  return { operator: name, otpauth_uri: uri, secret };
}

/** An enrolled operator or a refusal (audited). */
export async function requireOperator(deps: AdminDeps, name: string, action: string, target: string | null): Promise<OperatorRecord> {
  const op = await deps.operators.byName(name);
  if (!op) await refuse(deps, { operator: name, action, target }, 'unknown_operator', `no enrolled operator is named ${name}.`);
  return op!;
}

type Attempt = { operator: string; action: string; target: string | null };

/** Writes the refusal to the audit log, then throws it. */
export async function refuse(deps: AdminDeps, a: Attempt, reason: string, detail: string, extra: Record<string, unknown> = {}): Promise<never> {
  await deps.operators.audit({ ...a, outcome: 'refused', reason, detail: { detail, ...extra } }, deps.now());
  throw new OperatorRefusal(reason, detail, extra);
}

/**
 * The second operator's re-authentication: enrolled, not the one who prepared the candidate (four eyes),
 * and a code of the current TOTP step. Returns the step, which the caller consumes inside the transaction
 * that seals the candidate (so a code is never accepted twice).
 */
export async function secondOperator(deps: AdminDeps, a: Attempt, preparedBy: string, code: string): Promise<{ op: OperatorRecord; step: number }> {
  const op = await requireOperator(deps, a.operator, a.action, a.target);
  if (op.name === preparedBy) await refuse(deps, a, 'four_eyes_violation', `${op.name} imported this candidate; another operator must approve it.`);
  const secret = deps.cipher.decrypt(op.totpSecret, secretContext(op.name));
  const check = checkTotp(secret, code, deps.now());
  if (!check.ok) await refuse(deps, a, check.reason, check.reason === 'totp_stale' ? 'the code is from an earlier 30-second step; enter the current code.' : 'the code is not valid for this operator now.');
  return { op, step: (check as { step: number }).step };
}

/** Consumes the accepted step inside the sealing transaction; false means the code was already used. */
export async function consumeStep(deps: AdminDeps, db: Queryable, op: OperatorRecord, step: number): Promise<boolean> {
  await deps.operators.byName(op.name, db, true);
  return deps.operators.consumeStep(db, op.id, step);
}
