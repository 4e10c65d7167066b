import type { TransactionFilter } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { isKnownCurrency, minorUnits } from '@vat/platform/currencies';
import { isValidDate, isValidSourceId } from '@vat/platform/http-inputs';
import { invalidArgument } from '@vat/platform/rpc-errors';
import type { TransactionQuery } from '../repositories/calculations';
import { checkCountry, shown } from './reference-inputs';

/** Validates the history filters shared by list, export and aggregation (every rule, once, here). */
export function transactionQuery(f: TransactionFilter | undefined, knownTaxClass: (id: string) => boolean, opts: { requireRange: boolean }): TransactionQuery {
  const q: TransactionQuery = {};
  if (opts.requireRange && (f?.from === undefined || f?.to === undefined)) throw invalidArgument('invalid_date_range', '`from` and `to` are required (YYYY-MM-DD).');
  if (f?.from !== undefined && !isValidDate(f.from)) throw invalidArgument('invalid_date', '`from` must be a calendar date YYYY-MM-DD.');
  if (f?.to !== undefined && !isValidDate(f.to)) throw invalidArgument('invalid_date', '`to` must be a calendar date YYYY-MM-DD.');
  if (f?.from !== undefined && f?.to !== undefined && f.from > f.to) throw invalidArgument('invalid_date_range', '`from` must not be after `to`.');
  q.from = f?.from;
  q.to = f?.to;
  if (f?.country !== undefined) {
    checkCountry(f.country);
    q.country = f.country;
  }
  if (f?.currency !== undefined) {
    if (!/^[A-Z]{3}$/.test(f.currency) || !isKnownCurrency(f.currency)) throw invalidArgument('invalid_currency', `"${shown(f.currency)}" is not an ISO 4217 currency code.`);
    // XXX, XAU, XDR...: a calculation is refused in a code without a minor unit, so such a filter could never match.
    if (minorUnits(f.currency) === undefined) throw invalidArgument('invalid_currency', `${f.currency} has no minor unit in ISO 4217: no calculation can be in it.`);
    q.currency = f.currency;
  }
  if (f?.taxClassId !== undefined) {
    if (!knownTaxClass(f.taxClassId)) throw invalidArgument('invalid_tax_class_id', `"${shown(f.taxClassId)}" is not a tax class; see GET /v1/tax-classes.`);
    q.taxClassId = f.taxClassId;
  }
  if (f?.sourceId !== undefined) {
    if (!isValidSourceId(f.sourceId)) throw invalidArgument('invalid_source_id', '`source_id` must be 1 to 100 letters, digits, _, - or /.');
    q.sourceId = f.sourceId;
  }
  if (f?.apiKeyId !== undefined) {
    if (f.apiKeyId < 1n) throw invalidArgument('invalid_api_key_id', '`api_key_id` must be a positive key id.');
    q.apiKeyId = f.apiKeyId;
  }
  return q;
}
