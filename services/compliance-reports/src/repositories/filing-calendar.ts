import type pg from 'pg';
import { ReturnPeriodOverdueSchema } from '@vat/gen/vat/compliance_reports/v1/events_pb';
import { buildEvent } from '@vat/platform/events';
import { inTransaction } from '@vat/platform/transaction';
import { quarterOf, type Scheme } from '../domain/filing-calendar';

const FACT = '"compliance_reports".supply_fact';
const OVERDUE = '"compliance_reports".return_period_overdue';
const OUTBOX = '"compliance_reports".outbox';

export type OverduePeriod = { scheme: Scheme; periodKey: string; dueDate: string };

/** The reads and the one write of the filing calendar: event counts per period, and the overdue record with its event. */
export class FilingCalendarRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Supply events of the account by period between two days (inclusive, by tax point, UTC): `union_oss|YYYY-Qn`
   * counts every event but imported goods, `ioss|YYYY-MM` imported goods only (the two returns' scopes).
   */
  async eventCounts(accountId: bigint, from: string, to: string): Promise<Map<string, number>> {
    const res = await this.pool.query(
      `select to_char(occurred_at at time zone 'UTC', 'YYYY-MM') as month, supply_kind = 'imported_goods' as ioss, count(*)::int as n
         from ${FACT}
        where account_id = $1 and occurred_at >= $2::date and occurred_at < $3::date + 1
        group by 1, 2`,
      [accountId.toString(), from, to],
    );
    const counts = new Map<string, number>();
    for (const r of res.rows as { month: string; ioss: boolean; n: number }[]) {
      const key = r.ioss ? `ioss|${r.month}` : `union_oss|${quarterOf(`${r.month}-01`)}`;
      counts.set(key, (counts.get(key) ?? 0) + r.n);
    }
    return counts;
  }

  /**
   * Records the periods found overdue that were not recorded before and writes one `ReturnPeriodOverdue`
   * event for each to the outbox, in one transaction: a period is announced once. Answers how many were new.
   */
  async recordOverdue(accountId: bigint, periods: readonly OverduePeriod[], now: Date): Promise<number> {
    if (periods.length === 0) return 0;
    return inTransaction(this.pool, async (client) => {
      const res = await client.query(
        `insert into ${OVERDUE} (account_id, scheme_type, period_key, due_date, detected_at)
         select $1, s, p, d, $5 from unnest($2::text[], $3::text[], $4::text[]) as t(s, p, d)
         on conflict do nothing returning scheme_type, period_key, due_date`,
        [accountId.toString(), periods.map((p) => p.scheme), periods.map((p) => p.periodKey), periods.map((p) => p.dueDate), now],
      );
      for (const r of res.rows as { scheme_type: string; period_key: string; due_date: string }[]) {
        const event = buildEvent(ReturnPeriodOverdueSchema, { accountId, schemeType: r.scheme_type, periodKey: r.period_key, dueDate: r.due_date, detectedAt: now.toISOString() });
        await client.query(`insert into ${OUTBOX} (id, subject, payload, created_at, attempts) values ($1, $2, $3, $4, 0)`, [event.id, event.subject, Buffer.from(event.payload), now]);
      }
      return res.rowCount ?? 0;
    });
  }
}
