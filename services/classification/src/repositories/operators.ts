import type pg from 'pg';
import type { Queryable } from '@vat/platform/sql';
import { pgTimestamp } from '@vat/platform/sql';

const OPERATOR = '"classification".operator';
const AUDIT = '"classification".audit_entry';

export type OperatorRecord = { id: bigint; name: string; totpSecret: Buffer; lastTotpStep: number | null; createdAt: Date };

type AuditInput = { operator: string; action: string; target?: string | null; outcome: 'ok' | 'refused'; reason?: string | null; detail?: Record<string, unknown> };
type AuditRecord = AuditInput & { id: string; at: Date };

function operator(r: Record<string, any>): OperatorRecord {
  return { id: BigInt(r.id), name: r.name, totpSecret: r.totp_secret, lastTotpStep: r.last_totp_step === null ? null : Number(r.last_totp_step), createdAt: pgTimestamp(r.created_at) };
}

/** Operators of the admin workflow (encrypted TOTP secrets) and the append-only audit log. */
export class OperatorRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** Creates an operator; false when the name is taken. */
  async create(name: string, sealedSecret: Buffer, at: Date): Promise<boolean> {
    const r = await this.pool.query(`insert into ${OPERATOR} (name, totp_secret, created_at) values ($1, $2, $3) on conflict (name) do nothing`, [name, sealedSecret, at]);
    return r.rowCount === 1;
  }

  /** The operator, locked for the caller's transaction when `forUpdate`. */
  async byName(name: string, db: Queryable = this.pool, forUpdate = false): Promise<OperatorRecord | undefined> {
    const r = await db.query(`select * from ${OPERATOR} where name = $1${forUpdate ? ' for update' : ''}`, [name]);
    return r.rows[0] ? operator(r.rows[0]) : undefined;
  }

  async list(): Promise<{ name: string; createdAt: Date }[]> {
    const r = await this.pool.query(`select name, created_at from ${OPERATOR} order by name`);
    return r.rows.map((row) => ({ name: row.name, createdAt: pgTimestamp(row.created_at) }));
  }

  /** Records the step of an accepted code; false when that step (or a later one) was already used. */
  async consumeStep(db: Queryable, id: bigint, step: number): Promise<boolean> {
    const r = await db.query(`update ${OPERATOR} set last_totp_step = $2 where id = $1 and (last_totp_step is null or last_totp_step < $2)`, [id.toString(), step]);
    return r.rowCount === 1;
  }

  async audit(e: AuditInput, at: Date, db: Queryable = this.pool): Promise<void> {
    await db.query(`insert into ${AUDIT} (at, operator, action, target, outcome, reason, detail) values ($1, $2, $3, $4, $5, $6, $7::jsonb)`, [at, e.operator, e.action, e.target ?? null, e.outcome, e.reason ?? null, JSON.stringify(e.detail ?? {})]);
  }

  async auditLog(filter: { action?: string; limit: number }): Promise<AuditRecord[]> {
    const r = await this.pool.query(`select * from ${AUDIT} where ($1::text is null or action = $1) order by id desc limit $2`, [filter.action ?? null, filter.limit]);
    return r.rows.map((row) => ({ id: String(row.id), at: pgTimestamp(row.at), operator: row.operator, action: row.action, target: row.target, outcome: row.outcome, reason: row.reason, detail: row.detail }));
  }
}
