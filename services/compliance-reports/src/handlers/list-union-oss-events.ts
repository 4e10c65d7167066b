import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ListUnionOssEventsResponseSchema, type ListUnionOssEventsRequest } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { isEuMemberState } from '@vat/platform/countries';
import { pageLimit } from '@vat/platform/paging';
import { callerOf } from '@vat/platform/principal';
import { invalidArgument } from '@vat/platform/rpc-errors';
import type { ComplianceReportsDeps } from '../context';
import { EXCLUSION_REASONS, isWarningCode } from '../domain/union-oss-return';
import type { EventFilter, ReturnEvent } from '../repositories/union-oss-sealed-events';
import { liveDisposer, returnEventJson, returnEventPage, sealedDisposer } from '../union-oss-events';
import { jsonDocument } from '../union-oss-messages';
import { buildReturn, unionOssQuarter } from '../union-oss-report';

const MAX_PAGE = 500;
const DEFAULT_PAGE = 100;

/** Cursors carry the ledger sequence of the last event returned (the account's own). */
export const encodeEventCursor = (sequence: bigint) => Buffer.from(`e:${sequence}`).toString('base64url');
export function decodeEventCursor(cursor: string | undefined): bigint {
  if (cursor === undefined) return -1n;
  const text = /^[A-Za-z0-9_-]{1,40}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : '';
  if (!/^e:(0|[1-9][0-9]{0,17})$/.test(text)) throw invalidArgument('invalid_cursor', '`cursor` must be a next_cursor value from a previous page.');
  return BigInt(text.slice(2));
}

/** The filters of a drill-down request, or 400 naming the one that is wrong. */
export function eventFilterOf(req: { disposition?: string; reason?: string; memberState?: string }, reasons: (r: string) => boolean): EventFilter {
  if (req.disposition !== undefined && req.disposition !== 'included' && req.disposition !== 'excluded') throw invalidArgument('invalid_disposition', 'disposition must be included or excluded.');
  if (req.reason !== undefined && !reasons(req.reason)) throw invalidArgument('invalid_reason', `reason must be a warning code or an exclusion reason, e.g. unsupported_supply_kind_excluded or domestic_supply; "${req.reason.slice(0, 60)}" is neither.`);
  if (req.memberState !== undefined && !isEuMemberState(req.memberState)) throw invalidArgument('invalid_member_state', 'member_state must be an EU Member State code (ISO 3166-1 alpha-2, EL for Greece), upper case.');
  return { disposition: (req.disposition as EventFilter['disposition']) ?? null, reason: req.reason ?? null, memberState: req.memberState ?? null };
}

/**
 * The source events of one quarter's return with their disposition and reason, keyset-paged in ledger
 * order. A locked quarter lists what its lock sealed; an open one, today's preview.
 */
export async function listUnionOssEvents(deps: ComplianceReportsDeps, req: ListUnionOssEventsRequest, ctx: HandlerContext) {
  unionOssQuarter(req.periodKey);
  const filter = eventFilterOf(req, (r) => isWarningCode(r) || EXCLUSION_REASONS.includes(r));
  const limit = pageLimit(req.limit, MAX_PAGE, DEFAULT_PAGE);
  const after = decodeEventCursor(req.cursor);
  const caller = callerOf(ctx);
  const lock = (await deps.unionOssLocks.list(caller.accountId)).find((l) => l.periodKey === req.periodKey);
  let items: ReturnEvent[];
  let position: bigint;
  let status: string;
  let source: string;
  const sealed = lock ? await deps.unionOssSealedEvents.basis(caller.accountId, req.periodKey) : undefined;
  if (lock && sealed) {
    items = await returnEventPage(deps, sealedDisposer(caller.accountId, sealed), filter, after, limit + 1);
    position = lock.ledgerPosition;
    status = lock.status;
    source = 'sealed_by_lock';
  } else if (lock && (lock.totalSourceEventCount === 0n || (await deps.unionOssSealedEvents.sealed(caller.accountId, req.periodKey)))) {
    // A lock of 2026-11-27 sealed a copy of its events; one with nothing sealed (an empty quarter, or
    // older) is recomputed at the lock's ledger position (what buildReturn does for a locked quarter).
    items = await deps.unionOssSealedEvents.page(caller.accountId, req.periodKey, filter, after, limit + 1);
    position = lock.ledgerPosition;
    status = lock.status;
    source = 'sealed_by_lock';
  } else {
    const { context, basis } = await buildReturn(deps, caller, req.periodKey);
    items = await returnEventPage(deps, liveDisposer(basis), filter, after, limit + 1);
    position = context.ledgerPosition;
    status = context.periodStatus;
    source = lock ? 'recomputed_at_lock_position' : 'preview';
  }
  const page = items.slice(0, limit);
  const next = items.length > limit ? encodeEventCursor(page[page.length - 1]!.ledgerSequence) : null;
  return create(ListUnionOssEventsResponseSchema, {
    document: jsonDocument(
      { scheme_type: 'union_oss', period_key: req.periodKey, period_status: status, ledger_position: position, source, items: page.map(returnEventJson), next_cursor: next },
      `union-oss-events-${req.periodKey}.json`,
    ),
  });
}
