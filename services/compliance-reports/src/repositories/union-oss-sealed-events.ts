import type pg from 'pg';
import type { SealedScope } from './union-oss-facts';

const SEALED = '"compliance_reports".union_oss_sealed_event';
const BASIS = '"compliance_reports".union_oss_sealed_basis';

/** The disposition a lock gave every event of one key (what decides it: see union-oss-facts), and how many events had it. */
export type SealedDisposition = { key: string; count: number; disposition: 'included' | 'excluded'; warningCode: string | null; reason: string | null; review: string | null };

/**
 * What a lock seals instead of a copy of its events: the scope it read (ledger position, late windows,
 * group boundaries) and the disposition of each key. The facts at or before that position are frozen
 * (the ledger fences the quarter; a trigger refuses a classification change of a sealed fact), so the
 * same read lists exactly the events the lock saw, each with its sealed disposition.
 */
export type SealedBasis = { scope: SealedScope; dispositions: SealedDisposition[] };

/** One event of a return with its disposition: as the drill-down lists it and as a lock seals it. */
export type ReturnEvent = {
  ledgerSequence: bigint;
  eventId: string;
  eventType: string;
  occurredAt: Date;
  memberStateOfConsumption: string;
  supplyKind: string;
  customerType: string;
  currency: string;
  netAmountMinor: bigint;
  vatAmountMinor: bigint;
  late: boolean;
  disposition: 'included' | 'excluded';
  warningCode: string | null;
  reason: string | null;
  review: string | null;
  /** b2b with VIES evidence: the check (GET /v1/vat-numbers/checks) that put it out of scope. */
  vatNumberCheckId: bigint | null;
};

/** Filters of a drill-down page: `reason` matches the reason or the warning code. */
export type EventFilter = { disposition: 'included' | 'excluded' | null; reason: string | null; memberState: string | null };

/** Columns of a row sealed by a lock stored before locks sealed their basis (read only). */
const COLUMNS = ['ledger_sequence', 'event_id', 'event_type', 'occurred_at', 'member_state_of_consumption', 'supply_kind', 'customer_type', 'currency', 'net_amount_minor', 'vat_amount_minor', 'late', 'disposition', 'warning_code', 'reason', 'review', 'vat_number_check_id'];

/** Seals a lock's basis inside the lock's own transaction (`client`): one small row, whatever the number of events. */
export async function insertSealedBasis(client: pg.PoolClient, accountId: bigint, lockedPeriodId: string, periodKey: string, basis: SealedBasis): Promise<void> {
  await client.query(`insert into ${BASIS} (locked_period_id, account_id, period_key, scope, dispositions) values ($1::bigint, $2::bigint, $3, $4::jsonb, $5::jsonb)`, [
    lockedPeriodId,
    accountId.toString(),
    periodKey,
    JSON.stringify(basis.scope),
    JSON.stringify(basis.dispositions),
  ]);
}

const eventOf = (r: Record<string, unknown>): ReturnEvent => ({
  ledgerSequence: BigInt(r.ledger_sequence as string),
  eventId: r.event_id as string,
  eventType: r.event_type as string,
  occurredAt: new Date(r.occurred_at as string | Date),
  memberStateOfConsumption: r.member_state_of_consumption as string,
  supplyKind: r.supply_kind as string,
  customerType: r.customer_type as string,
  currency: r.currency as string,
  netAmountMinor: BigInt(r.net_amount_minor as string),
  vatAmountMinor: BigInt(r.vat_amount_minor as string),
  late: r.late as boolean,
  disposition: r.disposition as 'included' | 'excluded',
  warningCode: r.warning_code as string | null,
  reason: r.reason as string | null,
  review: r.review as string | null,
  vatNumberCheckId: r.vat_number_check_id === null || r.vat_number_check_id === undefined ? null : BigInt(r.vat_number_check_id as string),
});

/** Reads of what Union OSS locks sealed. */
export class UnionOssSealedEventRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** The basis the account's lock of `periodKey` sealed; undefined for a lock stored before locks sealed one. */
  async basis(accountId: bigint, periodKey: string): Promise<SealedBasis | undefined> {
    const res = await this.pool.query(`select scope, dispositions from ${BASIS} where account_id = $1 and period_key = $2`, [accountId.toString(), periodKey]);
    const r = res.rows[0];
    return r ? { scope: r.scope as SealedScope, dispositions: r.dispositions as SealedDisposition[] } : undefined;
  }

  /** Whether the account's lock of `periodKey` sealed a copy of its events (the locks of 2026-11-27 did). */
  async sealed(accountId: bigint, periodKey: string): Promise<boolean> {
    const res = await this.pool.query(`select exists (select 1 from ${SEALED} where account_id = $1 and period_key = $2) as sealed`, [accountId.toString(), periodKey]);
    return res.rows[0].sealed === true;
  }

  /** A page of the events the account's lock of `periodKey` sealed as a copy, in ledger order after `after`. */
  async page(accountId: bigint, periodKey: string, filter: EventFilter, after: bigint, limit: number): Promise<ReturnEvent[]> {
    const res = await this.pool.query(
      `select ${COLUMNS.map((c) => (c === 'ledger_sequence' || c === 'vat_number_check_id' || c.endsWith('_minor') ? `${c}::text` : c)).join(', ')} from ${SEALED}
        where account_id = $1 and period_key = $2 and ledger_sequence > $3::bigint
          and ($4::text is null or disposition = $4) and ($5::text is null or reason = $5 or warning_code = $5) and ($6::text is null or member_state_of_consumption = $6)
        order by ledger_sequence limit $7`,
      [accountId.toString(), periodKey, after.toString(), filter.disposition, filter.reason, filter.memberState, limit],
    );
    return res.rows.map(eventOf);
  }
}
