import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { GetFilingCalendarResponseSchema, type GetFilingCalendarRequest } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { callerOf } from '@vat/platform/principal';
import { invalidArgument } from '@vat/platform/rpc-errors';
import type { ComplianceReportsDeps } from '../context';
import { filingCalendar, type CalendarEntry } from '../domain/filing-calendar';
import { isCalendarDate } from '../domain/filing-record';
import { jsonDocument } from '../union-oss-messages';

/** Ten years of periods at most in one answer (40 quarters and 120 months). */
const MAX_SPAN_DAYS = 3653;

function day(value: string | undefined, field: 'from' | 'to'): string | undefined {
  if (value === undefined) return undefined;
  if (!isCalendarDate(value)) throw invalidArgument(`invalid_${field}`, `${JSON.stringify(value)} is not a valid date: ${field} is YYYY-MM-DD.`);
  return value;
}

const entryJson = (e: CalendarEntry) => ({
  scheme_type: e.scheme,
  period_key: e.periodKey,
  period_start: e.start,
  period_end: e.end,
  due_date: e.dueDate,
  status: e.status,
  overdue: e.overdue,
  registration_ids: e.registrationIds,
  source_event_count: e.sourceEventCount,
  locked: e.lock !== undefined,
  filed_at: e.lock?.filedAt?.toISOString() ?? null,
  submission_reference: e.lock?.submissionReference ?? null,
  filed_on: e.lock?.filedOn ?? null,
});

/**
 * Every Union OSS quarter and IOSS month the account's registrations cover between `from` and `to`, with
 * due date and status. Periods found overdue for the first time are recorded and announced once
 * (`ReturnPeriodOverdue`, which thresholds turns into a notification).
 */
export async function getFilingCalendar(deps: ComplianceReportsDeps, req: GetFilingCalendarRequest, ctx: HandlerContext) {
  const now = deps.now();
  const today = now.toISOString().slice(0, 10);
  const { accountId } = callerOf(ctx);
  const askedFrom = day(req.from, 'from');
  const askedTo = day(req.to, 'to');
  const registrations = await deps.registrations.list(accountId);
  const starts = registrations.filter((r) => (r.schemeType === 'union_oss' || r.schemeType === 'ioss') && (r.status === 'active' || r.status === 'ended')).map((r) => r.effectiveFrom).sort();
  const to = askedTo ?? today;
  const from = askedFrom ?? (starts[0] !== undefined && starts[0] < to ? starts[0] : to);
  if (from > to) throw invalidArgument('invalid_date_range', `from (${from}) is after to (${to}).`);
  if ((Date.parse(to) - Date.parse(from)) / 86_400_000 > MAX_SPAN_DAYS) throw invalidArgument('invalid_date_range', `from ${from} to ${to} spans more than ten years; ask for at most ten years at a time.`);
  const [locks, eventCounts] = await Promise.all([deps.unionOssLocks.list(accountId), deps.filingCalendar.eventCounts(accountId, from, to)]);
  const periods = filingCalendar({ registrations, locks, eventCounts, from, to, today });
  const announced = await deps.filingCalendar.recordOverdue(accountId, periods.filter((p) => p.overdue).map((p) => ({ scheme: p.scheme, periodKey: p.periodKey, dueDate: p.dueDate })), now);
  if (announced > 0) deps.relay.kick();
  return create(GetFilingCalendarResponseSchema, { document: jsonDocument({ from, to, today, periods: periods.map(entryJson) }, 'filing-calendar.json') });
}
