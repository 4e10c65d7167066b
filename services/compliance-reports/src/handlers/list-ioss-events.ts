import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ListIossEventsResponseSchema, type ListIossEventsRequest } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { pageLimit } from '@vat/platform/paging';
import { callerOf } from '@vat/platform/principal';
import { invalidArgument } from '@vat/platform/rpc-errors';
import type { ComplianceReportsDeps } from '../context';
import { IOSS_EXCLUSION_CODES, IOSS_INFORMATIONAL, type IossExclusionCode } from '../domain/ioss-months';
import { iossMonthEvents } from '../ioss-report';
import { jsonDocument } from '../union-oss-messages';
import { decodeEventCursor, encodeEventCursor, eventFilterOf } from './list-union-oss-events';

/** IOSS began on 1 July 2021 (Art. 369l as amended by Directive (EU) 2017/2455). */
const FIRST_IOSS_MONTH = '2021-07';

/**
 * The imported-goods events of one IOSS month with their disposition and exclusion code (`reason` is the
 * code; `review` says whether the law excludes it), keyset-paged in ledger order.
 */
export async function listIossEvents(deps: ComplianceReportsDeps, req: ListIossEventsRequest, ctx: HandlerContext) {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(req.month);
  if (!m || req.month < FIRST_IOSS_MONTH) throw invalidArgument('invalid_month', `month must be YYYY-MM from ${FIRST_IOSS_MONTH}, when IOSS began, to 9999-12.`);
  const filter = eventFilterOf(req, (r) => (IOSS_EXCLUSION_CODES as readonly string[]).includes(r));
  const limit = pageLimit(req.limit, 500, 100);
  const after = decodeEventCursor(req.cursor);
  const events = await iossMonthEvents(deps, callerOf(ctx), req.month, after, filter.memberState);
  const matching = events.filter((e) => (filter.disposition === null || e.disposition === filter.disposition) && (filter.reason === null || e.code === filter.reason));
  const page = matching.slice(0, limit);
  const next = matching.length > limit ? encodeEventCursor(page[page.length - 1]!.sequence) : null;
  const review = (code: IossExclusionCode | null) => (code === null ? null : IOSS_INFORMATIONAL.has(code) ? 'informational' : 'needs_review');
  const items = page.map((e) => ({
    event_id: e.eventId,
    ledger_sequence: e.sequence,
    event_type: e.eventType,
    occurred_at: e.occurredAt.toISOString(),
    member_state_of_consumption: e.group.countryOfConsumption,
    currency: e.group.currency,
    net_amount_minor: e.netAmountMinor,
    vat_amount_minor: e.vatAmountMinor,
    disposition: e.disposition,
    warning_code: e.code,
    reason: e.code,
    review: review(e.code),
  }));
  return create(ListIossEventsResponseSchema, { document: jsonDocument({ scheme_type: 'ioss', period_key: req.month, items, next_cursor: next }, `ioss-events-${req.month}.json`) });
}
