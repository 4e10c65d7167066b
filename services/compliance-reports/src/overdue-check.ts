import { PeriodicTask } from '@vat/platform/periodic-task';
import type { ComplianceReportsDeps } from './context';
import { filingCalendar } from './domain/filing-calendar';

/** Accounts read per page of the check. */
const PAGE = 500;

/**
 * The return periods of one account past their due date and not filed on `today` (UTC), whatever their
 * events: the calendar from the first day its registrations cover (a nil return is overdue too).
 */
async function overduePeriodsOf(deps: ComplianceReportsDeps, accountId: bigint, today: string) {
  const registrations = await deps.registrations.list(accountId);
  const starts = registrations.filter((r) => (r.schemeType === 'union_oss' || r.schemeType === 'ioss') && (r.status === 'active' || r.status === 'ended')).map((r) => r.effectiveFrom).sort();
  if (starts[0] === undefined || starts[0] > today) return [];
  const locks = await deps.unionOssLocks.list(accountId);
  return filingCalendar({ registrations, locks, eventCounts: new Map(), from: starts[0], to: today, today })
    .filter((p) => p.overdue)
    .map((p) => ({ scheme: p.scheme, periodKey: p.periodKey, dueDate: p.dueDate }));
}

/**
 * Finds, for every account with a Union OSS or IOSS registration, the periods that became overdue and
 * announces each once (`ReturnPeriodOverdue`, which thresholds turns into a notification), without anyone
 * reading the filing calendar. Once: the record keyed by account, scheme and period is inserted with its
 * event in one transaction (`on conflict do nothing`), so two replicas running it together, or a run beside a
 * calendar read, announce a period once. The clock is `deps.now()`.
 */
export async function announceOverduePeriods(deps: ComplianceReportsDeps): Promise<{ accounts: number; announced: number }> {
  const now = deps.now();
  const today = now.toISOString().slice(0, 10);
  let accounts = 0;
  let announced = 0;
  for (let after: bigint | undefined; ; ) {
    const page = await deps.registrations.accountsWithReturns(after, PAGE);
    for (const accountId of page) announced += await deps.filingCalendar.recordOverdue(accountId, await overduePeriodsOf(deps, accountId, today), now);
    accounts += page.length;
    if (page.length < PAGE) break;
    after = page[page.length - 1];
  }
  if (announced > 0) deps.relay.kick();
  return { accounts, announced };
}

/** The background check, every OVERDUE_CHECK_INTERVAL_MS (0: off). */
export function overdueCheckTask(deps: ComplianceReportsDeps, timers?: ConstructorParameters<typeof PeriodicTask>[4]): PeriodicTask {
  return new PeriodicTask(
    'return-period-overdue-check',
    deps.config.overdueCheckIntervalMs,
    async () => {
      const r = await announceOverduePeriods(deps);
      if (r.announced > 0) deps.log.info(r, 'return periods found overdue and announced');
    },
    deps.log,
    timers,
  );
}
