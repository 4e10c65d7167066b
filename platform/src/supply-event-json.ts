import type { SupplyEventInput } from '@vat/gen/vat/ledger/v1/resources_pb';

/**
 * The JSON form of a supply event → the ledger's RPC input, shared by the REST gateway and the
 * admin bulk import so both accept exactly the same members with the same types. Only the JSON
 * shape is checked here; the ledger checks every business rule.
 */

export type SupplyEventFieldKind = 'string' | 'integer' | 'boolean';
type SupplyEventField = { kind: SupplyEventFieldKind; to: keyof SupplyEventInput; doc: string };

/** Each event field (the API's names, also the CSV columns) and its JSON type. */
export const SUPPLY_EVENT_FIELDS: Readonly<Record<string, SupplyEventField>> = {
  event_id: { kind: 'string', to: 'eventId', doc: "caller's id, 1-100 of letters, digits, _ - / . :; unique per account" },
  event_type: { kind: 'string', to: 'eventType', doc: 'sale, refund, cancellation, credit_note, adjustment' },
  original_event_id: { kind: 'string', to: 'originalEventId', doc: 'for every non-sale: the event_id of the sale it corrects; null or absent on a sale' },
  occurred_at: { kind: 'string', to: 'occurredAt', doc: 'the tax point: YYYY-MM-DD (midnight UTC) or RFC 3339' },
  supply_kind: { kind: 'string', to: 'supplyKind', doc: 'goods, services, imported_goods, new_means_of_transport, installed_goods' },
  customer_type: { kind: 'string', to: 'customerType', doc: 'b2c or b2b' },
  country_of_consumption: { kind: 'string', to: 'countryOfConsumption', doc: 'ISO 3166-1 alpha-2 (GR for Greece)' },
  dispatch_country: { kind: 'string', to: 'dispatchCountry', doc: 'goods: where the dispatch begins' },
  supplier_establishment_country: { kind: 'string', to: 'supplierEstablishmentCountry', doc: 'where the supplying establishment is' },
  currency: { kind: 'string', to: 'currency', doc: 'ISO 4217 with minor units' },
  net_amount_minor: { kind: 'integer', to: 'netAmountMinor', doc: 'signed minor units: a sale >= 0; refund, cancellation, credit note <= 0' },
  vat_amount_minor: { kind: 'integer', to: 'vatAmountMinor', doc: 'half-up(net x bps / 10000) within one minor unit' },
  vat_rate_bps: { kind: 'integer', to: 'vatRateBps', doc: '0 to 10000' },
  rate_category: { kind: 'string', to: 'rateCategory', doc: 'standard, reduced, super_reduced, parking, zero, exempt' },
  classification_status: { kind: 'string', to: 'classificationStatus', doc: 'classified, needs_review, excluded' },
  tax_class_id: { kind: 'string', to: 'taxClassId', doc: 'optional: a class of GET /v1/tax-classes (else unknown_tax_class)' },
  product_reference: { kind: 'string', to: 'productReference', doc: 'optional, 1-200 characters' },
  variant_reference: { kind: 'string', to: 'variantReference', doc: 'optional, 1-200 characters' },
  order_reference: { kind: 'string', to: 'orderReference', doc: 'optional, 1-200 characters' },
  integration_id: { kind: 'integer', to: 'integrationId', doc: "optional: one of the account's integrations" },
  source_id: { kind: 'string', to: 'sourceId', doc: 'optional raw source tag (as X-Source-ID)' },
  calculation_id: { kind: 'string', to: 'calculationId', doc: 'optional: commits this v1 calculation of the account (its country, currency, amounts and rate must match or be omitted)' },
  consignment_reference: { kind: 'string', to: 'consignmentReference', doc: 'imported_goods only' },
  intrinsic_value_eur_minor: { kind: 'integer', to: 'intrinsicValueEurMinor', doc: 'imported_goods only' },
  third_country_origin: { kind: 'string', to: 'thirdCountryOrigin', doc: 'imported_goods only: non-EU country' },
  excise_goods: { kind: 'boolean', to: 'exciseGoods', doc: 'imported_goods only' },
  customer_vat_number: { kind: 'string', to: 'customerVatNumber', doc: "optional, b2b only: the customer's VAT number with its country prefix (EL for Greece); encrypted at rest, never returned (check it first: POST /v1/vat-numbers/check)" },
  region: { kind: 'string', to: 'region', doc: 'optional ISO 3166-2 region with rates of its own reported under the Member State: PT-20 (Azores), PT-30 (Madeira)' },
};

/** Why one item was refused before it reached the ledger (index = its position in the batch). */
export type SupplyEventItemError = { index: number; event_id: string | null; field: string | null; error: string; detail: string };

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function isInt64(value: unknown): value is number | bigint {
  if (typeof value === 'bigint') return value >= INT64_MIN && value <= INT64_MAX;
  return Number.isInteger(value) && Math.abs(value as number) < 2 ** 63;
}

/**
 * One event's JSON (integers as JSON numbers or bigints) → RPC input. Wrong types and unknown
 * members are appended to `errors` under `index`, never guessed; `null` is the same as absent.
 */
export function supplyEventInput(raw: unknown, index: number, errors: SupplyEventItemError[]): SupplyEventInput {
  const out: Record<string, unknown> = {};
  const obj = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
  const eventId = typeof obj?.event_id === 'string' ? obj.event_id : null;
  const fail = (field: string | null, error: string, detail: string) => errors.push({ index, event_id: eventId, field, error, detail });
  if (!obj) {
    fail(null, 'invalid_request', 'Each event must be a JSON object.');
    return out as SupplyEventInput;
  }
  for (const [name, value] of Object.entries(obj)) {
    const f = Object.hasOwn(SUPPLY_EVENT_FIELDS, name) ? SUPPLY_EVENT_FIELDS[name] : undefined;
    if (!f) {
      fail(name, 'unknown_field', `Unknown field "${name.slice(0, 60)}".`);
      continue;
    }
    if (value === null) continue;
    const ok = f.kind === 'string' ? typeof value === 'string' : f.kind === 'boolean' ? typeof value === 'boolean' : isInt64(value);
    if (!ok) {
      fail(name, `invalid_${name}`, `${name} must be ${f.kind === 'integer' ? 'an integer' : `a ${f.kind}`}.`);
      continue;
    }
    out[f.to] = f.kind === 'integer' ? (f.to === 'integrationId' ? String(value) : BigInt(value as number | bigint)) : value;
  }
  return out as SupplyEventInput;
}
