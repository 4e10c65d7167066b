import type { CalculateRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { isCurrencyValidOn, isKnownCurrency, minorUnits } from '@vat/platform/currencies';
import { isValidIdempotencyKey, isValidSourceId, parseTransactionDate } from '@vat/platform/http-inputs';
import { invalidArgument } from '@vat/platform/rpc-errors';
import type { CanonicalRequest } from '../evidence';
import { MAX_AMOUNT_MINOR } from './calculator';
import { checkCountry, shown } from './reference-inputs';

/** Validates a v1 request into its canonical form; every rule here is part of the algorithm manifest. */
export function canonicalize(req: CalculateRequest, now: Date): CanonicalRequest {
  checkCountry(req.country);
  if (req.amountMinor < 0n || req.amountMinor > MAX_AMOUNT_MINOR) throw invalidArgument('invalid_amount', `gross_amount_minor must be an integer from 0 to ${MAX_AMOUNT_MINOR}.`);
  if (req.idempotencyKey !== undefined && !isValidIdempotencyKey(req.idempotencyKey)) throw invalidArgument('invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 visible ASCII characters.');
  if (req.idempotencyKey !== undefined && req.transactionDate === undefined) throw invalidArgument('transaction_date_required_for_idempotency', 'An Idempotency-Key needs an explicit transaction_date.');
  if (req.sourceId !== undefined && !isValidSourceId(req.sourceId)) throw invalidArgument('invalid_source_id', 'X-Source-ID must be 1 to 100 letters, digits, _, - or /.');
  let transactionDate = now.toISOString();
  if (req.transactionDate !== undefined) {
    const parsed = parseTransactionDate(req.transactionDate);
    if (!parsed.ok) throw invalidArgument('invalid_transaction_date', 'transaction_date must be YYYY-MM-DD or an RFC 3339 timestamp (years 1900-9999).');
    transactionDate = parsed.iso;
  }
  if (!/^[A-Z]{3}$/.test(req.currency) || !isKnownCurrency(req.currency)) throw invalidArgument('invalid_currency', `"${shown(req.currency)}" is not an ISO 4217 currency code.`);
  // Amounts are in minor units; XXX, XTS, XAU, XDR, ... have none ("N.A." in ISO 4217), so they are not money here.
  if (minorUnits(req.currency) === undefined) throw invalidArgument('invalid_currency', `${req.currency} has no minor unit in ISO 4217 and cannot carry an amount.`);
  if (!isCurrencyValidOn(req.currency, transactionDate.slice(0, 10))) throw invalidArgument('invalid_currency', `${req.currency} was not a valid currency on ${transactionDate.slice(0, 10)}.`);
  return {
    schema: 'vat-calculate-request/v1',
    country: req.country,
    currency: req.currency,
    tax_class_id: req.taxClassId,
    amount_minor: req.amountMinor.toString(),
    price_includes_vat: req.priceIncludesVat,
    transaction_date: transactionDate,
    source_id: req.sourceId ?? null,
  };
}
