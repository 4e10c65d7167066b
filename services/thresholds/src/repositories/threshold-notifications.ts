import type pg from 'pg';
import { freshEvents } from '@vat/platform/inbox';
import { iso } from '../article59c/facts';

const TABLE = '"thresholds".threshold_notification';
type Db = Pick<pg.PoolClient, 'query'>;

export const NOTIFICATION_KINDS = { warning: 'article_59c_warning_band_entered', crossing: 'article_59c_threshold_crossed', overdue: 'return_period_overdue' } as const;

/** An Article 59c notification fills the mark fields; a return_period_overdue one the period fields (the others are empty). */
export type NotificationRow = {
  id: bigint;
  kind: string;
  year: number;
  eventId: string;
  cumulativeMinor: bigint;
  thresholdMinor: bigint;
  currency: string;
  occurredAt: string;
  recordedAt: string;
  createdAt: string;
  readAt: string | undefined;
  schemeType: string | undefined;
  periodKey: string | undefined;
  dueDate: string | undefined;
};

/** A notification to store: the mark, and the event that first reached it. */
type NewNotification = Omit<NotificationRow, 'id' | 'readAt' | 'createdAt' | 'schemeType' | 'periodKey' | 'dueDate'> & { accountId: bigint; createdAt: Date };

const COLUMNS = `id::text, kind, year, event_id, cumulative_minor::text, threshold_minor::text, currency, occurred_at, recorded_at, created_at, read_at, scheme_type, period_key, due_date`;

function notificationOfRow(r: Record<string, any>): NotificationRow {
  return {
    id: BigInt(r.id),
    kind: r.kind,
    year: r.year,
    eventId: r.event_id ?? '',
    cumulativeMinor: BigInt(r.cumulative_minor ?? 0),
    thresholdMinor: BigInt(r.threshold_minor ?? 0),
    currency: r.currency ?? '',
    occurredAt: r.occurred_at ? iso(r.occurred_at) : '',
    recordedAt: r.recorded_at ? iso(r.recorded_at) : '',
    createdAt: iso(r.created_at),
    readAt: r.read_at ? iso(r.read_at) : undefined,
    schemeType: r.scheme_type ?? undefined,
    periodKey: r.period_key === '' ? undefined : r.period_key,
    dueDate: r.due_date ?? undefined,
  };
}

/** Stores a notification in the caller's transaction; one of each kind per account and year (a second is dropped). */
export async function recordNotification(db: Db, n: NewNotification): Promise<void> {
  await db.query(
    `insert into ${TABLE} (account_id, year, kind, event_id, cumulative_minor, threshold_minor, currency, occurred_at, recorded_at, created_at)
     values ($1, $2, $3, $4, $5::numeric, $6, $7, $8, $9, $10) on conflict (account_id, year, kind, period_key) do nothing`,
    [n.accountId.toString(), n.year, n.kind, n.eventId, n.cumulativeMinor.toString(), n.thresholdMinor.toString(), n.currency, n.occurredAt, n.recordedAt, n.createdAt],
  );
}

/**
 * Stores one notification per ReturnPeriodOverdue event not seen before by `consumer` (the inbox step),
 * one per account and period; in the caller's transaction.
 */
export async function recordOverdueNotifications(db: Db, consumer: string, events: readonly { id: string; accountId: bigint; schemeType: string; periodKey: string; dueDate: string }[], now: Date): Promise<void> {
  if (events.length === 0) return;
  await db.query(
    `with ${freshEvents('thresholds')}
     insert into ${TABLE} (account_id, year, kind, scheme_type, period_key, due_date, created_at)
     select e.account_id, substr(e.period_key, 1, 4)::int, '${NOTIFICATION_KINDS.overdue}', e.scheme_type, e.period_key, e.due_date, $7
       from unnest($1::text[], $3::bigint[], $4::text[], $5::text[], $6::text[]) as e(id, account_id, scheme_type, period_key, due_date)
       join fresh on fresh.event_id = e.id
     on conflict (account_id, year, kind, period_key) do nothing`,
    [events.map((e) => e.id), consumer, events.map((e) => e.accountId.toString()), events.map((e) => e.schemeType), events.map((e) => e.periodKey), events.map((e) => e.dueDate), now],
  );
}

/** The account's notifications (Article 59c marks, overdue return periods): listed and marked read. */
export class ThresholdNotificationRepository {
  constructor(private readonly pool: pg.Pool) {}

  async list(accountId: bigint, q: { afterId?: bigint; unread?: boolean; limit: number }): Promise<{ rows: NotificationRow[]; more: boolean }> {
    const res = await this.pool.query(
      `select ${COLUMNS} from ${TABLE}
       where account_id = $1 and ($2::bigint is null or id > $2) and ($3::boolean is null or ($3 = (read_at is null)))
       order by ${TABLE}.id limit $4`,
      [accountId.toString(), q.afterId?.toString() ?? null, q.unread ?? null, q.limit + 1],
    );
    const rows = res.rows.map(notificationOfRow);
    return { rows: rows.slice(0, q.limit), more: rows.length > q.limit };
  }

  /** Marks the account's notification read (the first read time is kept); undefined when not the account's. */
  async markRead(accountId: bigint, id: bigint, now: Date): Promise<NotificationRow | undefined> {
    const res = await this.pool.query(`update ${TABLE} set read_at = coalesce(read_at, $3) where account_id = $1 and id = $2 returning ${COLUMNS}`, [accountId.toString(), id.toString(), now]);
    return res.rows[0] ? notificationOfRow(res.rows[0]) : undefined;
  }
}
