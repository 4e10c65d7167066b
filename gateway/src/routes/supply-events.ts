import type { Clients } from '@vat/platform/clients';
import { isRowId } from '@vat/platform/http-inputs';
import type { SupplyEvent } from '@vat/gen/vat/ledger/v1/resources_pb';
import type { LateEventNotice } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import { SUPPLY_EVENT_FIELDS, supplyEventInput, type SupplyEventItemError } from '@vat/platform/supply-event-json';
import { ConnectError } from '@connectrpc/connect';
import { FIELD_PATH_METADATA, guardedItem } from '@vat/platform/input-guard';
import { metadataOf, reasonOf } from '@vat/platform/rpc-errors';
import { HttpError } from '../errors';
import { num, opt } from '../json';
import type { RouteDef } from '../route';
import { arrayOf, boolean, dateTime, enumOf, integer, nullable, object, page, ref, string } from '../openapi/shapes';
import { date, intOf, intParam, query, str } from './schemas';
import { READ_SCOPES } from './transactions';

/** Integration ownership is the gateway's own data (accounts, keys, integrations). */
export type IntegrationOwnership = (integrationId: bigint, accountId: bigint) => Promise<boolean>;

/** A batch of 1,000 events is far above the general body limit: this route has its own. */
const SUPPLY_EVENTS_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

function supplyEventJson(e: SupplyEvent) {
  return {
    id: e.id,
    sequence: num(e.sequence),
    recorded_at: e.recordedAt,
    event_id: e.eventId,
    event_type: e.eventType,
    original_event_id: opt(e.originalEventId),
    occurred_at: e.occurredAt,
    supply_kind: e.supplyKind,
    customer_type: e.customerType,
    country_of_consumption: e.countryOfConsumption,
    dispatch_country: opt(e.dispatchCountry),
    supplier_establishment_country: opt(e.supplierEstablishmentCountry),
    currency: e.currency,
    net_amount_minor: num(e.netAmountMinor),
    vat_amount_minor: num(e.vatAmountMinor),
    vat_rate_bps: e.vatRateBps,
    rate_category: e.rateCategory,
    classification_status: e.classificationStatus,
    tax_class_id: opt(e.taxClassId),
    product_reference: opt(e.productReference),
    variant_reference: opt(e.variantReference),
    order_reference: opt(e.orderReference),
    integration_id: e.integrationId === undefined ? null : num(e.integrationId),
    source_id: opt(e.sourceId),
    calculation_id: opt(e.calculationId),
    consignment_reference: opt(e.consignmentReference),
    intrinsic_value_eur_minor: e.intrinsicValueEurMinor === undefined ? null : num(e.intrinsicValueEurMinor),
    third_country_origin: opt(e.thirdCountryOrigin),
    excise_goods: opt(e.exciseGoods),
    region: opt(e.region),
    customer_vat_number_masked: opt(e.customerVatNumberMasked),
  };
}

/** A new event of a locked quarter: `notice` names the quarter it corrects and the return that reports it (absent otherwise). */
function noticeJson(n: LateEventNotice | undefined) {
  return n ? { notice: { code: n.code, corrects_period: n.correctsPeriod, reported_in_period: n.reportedInPeriod, detail: n.detail } } : {};
}

/** Members every event carries (null counts as absent); the ledger refuses an item without one. */
const REQUIRED = ['event_id', 'event_type', 'occurred_at', 'supply_kind', 'customer_type', 'country_of_consumption', 'currency', 'net_amount_minor', 'vat_amount_minor', 'vat_rate_bps', 'rate_category', 'classification_status'];
const EVENT_TYPES = ['sale', 'refund', 'cancellation', 'credit_note', 'adjustment'];
const SUPPLY_KINDS = ['goods', 'services', 'imported_goods', 'new_means_of_transport', 'installed_goods'];
const CUSTOMER_TYPES = ['b2c', 'b2b'];
const RATE_CATEGORIES = ['standard', 'reduced', 'super_reduced', 'parking', 'zero', 'exempt'];
const CLASSIFICATION_STATUSES = ['classified', 'needs_review', 'excluded'];
/** Documented value rules of the request (the ledger enforces them and lists every refusal per item). */
const VALUES: Record<string, Record<string, unknown>> = {
  event_id: { minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_\\-/.:]+$' },
  event_type: { enum: EVENT_TYPES },
  supply_kind: { enum: SUPPLY_KINDS },
  customer_type: { enum: CUSTOMER_TYPES },
  rate_category: { enum: RATE_CATEGORIES },
  classification_status: { enum: CLASSIFICATION_STATUSES },
  vat_rate_bps: { minimum: 0, maximum: 10000 },
  country_of_consumption: { pattern: '^[A-Z]{2}$' },
  currency: { pattern: '^[A-Z]{3}$' },
};
const eventSchema = {
  type: 'object',
  additionalProperties: false,
  required: REQUIRED,
  properties: Object.fromEntries(
    Object.entries(SUPPLY_EVENT_FIELDS).map(([k, f]) => {
      const values = VALUES[k] ?? {};
      const type = REQUIRED.includes(k) ? f.kind : [f.kind, 'null'];
      const allowed = values.enum && !REQUIRED.includes(k) ? { enum: [...(values.enum as string[]), null] } : {};
      return [k, { type, ...values, ...allowed, description: f.doc }];
    }),
  ),
};

const SUPPLY_EVENT_PROPS = {
  id: string,
  sequence: integer,
  recorded_at: dateTime,
  event_id: string,
  event_type: enumOf(EVENT_TYPES),
  original_event_id: nullable(string),
  occurred_at: dateTime,
  supply_kind: enumOf(SUPPLY_KINDS),
  customer_type: enumOf(CUSTOMER_TYPES),
  country_of_consumption: ref('Country'),
  dispatch_country: nullable(string),
  supplier_establishment_country: nullable(string),
  currency: ref('Currency'),
  net_amount_minor: ref('MoneyMinor'),
  vat_amount_minor: ref('MoneyMinor'),
  vat_rate_bps: integer,
  rate_category: enumOf(RATE_CATEGORIES),
  classification_status: enumOf(CLASSIFICATION_STATUSES),
  tax_class_id: nullable(string),
  product_reference: nullable(string),
  variant_reference: nullable(string),
  order_reference: nullable(string),
  integration_id: nullable(integer),
  source_id: nullable(string),
  calculation_id: nullable(string),
  consignment_reference: nullable(string),
  intrinsic_value_eur_minor: ref('NullableMoneyMinor'),
  third_country_origin: nullable(string),
  excise_goods: nullable(boolean),
  region: nullable(string),
  customer_vat_number_masked: nullable(string),
};
const SUPPLY_EVENT = object(SUPPLY_EVENT_PROPS);
const NOTICE = object({ code: string, corrects_period: string, reported_in_period: string, detail: string }, [], 'a new event of a locked quarter: the quarter it corrects and the return that reports it');
const COMMITTED_EVENT = object({ ...SUPPLY_EVENT_PROPS, notice: NOTICE }, ['notice']);
const COMMITTED_BATCH = object({
  committed: integer,
  existing: integer,
  items: arrayOf(object({ status: enumOf(['committed', 'existing']), ...SUPPLY_EVENT_PROPS, notice: NOTICE }, ['notice'])),
});
/** 201 when the request stored at least one event; 200 when every event was already committed (an identical retry). */
const COMMIT_ANSWER = { description: 'one event, or the batch answer for { "events": [...] }', oneOf: [COMMITTED_EVENT, COMMITTED_BATCH] };

export function supplyEventRoutes(clients: Clients, integrationOwned: IntegrationOwnership): RouteDef[] {
  return [
    {
      method: 'POST',
      url: '/v1/supply-events',
      access: { scopes: ['full'] },
      bodyLimit: SUPPLY_EVENTS_BODY_LIMIT_BYTES,
      summary: 'Commit one supply event, or { "events": [...] } (1-1,000, all-or-nothing, per-item errors on 400; a new event of a locked quarter carries a `notice`)',
      tags: ['ledger'],
      // Items are checked one by one below so every item's errors are listed; the schema documents them.
      schema: { body: { type: 'object', description: 'one event, or { events: [event, ...] }', oneOf: [eventSchema, { type: 'object', additionalProperties: false, properties: { events: { type: 'array', items: eventSchema, minItems: 1, maxItems: 1000 } }, required: ['events'] }] } },
      validate: false,
      responses: { 201: COMMIT_ANSWER, 200: COMMIT_ANSWER },
      errors: { 400: ['invalid_supply_events', 'invalid_batch_size'], 409: ['supply_event_conflict'] },
      handler: async ({ req, reply, principal, call }) => {
        const b = req.body;
        if (typeof b !== 'object' || b === null || Array.isArray(b)) throw new HttpError(400, 'invalid_request', 'The body must be one event object or { "events": [ ... ] }.');
        const isBatch = Object.hasOwn(b, 'events');
        const raw = isBatch ? (b as { events: unknown }).events : b;
        if (isBatch && Object.keys(b).length !== 1) throw new HttpError(400, 'unknown_field', 'A batch body has only the member "events".');
        if (isBatch && !Array.isArray(raw)) throw new HttpError(400, 'invalid_request', '"events" must be an array of 1 to 1,000 events.');
        const list = (isBatch ? raw : [raw]) as unknown[];
        const errors: SupplyEventItemError[] = [];
        const events = list.map((item, index) => supplyEventInput(item, index, errors));
        const integrations = [...new Set(events.map((e) => e.integrationId).filter((id): id is string => id !== undefined && isRowId(id)))];
        const owned = new Set<string>();
        for (const id of integrations) if (await integrationOwned(BigInt(id), principal!.accountId)) owned.add(id);
        events.forEach((e, index) => {
          if (e.integrationId !== undefined && isRowId(e.integrationId) && !owned.has(e.integrationId)) {
            errors.push({ index, event_id: e.eventId ?? null, field: 'integration_id', error: 'integration_not_found', detail: 'No integration of this account has this id.' });
          }
        });
        if (errors.length) throw new HttpError(400, 'invalid_supply_events', `${new Set(errors.map((e) => e.index)).size} of ${list.length} events are invalid; nothing was stored.`, { errors });
        const res = await clients.ledger.commitSupplyEvents({ events }, call).catch((err: unknown) => {
          // The service's input guard names the item by its path (events[3].product_reference): list it like any item error.
          const item = err instanceof ConnectError ? guardedItem(metadataOf(err)[FIELD_PATH_METADATA], 'events') : undefined;
          if (!item || !(err instanceof ConnectError)) throw err;
          const error = reasonOf(err) ?? `invalid_${item.field}`;
          const only = { index: item.index, event_id: events[item.index]?.eventId ?? null, field: item.field, error, detail: `${item.field} must not contain control characters.` };
          throw new HttpError(400, 'invalid_supply_events', `1 of ${list.length} events is invalid; nothing was stored.`, { errors: [only] });
        });
        const created = res.items.filter((i) => i.created).length;
        reply.status(created > 0 ? 201 : 200);
        if (!isBatch) return { ...supplyEventJson(res.items[0]!.event!), ...noticeJson(res.items[0]!.notice) };
        return { committed: created, existing: res.items.length - created, items: res.items.map((i) => ({ status: i.created ? 'committed' : 'existing', ...supplyEventJson(i.event!), ...noticeJson(i.notice) })) };
      },
    },
    {
      method: 'GET',
      url: '/v1/supply-events',
      access: { scopes: READ_SCOPES },
      summary: 'Committed supply events in ledger order (keyset cursor)',
      tags: ['ledger'],
      schema: {
        querystring: query({
          from: date('invalid_date', 'inclusive, UTC date of occurred_at'),
          to: date('invalid_date', 'inclusive, UTC date of occurred_at'),
          event_type: str('invalid_event_type'),
          country_of_consumption: str('invalid_country_of_consumption'),
          supply_kind: str('invalid_supply_kind'),
          classification_status: str('invalid_classification_status'),
          source_id: str('invalid_source_id'),
          cursor: str('invalid_cursor'),
          limit: { ...intParam('invalid_limit'), description: '1-500, default 50' },
        }),
      },
      responses: { 200: page(SUPPLY_EVENT) },
      errors: { 400: ['invalid_date_range', 'invalid_limit'] },
      handler: async ({ req, call }) => {
        const q = req.query as Record<string, string | undefined>;
        const r = await clients.ledger.listSupplyEvents(
          { from: q.from, to: q.to, eventType: q.event_type, countryOfConsumption: q.country_of_consumption, supplyKind: q.supply_kind, classificationStatus: q.classification_status, sourceId: q.source_id, cursor: q.cursor, limit: intOf(q.limit) },
          call,
        );
        return { items: r.items.map(supplyEventJson), next_cursor: opt(r.nextCursor) };
      },
    },
    {
      method: 'GET',
      url: '/v1/supply-events/:id',
      access: { scopes: READ_SCOPES },
      summary: "One committed supply event by the ledger's id",
      tags: ['ledger'],
      schema: { params: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
      responses: { 200: SUPPLY_EVENT },
      errors: { 404: ['supply_event_not_found'] },
      handler: async ({ req, call }) => {
        const { id } = req.params as { id: string };
        return supplyEventJson((await clients.ledger.getSupplyEvent({ id }, call)).event!);
      },
    },
  ];
}

