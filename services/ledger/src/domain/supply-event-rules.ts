import type { SupplyEventInput } from '@vat/gen/vat/ledger/v1/resources_pb';
import { isEuMemberState, isIsoCountry } from '@vat/platform/countries';
import { hasControlCharacter } from '@vat/platform/control-characters';
import { isCurrencyValidOn, isKnownCurrency, minorUnits } from '@vat/platform/currencies';
import { isRowId, isUuid, isValidSourceId, parseTransactionDate } from '@vat/platform/http-inputs';
import { normalizeVatNumber } from '@vat/platform/vat-number-digest';

/**
 * The supply-event contract: every rule an event must satisfy to be committed, in one place.
 * Pure and total: any input gives either a normalized event or the list of what is wrong with it.
 */

export const EVENT_TYPES = ['sale', 'refund', 'cancellation', 'credit_note', 'adjustment'] as const;
export const SUPPLY_KINDS = ['goods', 'services', 'imported_goods', 'new_means_of_transport', 'installed_goods'] as const;
const CUSTOMER_TYPES = ['b2c', 'b2b'] as const;
const RATE_CATEGORIES = ['standard', 'reduced', 'super_reduced', 'parking', 'zero', 'exempt'] as const;
export const CLASSIFICATION_STATUSES = ['classified', 'needs_review', 'excluded'] as const;
/** The largest amount of one event in minor units; sums over many events stay exact in bigint. */
export const MAX_EVENT_AMOUNT_MINOR = 1_000_000_000_000_000n;
export const MAX_RATE_BPS = 10_000;

const EVENT_ID = /^[A-Za-z0-9_\-/.:]{1,100}$/;

/** A validated event, normalized (UTC tax point), as the ledger stores and publishes it. */
export type NormalizedSupplyEvent = {
  eventId: string;
  eventType: (typeof EVENT_TYPES)[number];
  originalEventId: string | null;
  occurredAt: string;
  supplyKind: (typeof SUPPLY_KINDS)[number];
  customerType: (typeof CUSTOMER_TYPES)[number];
  countryOfConsumption: string;
  dispatchCountry: string | null;
  supplierEstablishmentCountry: string | null;
  currency: string;
  netAmountMinor: bigint;
  vatAmountMinor: bigint;
  vatRateBps: number;
  rateCategory: (typeof RATE_CATEGORIES)[number];
  classificationStatus: (typeof CLASSIFICATION_STATUSES)[number];
  taxClassId: string | null;
  productReference: string | null;
  variantReference: string | null;
  orderReference: string | null;
  integrationId: bigint | null;
  sourceId: string | null;
  calculationId: string | null;
  consignmentReference: string | null;
  intrinsicValueEurMinor: bigint | null;
  thirdCountryOrigin: string | null;
  exciseGoods: boolean | null;
  /** ISO 3166-2 region with rates of its own (PT-20, PT-30); null = the general territory. */
  region: string | null;
  /** Keyed digest and mask of the customer's VAT number, set by the commit from `customerVatNumber`; never the number. */
  customerVatNumberDigest: string | null;
  customerVatNumberMasked: string | null;
};

export type RuleViolation = { field?: string; error: string; detail: string };

/** half_up(|net| × bps / 10000) with the sign of net: the VAT an event's net amount implies. */
export function impliedVat(net: bigint, bps: number): bigint {
  const abs = net < 0n ? -net : net;
  const v = (2n * abs * BigInt(bps) + 10_000n) / 20_000n;
  return net < 0n ? -v : v;
}

const oneOf = <T extends string>(list: readonly T[], v: string | undefined): v is T => v !== undefined && (list as readonly string[]).includes(v);
const shown = (v: string) => JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);

/** Records a violation of `field`. */
function bad(v: RuleViolation[], field: string, detail: string, error = `invalid_${field}`): void {
  v.push({ field, error, detail });
}

/** An optional text of at most `max` characters without control characters (null when absent or refused). */
function text(v: RuleViolation[], field: string, value: string | undefined, max: number): string | null {
  if (value === undefined) return null;
  if (value.length < 1 || value.length > max || hasControlCharacter(value)) {
    bad(v, field, `${field} must be 1 to ${max} characters without control characters.`);
    return null;
  }
  return value;
}

/** An ISO 3166-1 alpha-2 country (null when absent or refused; absent and `required` is a violation). */
function country(v: RuleViolation[], field: string, value: string | undefined, required: boolean): string | null {
  if (value === undefined) {
    if (required) bad(v, field, `${field} is required (ISO 3166-1 alpha-2, GR for Greece).`);
    return null;
  }
  if (!/^[A-Z]{2}$/.test(value) || !isIsoCountry(value)) {
    bad(v, field, `${shown(value)} is not an ISO 3166-1 alpha-2 country code (GR for Greece).`);
    return null;
  }
  return value;
}

/** An amount in minor units within the event limit (null when absent or refused). */
function amount(v: RuleViolation[], field: string, value: bigint | undefined, required: boolean): bigint | null {
  if (value === undefined) {
    if (required) bad(v, field, `${field} is required (integer minor units).`);
    return null;
  }
  if (value > MAX_EVENT_AMOUNT_MINOR || value < -MAX_EVENT_AMOUNT_MINOR) {
    bad(v, field, `${field} must be an integer from -${MAX_EVENT_AMOUNT_MINOR} to ${MAX_EVENT_AMOUNT_MINOR} minor units.`);
    return null;
  }
  return value;
}

/**
 * Validates one event; `violations` is empty exactly when `event` is set. `knownTaxClass` says whether a
 * `tax_class_id` is one of the calculation service's classes (GET /v1/tax-classes).
 */
export function validateSupplyEvent(
  i: SupplyEventInput,
  knownTaxClass: (id: string) => boolean,
): { event?: NormalizedSupplyEvent; violations: RuleViolation[]; customerVatNumber?: string } {
  const v: RuleViolation[] = [];
  // The checks are module functions (bad, text, country, amount): no closures made per event of a batch.
  const eventId = i.eventId !== undefined && EVENT_ID.test(i.eventId) ? i.eventId : null;
  if (eventId === null) bad(v, 'event_id', `${i.eventId === undefined ? 'event_id is required' : `${shown(i.eventId)} is not a valid event_id`}: 1 to 100 of letters, digits, _ - / . :`);
  const eventType = oneOf(EVENT_TYPES, i.eventType) ? i.eventType : null;
  if (eventType === null) bad(v, 'event_type', `event_type must be one of ${EVENT_TYPES.join(', ')}.`);

  let originalEventId: string | null = null;
  if (i.originalEventId !== undefined) {
    if (eventType === 'sale') bad(v, 'original_event_id', 'A sale corrects nothing: original_event_id must be null or absent.');
    else if (!EVENT_ID.test(i.originalEventId)) bad(v, 'original_event_id', 'original_event_id must be the event_id of a sale: 1 to 100 of letters, digits, _ - / . :');
    else if (i.originalEventId === eventId) bad(v, 'original_event_id', 'An event cannot correct itself.');
    else originalEventId = i.originalEventId;
  }

  let occurredAt: string | null = null;
  const parsed = i.occurredAt === undefined ? undefined : parseTransactionDate(i.occurredAt);
  // A value that was sent is never answered as missing: it is named and said to be no valid date.
  if (i.occurredAt === undefined) bad(v, 'occurred_at', 'occurred_at (the tax point) is required: YYYY-MM-DD or an RFC 3339 timestamp, years 1900-9999.');
  else if (!parsed?.ok) bad(v, 'occurred_at', `${shown(i.occurredAt)} is not a valid date: occurred_at (the tax point) is a real calendar date YYYY-MM-DD or an RFC 3339 timestamp, years 1900-9999.`);
  else occurredAt = parsed.iso;

  const supplyKind = oneOf(SUPPLY_KINDS, i.supplyKind) ? i.supplyKind : null;
  if (supplyKind === null) bad(v, 'supply_kind', `supply_kind must be one of ${SUPPLY_KINDS.join(', ')}.`);
  const customerType = oneOf(CUSTOMER_TYPES, i.customerType) ? i.customerType : null;
  if (customerType === null) bad(v, 'customer_type', 'customer_type must be b2c or b2b.');
  const countryOfConsumption = country(v, 'country_of_consumption', i.countryOfConsumption, true);
  const dispatchCountry = country(v, 'dispatch_country', i.dispatchCountry, false);
  const supplierEstablishmentCountry = country(v, 'supplier_establishment_country', i.supplierEstablishmentCountry, false);

  let currency: string | null = null;
  if (i.currency === undefined) bad(v, 'currency', 'currency is required: an ISO 4217 code with minor units, in upper case (EUR).');
  else if (/^[A-Za-z]{3}$/.test(i.currency) && i.currency !== i.currency.toUpperCase() && isKnownCurrency(i.currency.toUpperCase())) {
    bad(v, 'currency', `currency codes are upper case: ${i.currency.toUpperCase()}, not ${i.currency}.`);
  } else if (!/^[A-Z]{3}$/.test(i.currency) || !isKnownCurrency(i.currency) || minorUnits(i.currency) === undefined) {
    bad(v, 'currency', `${shown(i.currency)} is not an ISO 4217 currency code with minor units.`);
  } else if (occurredAt && !isCurrencyValidOn(i.currency, occurredAt.slice(0, 10))) {
    bad(v, 'currency', `${i.currency} was not a valid currency on ${occurredAt.slice(0, 10)}.`);
  } else currency = i.currency;

  const net = amount(v, 'net_amount_minor', i.netAmountMinor, true);
  const vat = amount(v, 'vat_amount_minor', i.vatAmountMinor, true);
  let bps: number | null = null;
  if (i.vatRateBps === undefined) bad(v, 'vat_rate_bps', `vat_rate_bps is required: an integer from 0 to ${MAX_RATE_BPS}.`);
  else if (i.vatRateBps < 0n || i.vatRateBps > BigInt(MAX_RATE_BPS)) bad(v, 'vat_rate_bps', `vat_rate_bps ${i.vatRateBps} is out of range: an integer from 0 to ${MAX_RATE_BPS}.`);
  else bps = Number(i.vatRateBps);
  const rateCategory = oneOf(RATE_CATEGORIES, i.rateCategory) ? i.rateCategory : null;
  if (rateCategory === null) bad(v, 'rate_category', `rate_category must be one of ${RATE_CATEGORIES.join(', ')}.`);
  if ((rateCategory === 'zero' || rateCategory === 'exempt') && bps !== null && bps !== 0) bad(v, 'vat_rate_bps', `A ${rateCategory} supply has vat_rate_bps 0.`);
  const classificationStatus = oneOf(CLASSIFICATION_STATUSES, i.classificationStatus) ? i.classificationStatus : null;
  if (classificationStatus === null) bad(v, 'classification_status', `classification_status must be one of ${CLASSIFICATION_STATUSES.join(', ')}.`);

  // Sign convention: a sale is >= 0; refund, cancellation and credit note <= 0; an adjustment either way.
  if (net !== null && vat !== null && eventType !== null) {
    const positive = eventType === 'sale';
    const negative = eventType === 'refund' || eventType === 'cancellation' || eventType === 'credit_note';
    const wrong = (x: bigint) => (positive && x < 0n) || (negative && x > 0n);
    if (wrong(net) || wrong(vat)) v.push({ field: wrong(net) ? 'net_amount_minor' : 'vat_amount_minor', error: 'invalid_amount_sign', detail: positive ? 'A sale has amounts >= 0.' : `A ${eventType.replace('_', ' ')} has amounts <= 0.` });
    else if ((net > 0n && vat < 0n) || (net < 0n && vat > 0n)) v.push({ field: 'vat_amount_minor', error: 'invalid_amount_sign', detail: 'net_amount_minor and vat_amount_minor have the same sign.' });
    else if (bps !== null) {
      const implied = impliedVat(net, bps);
      const diff = vat - implied;
      if (diff > 1n || diff < -1n) v.push({ field: 'vat_amount_minor', error: 'vat_amount_mismatch', detail: `vat_amount_minor ${vat} differs from half-up(net × rate) = ${implied} by more than one minor unit.` });
    }
  }

  let taxClassId: string | null = null;
  if (i.taxClassId !== undefined) {
    if (!knownTaxClass(i.taxClassId)) bad(v, 'tax_class_id', `No tax class ${shown(i.taxClassId)}; see GET /v1/tax-classes.`, 'unknown_tax_class');
    else taxClassId = i.taxClassId;
  }
  const productReference = text(v, 'product_reference', i.productReference, 200);
  const variantReference = text(v, 'variant_reference', i.variantReference, 200);
  const orderReference = text(v, 'order_reference', i.orderReference, 200);
  let integrationId: bigint | null = null;
  if (i.integrationId !== undefined) {
    if (!isRowId(i.integrationId)) bad(v, 'integration_id', 'integration_id must be the id of one of the account\'s integrations.');
    else integrationId = BigInt(i.integrationId);
  }
  let sourceId: string | null = null;
  if (i.sourceId !== undefined) {
    if (!isValidSourceId(i.sourceId)) bad(v, 'source_id', 'source_id must be 1 to 100 letters, digits, _, - or /.');
    else sourceId = i.sourceId;
  }
  let calculationId: string | null = null;
  if (i.calculationId !== undefined) {
    if (!isUuid(i.calculationId)) bad(v, 'calculation_id', 'calculation_id must be the id of one of the account\'s calculations.');
    else calculationId = i.calculationId.toLowerCase();
  }

  // Import facts belong to imported goods only.
  const imported = supplyKind === 'imported_goods';
  const importOnly = (field: string, present: boolean) => {
    if (present && supplyKind !== null && !imported) bad(v, field, `${field} applies to imported_goods only.`);
  };
  importOnly('consignment_reference', i.consignmentReference !== undefined);
  importOnly('intrinsic_value_eur_minor', i.intrinsicValueEurMinor !== undefined);
  importOnly('third_country_origin', i.thirdCountryOrigin !== undefined);
  importOnly('excise_goods', i.exciseGoods !== undefined);
  const consignmentReference = imported ? text(v, 'consignment_reference', i.consignmentReference, 100) : null;
  let intrinsicValueEurMinor: bigint | null = null;
  if (imported && i.intrinsicValueEurMinor !== undefined) {
    if (i.intrinsicValueEurMinor < 0n || i.intrinsicValueEurMinor > MAX_EVENT_AMOUNT_MINOR) bad(v, 'intrinsic_value_eur_minor', `intrinsic_value_eur_minor must be an integer from 0 to ${MAX_EVENT_AMOUNT_MINOR}.`);
    else intrinsicValueEurMinor = i.intrinsicValueEurMinor;
  }
  let thirdCountryOrigin: string | null = null;
  if (imported && i.thirdCountryOrigin !== undefined) {
    const c = country(v, 'third_country_origin', i.thirdCountryOrigin, false);
    if (isEuMemberState(c)) bad(v, 'third_country_origin', 'third_country_origin must be a country outside the EU.');
    else thirdCountryOrigin = c;
  }

  let region: string | null = null;
  if (i.region !== undefined) {
    if (!/^[A-Z]{2}-[A-Z0-9]{1,3}$/.test(i.region)) bad(v, 'region', `${shown(i.region)} is not an ISO 3166-2 subdivision code (for example PT-30 for Madeira).`);
    else if (countryOfConsumption !== null && !i.region.startsWith(`${countryOfConsumption}-`)) bad(v, 'region', `${i.region} is not a region of country_of_consumption ${countryOfConsumption}.`);
    else region = i.region;
  }

  let customerVatNumber: string | undefined;
  if (i.customerVatNumber !== undefined) {
    const n = normalizeVatNumber(i.customerVatNumber);
    // The number is never echoed: a refusal names the rule only.
    if (!/^[A-Z]{2}[A-Z0-9+*]{2,38}$/.test(n)) bad(v, 'customer_vat_number', 'customer_vat_number must be a VAT number with its country prefix (EL for Greece), at most 40 letters and digits.');
    else if (customerType !== null && customerType !== 'b2b') bad(v, 'customer_vat_number', 'customer_vat_number belongs to b2b supplies only.');
    else customerVatNumber = n;
  }

  if (v.length) return { violations: v };
  return {
    violations: [],
    customerVatNumber,
    event: {
      eventId: eventId!,
      eventType: eventType!,
      originalEventId,
      occurredAt: occurredAt!,
      supplyKind: supplyKind!,
      customerType: customerType!,
      countryOfConsumption: countryOfConsumption!,
      dispatchCountry,
      supplierEstablishmentCountry,
      currency: currency!,
      netAmountMinor: net!,
      vatAmountMinor: vat!,
      vatRateBps: bps!,
      rateCategory: rateCategory!,
      classificationStatus: classificationStatus!,
      taxClassId,
      productReference,
      variantReference,
      orderReference,
      integrationId,
      sourceId,
      calculationId,
      consignmentReference,
      intrinsicValueEurMinor,
      thirdCountryOrigin,
      exciseGoods: imported ? (i.exciseGoods ?? null) : null,
      region,
      customerVatNumberDigest: null,
      customerVatNumberMasked: null,
    },
  };
}
