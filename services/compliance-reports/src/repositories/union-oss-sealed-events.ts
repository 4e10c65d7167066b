import type pg from 'pg';

const SEALED = '"compliance_reports".union_oss_sealed_event';

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

/** Column, SQL type and value of a sealed row, in one list (the statement is built from it). */
const COLUMNS: [string, string, (e: ReturnEvent) => unknown][] = [
  ['ledger_sequence', 'bigint', (e) => e.ledgerSequence.toString()],
  ['event_id', 'text', (e) => e.eventId],
  ['event_type', 'text', (e) => e.eventType],
  ['occurred_at', 'timestamptz', (e) => e.occurredAt.toISOString()],
  ['member_state_of_consumption', 'text', (e) => e.memberStateOfConsumption],
  ['supply_kind', 'text', (e) => e.supplyKind],
  ['customer_type', 'text', (e) => e.customerType],
  ['currency', 'text', (e) => e.currency],
  ['net_amount_minor', 'bigint', (e) => e.netAmountMinor.toString()],
  ['vat_amount_minor', 'bigint', (e) => e.vatAmountMinor.toString()],
  ['late', 'boolean', (e) => e.late],
  ['disposition', 'text', (e) => e.disposition],
  ['warning_code', 'text', (e) => e.warningCode],
  ['reason', 'text', (e) => e.reason],
  ['review', 'text', (e) => e.review],
  ['vat_number_check_id', 'bigint', (e) => e.vatNumberCheckId?.toString() ?? null],
];
const CHUNK = 5000;

/** Seals a lock's events inside the lock's own transaction (`client`), in chunks of one statement each. */
export async function insertSealedEvents(client: pg.PoolClient, accountId: bigint, lockedPeriodId: string, periodKey: string, events: readonly ReturnEvent[]): Promise<void> {
  const names = COLUMNS.map(([c]) => c);
  const sql = `insert into ${SEALED} (locked_period_id, account_id, period_key, ${names.join(', ')})
    select $1::bigint, $2::bigint, $3, ${names.map((c) => `x.${c}`).join(', ')} from jsonb_to_recordset($4::jsonb) as x(${COLUMNS.map(([c, t]) => `${c} ${t}`).join(', ')})`;
  for (let i = 0; i < events.length; i += CHUNK) {
    const rows = events.slice(i, i + CHUNK).map((e) => Object.fromEntries(COLUMNS.map(([c, , v]) => [c, v(e)])));
    await client.query(sql, [lockedPeriodId, accountId.toString(), periodKey, JSON.stringify(rows)]);
  }
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

  /** Whether the account's lock of `periodKey` sealed its events (locks stored before sealing existed did not). */
  async sealed(accountId: bigint, periodKey: string): Promise<boolean> {
    const res = await this.pool.query(`select exists (select 1 from ${SEALED} where account_id = $1 and period_key = $2) as sealed`, [accountId.toString(), periodKey]);
    return res.rows[0].sealed === true;
  }

  /** A page of the events the account's lock of `periodKey` sealed, in ledger order after `after`. */
  async page(accountId: bigint, periodKey: string, filter: EventFilter, after: bigint, limit: number): Promise<ReturnEvent[]> {
    const res = await this.pool.query(
      `select ${COLUMNS.map(([c]) => (c === 'ledger_sequence' || c === 'vat_number_check_id' || c.endsWith('_minor') ? `${c}::text` : c)).join(', ')} from ${SEALED}
        where account_id = $1 and period_key = $2 and ledger_sequence > $3::bigint
          and ($4::text is null or disposition = $4) and ($5::text is null or reason = $5 or warning_code = $5) and ($6::text is null or member_state_of_consumption = $6)
        order by ledger_sequence limit $7`,
      [accountId.toString(), periodKey, after.toString(), filter.disposition, filter.reason, filter.memberState, limit],
    );
    return res.rows.map(eventOf);
  }
}
