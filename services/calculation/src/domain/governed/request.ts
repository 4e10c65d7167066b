import type { CalculateGovernedRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { isIsoCountry } from '@vat/platform/countries';
import { isCurrencyValidOn, isKnownCurrency, minorUnits } from '@vat/platform/currencies';
import { isValidIdempotencyKey, isValidSourceId, parseTransactionDate } from '@vat/platform/http-inputs';
import { invalidArgument } from '@vat/platform/rpc-errors';
import { normalizeVatNumber } from '@vat/platform/vat-number-digest';
import { MAX_AMOUNT_MINOR } from '../calculator';
import { shown } from '../reference-inputs';

/** The canonical v2 request: its digest is the idempotency identity (with the account and the key). */
export type GovernedCanonical = {
  schema: 'vat-governed-request/v2';
  country: string;
  currency: string;
  amount_minor: string;
  price_includes_vat: boolean;
  transaction_date: string;
  classification: { scheme: string; code: string; catalog_version: string } | null;
  treatment_context: {
    customer_type: 'b2c' | 'b2b';
    supplier_establishment_country: string | null;
    dispatch_country: string | null;
    destination_country: string;
    /** Only when sent (earlier requests keep their digest): the mask and keyed digest, never the number. */
    customer_vat_number?: { masked: string; digest: string };
  };
  tax_class_id: string | null;
  supersedes_decision_id: string | null;
  evidence_profile: string | null;
  source_id: string | null;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function optionalCountry(v: string | undefined, field: string): string | null {
  if (v === undefined) return null;
  if (!isIsoCountry(v)) throw invalidArgument(`invalid_${field}`, `treatment_context.${field} "${shown(v)}" is not an ISO 3166-1 alpha-2 country code.`);
  return v;
}

/**
 * `treatment_context.customer_vat_number`, normalized (as compliance-reports and the ledger compare it), or
 * undefined. `b2b` only. Its format and check digits are compliance-reports' test (a check answers them).
 */
export function customerVatNumberOf(req: CalculateGovernedRequest): string | undefined {
  const raw = req.treatmentContext?.customerVatNumber;
  if (raw === undefined) return undefined;
  const n = normalizeVatNumber(raw);
  if (req.treatmentContext?.customerType !== 'b2b') throw invalidArgument('invalid_customer_vat_number', 'treatment_context.customer_vat_number is only taken with customer_type b2b.');
  if (!/^[A-Z]{2}[A-Z0-9+*]{1,38}$/.test(n)) {
    throw invalidArgument('invalid_customer_vat_number', 'treatment_context.customer_vat_number must be a VAT number with its country prefix (for example DE123456789), at most 40 letters and digits; spaces, dots and hyphens are ignored.');
  }
  return n;
}

/** Validates a v2 request into its canonical form (400 codes; nothing is stored for these). */
export function canonicalizeGoverned(req: CalculateGovernedRequest, knownTaxClass: (id: string) => boolean): GovernedCanonical {
  if (req.idempotencyKey === undefined) throw invalidArgument('missing_idempotency_key', 'POST /v2/vat/calculate requires an Idempotency-Key header.');
  if (!isValidIdempotencyKey(req.idempotencyKey)) throw invalidArgument('invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 visible ASCII characters.');
  if (req.sourceId !== undefined && !isValidSourceId(req.sourceId)) throw invalidArgument('invalid_source_id', 'X-Source-ID must be 1 to 100 letters, digits, _, - or /.');
  if (!isIsoCountry(req.country)) throw invalidArgument('invalid_country', `"${shown(req.country)}" is not an ISO 3166-1 alpha-2 country code.`);
  if (req.amountMinor < 0n || req.amountMinor > MAX_AMOUNT_MINOR) throw invalidArgument('invalid_amount', `amount_minor must be an integer from 0 to ${MAX_AMOUNT_MINOR}.`);
  if (req.priceIncludesVat === undefined) throw invalidArgument('missing_price_includes_vat', 'price_includes_vat must be sent explicitly (true or false).');
  if (req.transactionDate === undefined) throw invalidArgument('missing_transaction_date', 'transaction_date is required: a decision is made for an explicit legal date.');
  const parsed = parseTransactionDate(req.transactionDate);
  if (!parsed.ok) throw invalidArgument('invalid_transaction_date', 'transaction_date must be YYYY-MM-DD or an RFC 3339 timestamp (years 1900-9999).');
  const day = parsed.iso.slice(0, 10);
  if (!/^[A-Z]{3}$/.test(req.currency) || !isKnownCurrency(req.currency) || minorUnits(req.currency) === undefined) throw invalidArgument('invalid_currency', `"${shown(req.currency)}" is not an ISO 4217 currency code with minor units.`);
  if (!isCurrencyValidOn(req.currency, day)) throw invalidArgument('invalid_currency', `${req.currency} was not a valid currency on ${day}.`);
  const c = req.classification;
  if (c && !['cn', 'cpa'].includes(c.scheme)) throw invalidArgument('invalid_scheme', 'classification.scheme must be cn or cpa.');
  if (c && (c.code.length === 0 || c.code.length > 20)) throw invalidArgument('invalid_code', 'classification.code must be an exact CN or CPA code.');
  if (c && !/^(20(2[1-6])|2\.[12])$/.test(c.catalogVersion)) throw invalidArgument('invalid_catalog_version', 'classification.catalog_version must be a CN edition (2021-2026) or a CPA version (2.1, 2.2).');
  if (req.taxClassId !== undefined && !knownTaxClass(req.taxClassId)) throw invalidArgument('unknown_tax_class', `No tax class "${shown(req.taxClassId)}"; see GET /v1/tax-classes.`);
  if (!c && req.taxClassId === undefined) throw invalidArgument('missing_tax_selector', 'Send classification, tax_class_id or both.');
  const t = req.treatmentContext;
  if (!t) throw invalidArgument('missing_treatment_context', 'treatment_context is required (customer_type, supplier_establishment_country, dispatch_country, destination_country).');
  if (t.customerType !== 'b2c' && t.customerType !== 'b2b') throw invalidArgument('invalid_customer_type', 'treatment_context.customer_type must be b2c or b2b.');
  if (t.destinationCountry === undefined) throw invalidArgument('missing_destination_country', 'treatment_context.destination_country is required.');
  const destination = optionalCountry(t.destinationCountry, 'destination_country')!;
  customerVatNumberOf(req);
  if (req.supersedesDecisionId !== undefined && !UUID.test(req.supersedesDecisionId)) throw invalidArgument('invalid_supersedes_decision_id', 'supersedes_decision_id must be a decision id (a lower-case UUID).');
  return {
    schema: 'vat-governed-request/v2',
    country: req.country,
    currency: req.currency,
    amount_minor: req.amountMinor.toString(),
    price_includes_vat: req.priceIncludesVat,
    transaction_date: parsed.iso,
    classification: c ? { scheme: c.scheme, code: c.code, catalog_version: c.catalogVersion } : null,
    treatment_context: {
      customer_type: t.customerType,
      supplier_establishment_country: optionalCountry(t.supplierEstablishmentCountry, 'supplier_establishment_country'),
      dispatch_country: optionalCountry(t.dispatchCountry, 'dispatch_country'),
      destination_country: destination,
    },
    tax_class_id: req.taxClassId ?? null,
    supersedes_decision_id: req.supersedesDecisionId ?? null,
    evidence_profile: req.evidenceProfile ?? null,
    source_id: req.sourceId ?? null,
  };
}
