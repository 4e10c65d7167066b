import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ListSupplyEventsResponseSchema, type ListSupplyEventsRequest } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import { isIsoCountry } from '@vat/platform/countries';
import { isValidDate, isValidSourceId } from '@vat/platform/http-inputs';
import { pageLimit } from '@vat/platform/paging';
import { callerOf } from '@vat/platform/principal';
import { invalidArgument } from '@vat/platform/rpc-errors';
import type { LedgerDeps } from '../context';
import { CLASSIFICATION_STATUSES, EVENT_TYPES, SUPPLY_KINDS } from '../domain/supply-event-rules';
import { supplyEventMessage } from '../messages';
import type { SupplyEventQuery } from '../repositories/supply-events';

export const MAX_PAGE = 500;
export const DEFAULT_PAGE = 50;

/** Cursors carry the account's ledger position of the last row returned (its own data only). */
const encodeCursor = (sequence: bigint) => Buffer.from(`s:${sequence}`).toString('base64url');
function decodeCursor(cursor: string): bigint {
  const text = /^[A-Za-z0-9_-]{1,40}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : '';
  if (!/^s:[1-9][0-9]{0,17}$/.test(text)) throw invalidArgument('invalid_cursor', '`cursor` must be a next_cursor value from a previous page.');
  return BigInt(text.slice(2));
}

function enumFilter(list: readonly string[], value: string | undefined, field: string): string | undefined {
  if (value !== undefined && !list.includes(value)) throw invalidArgument(`invalid_${field}`, `${field} must be one of ${list.join(', ')}.`);
  return value;
}

/** Committed events in ledger order (oldest first), keyset-paged. */
export async function listSupplyEvents(deps: LedgerDeps, req: ListSupplyEventsRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  const limit = pageLimit(req.limit, MAX_PAGE, DEFAULT_PAGE);
  for (const [field, d] of [['from', req.from], ['to', req.to]] as const) if (d !== undefined && !isValidDate(d)) throw invalidArgument('invalid_date', `\`${field}\` must be a calendar date YYYY-MM-DD.`);
  if (req.from !== undefined && req.to !== undefined && req.from > req.to) throw invalidArgument('invalid_date_range', '`from` must not be after `to`.');
  if (req.countryOfConsumption !== undefined && !(/^[A-Z]{2}$/.test(req.countryOfConsumption) && isIsoCountry(req.countryOfConsumption))) throw invalidArgument('invalid_country_of_consumption', 'country_of_consumption must be an ISO 3166-1 alpha-2 code.');
  if (req.sourceId !== undefined && !isValidSourceId(req.sourceId)) throw invalidArgument('invalid_source_id', '`source_id` must be 1 to 100 letters, digits, _, - or /.');
  const query: SupplyEventQuery = {
    from: req.from,
    to: req.to,
    eventType: enumFilter(EVENT_TYPES, req.eventType, 'event_type'),
    countryOfConsumption: req.countryOfConsumption,
    supplyKind: enumFilter(SUPPLY_KINDS, req.supplyKind, 'supply_kind'),
    classificationStatus: enumFilter(CLASSIFICATION_STATUSES, req.classificationStatus, 'classification_status'),
    sourceId: req.sourceId,
  };
  const after = req.cursor === undefined ? undefined : decodeCursor(req.cursor);
  const page = await deps.supplyEvents.page(accountId, query, limit, after);
  const last = page.rows[page.rows.length - 1];
  return create(ListSupplyEventsResponseSchema, { items: page.rows.map((r) => supplyEventMessage(r)), nextCursor: page.more && last ? encodeCursor(last.sequence) : undefined });
}
