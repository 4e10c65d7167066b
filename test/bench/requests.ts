import type autocannon from 'autocannon';

/** The body of the benches' `POST /v1/vat/calculate` (a German standard-rate sale of 119.00 EUR gross). */
export const CALCULATE_BODY = { country: 'DE', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 11900, price_includes_vat: true, transaction_date: '2026-03-01' };

let requestSeq = 0;

/**
 * The benches' persisted `POST /v1/vat/calculate` as an autocannon request: `CALCULATE_BODY` with `key`, and a fresh
 * Idempotency-Key per request (`<prefix>-<n>`; the prefix should be unique per run, so every request stores a row).
 */
export function persistedCalculation(key: string, prefix: string): autocannon.Request {
  return {
    method: 'POST',
    path: '/v1/vat/calculate',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(CALCULATE_BODY),
    setupRequest: (req: autocannon.Request) => ({ ...req, headers: { ...req.headers, 'idempotency-key': `${prefix}-${requestSeq++}` } }),
  };
}
