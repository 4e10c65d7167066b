/**
 * The filing calendar (issue 21): every Union OSS quarter and IOSS month an account's registrations
 * cover, with its due date and status. Pure: the caller supplies registrations, locks, event counts
 * and today.
 *
 * Due dates: the Union scheme return is due by the end of the month following the quarter (Art. 369f of
 * Directive 2006/112/EC), the IOSS return by the end of the month following the month (Art. 369v).
 * A covered period with no supply is still a return to submit: a nil return (Art. 369f; Art. 369v).
 */
import { parseQuarter } from './coverage';
import { FIRST_UNION_OSS_PERIOD, filingDueDate } from './union-oss-return';

export type CalendarStatus = 'not_due' | 'due' | 'overdue' | 'locked' | 'filed' | 'nil_return_due';
export type Scheme = 'union_oss' | 'ioss';

export type CalendarRegistration = { id: bigint; schemeType: string; effectiveFrom: string; effectiveTo?: string | null; status: string };
export type CalendarLock = { periodKey: string; status: 'locked' | 'filed'; totalSourceEventCount: bigint; filedAt: Date | null; submissionReference: string | null; filedOn: string | null };

export type CalendarEntry = {
  scheme: Scheme;
  periodKey: string;
  start: string;
  end: string;
  dueDate: string;
  status: CalendarStatus;
  overdue: boolean;
  registrationIds: bigint[];
  sourceEventCount: number;
  lock: CalendarLock | undefined;
};

/** IOSS began on 2021-07-01 with the Union scheme. */
export const FIRST_IOSS_MONTH = '2021-07';

const lastDayOfMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);

/** `YYYY-MM` to its first and last day. */
export function monthBounds(key: string): { start: string; end: string } {
  const y = Number(key.slice(0, 4));
  const m = Number(key.slice(5, 7));
  return { start: `${key}-01`, end: lastDayOfMonth(y, m) };
}

/** The IOSS return of a month is due by the last day of the following month (Art. 369v). */
export function iossDueDate(month: string): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return lastDayOfMonth(y, m + 1);
}

const nextMonth = (key: string) => {
  const y = Number(key.slice(0, 4));
  const m = Number(key.slice(5, 7));
  return m === 12 ? `${y + 1}-01` : `${key.slice(0, 4)}-${String(m + 1).padStart(2, '0')}`;
};
const nextQuarter = (key: string) => {
  const y = Number(key.slice(0, 4));
  const q = Number(key.slice(6));
  return q === 4 ? `${y + 1}-Q1` : `${y}-Q${q + 1}`;
};
export const quarterOf = (date: string) => `${date.slice(0, 4)}-Q${Math.floor((Number(date.slice(5, 7)) - 1) / 3) + 1}`;

/** The periods of a scheme whose days meet [from, to] (inclusive dates). */
export function periodsBetween(scheme: Scheme, from: string, to: string): { key: string; start: string; end: string; dueDate: string }[] {
  const out: { key: string; start: string; end: string; dueDate: string }[] = [];
  if (scheme === 'union_oss') {
    let key = quarterOf(from) < FIRST_UNION_OSS_PERIOD ? FIRST_UNION_OSS_PERIOD : quarterOf(from);
    for (let q = parseQuarter(key)!; q.start <= to; key = nextQuarter(key), q = parseQuarter(key)!) out.push({ key, start: q.start, end: q.end, dueDate: filingDueDate(key) });
  } else {
    let key = from.slice(0, 7) < FIRST_IOSS_MONTH ? FIRST_IOSS_MONTH : from.slice(0, 7);
    for (let b = monthBounds(key); b.start <= to; key = nextMonth(key), b = monthBounds(key)) out.push({ key, ...b, dueDate: iossDueDate(key) });
  }
  return out;
}

/** The `active`/`ended` registrations of the scheme that share a day with the period (pending and excluded ones never cover). */
function coveringIds(regs: readonly CalendarRegistration[], scheme: Scheme, start: string, end: string): bigint[] {
  return regs
    .filter((r) => r.schemeType === scheme && (r.status === 'active' || r.status === 'ended') && r.effectiveFrom <= end && (r.effectiveTo ?? '9999-12-31') >= start)
    .map((r) => r.id)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * One period's status on `today` (UTC date). A period is `not_due` until its last day has passed;
 * then `filed` once marked filed; a locked quarter is `locked` until its due date passes; a period with
 * no supply event is `nil_return_due` (still a return to submit; `overdue` says when it is late);
 * otherwise `due`, and `overdue` after its due date. `overdue` is true for every period not filed by its due date.
 */
export function statusOf(p: { end: string; dueDate: string }, lock: CalendarLock | undefined, events: number, today: string): { status: CalendarStatus; overdue: boolean } {
  if (p.end >= today) return { status: 'not_due', overdue: false };
  if (lock?.status === 'filed') return { status: 'filed', overdue: false };
  const overdue = today > p.dueDate;
  if (lock) return { status: overdue ? 'overdue' : 'locked', overdue };
  if (events === 0) return { status: 'nil_return_due', overdue };
  return { status: overdue ? 'overdue' : 'due', overdue };
}

/** Every covered period of both schemes meeting [from, to], oldest first (Union OSS quarters before IOSS months of the same start). */
export function filingCalendar(input: {
  registrations: readonly CalendarRegistration[];
  locks: readonly CalendarLock[];
  /** Source events per period key (Union OSS: all but imported goods, by quarter; IOSS: imported goods, by month). */
  eventCounts: ReadonlyMap<string, number>;
  from: string;
  to: string;
  today: string;
}): CalendarEntry[] {
  const locks = new Map(input.locks.map((l) => [l.periodKey, l]));
  const entries: CalendarEntry[] = [];
  for (const scheme of ['union_oss', 'ioss'] as const) {
    for (const p of periodsBetween(scheme, input.from, input.to)) {
      const registrationIds = coveringIds(input.registrations, scheme, p.start, p.end);
      if (registrationIds.length === 0) continue;
      const lock = scheme === 'union_oss' ? locks.get(p.key) : undefined;
      const sourceEventCount = lock ? Number(lock.totalSourceEventCount) : (input.eventCounts.get(`${scheme}|${p.key}`) ?? 0);
      entries.push({ scheme, periodKey: p.key, start: p.start, end: p.end, dueDate: p.dueDate, ...statusOf(p, lock, sourceEventCount, input.today), registrationIds, sourceEventCount, lock });
    }
  }
  return entries.sort((a, b) => (a.start !== b.start ? (a.start < b.start ? -1 : 1) : a.scheme === b.scheme ? 0 : a.scheme === 'union_oss' ? -1 : 1));
}
