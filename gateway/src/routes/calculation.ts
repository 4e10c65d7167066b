import type { Clients } from '@vat/platform/clients';
import { calculationResultJson } from '../json';
import type { RouteDef } from '../route';
import { CALCULATION_RESULT } from './response-shapes';
import { body, country, currency, singleHeader, str } from './schemas';

export const CALCULATE_SCOPES = ['full', 'calculate-only'] as const;

export function calculationRoutes(clients: Clients): RouteDef[] {
  return [
    {
      method: 'POST',
      url: '/v1/vat/calculate',
      access: { scopes: CALCULATE_SCOPES, legacy: true },
      summary: 'Calculate VAT for one amount and tax class in one EU Member State',
      tags: ['calculation'],
      schema: {
        headers: {
          type: 'object',
          properties: {
            'x-source-id': { type: 'string', description: '1-100 of letters, digits, _, -, /; reporting tag only' },
            'idempotency-key': { type: 'string', description: '1-255 visible ASCII; requires transaction_date' },
          },
        },
        body: body(
          {
            country: country(),
            currency: currency(),
            tax_class_id: str('unknown_tax_class', { minLength: 1, maxLength: 60 }),
            gross_amount_minor: { type: 'integer', minimum: 0, maximum: 1e15, 'x-error': 'invalid_amount', description: 'minor units; gross when price_includes_vat, else net' },
            price_includes_vat: { type: 'boolean', 'x-error': 'invalid_price_includes_vat', 'x-error-missing': 'missing_price_includes_vat', 'x-error-null': 'missing_price_includes_vat' },
            transaction_date: str('invalid_transaction_date', { maxLength: 40, description: 'YYYY-MM-DD (midnight UTC) or RFC 3339; default now' }),
          },
          ['country', 'currency', 'tax_class_id', 'gross_amount_minor', 'price_includes_vat'],
        ),
      },
      responses: { 200: CALCULATION_RESULT },
      errors: {
        400: ['invalid_idempotency_key', 'transaction_date_required_for_idempotency', 'idempotency_requires_v2_key', 'unknown_tax_class', 'invalid_tax_class_id', 'invalid_source_id', 'invalid_country', 'invalid_currency', 'invalid_amount'],
        409: ['idempotency_conflict'],
        422: ['rate_unavailable', 'conditional_rate', 'rate_unreviewed'],
        503: ['transient_conflict'],
      },
      handler: async ({ req, call }) => {
        const b = req.body as { country: string; currency: string; tax_class_id: string; gross_amount_minor: number; price_includes_vat: boolean; transaction_date?: string };
        const res = await clients.calculation.calculate(
          {
            country: b.country,
            currency: b.currency,
            taxClassId: b.tax_class_id,
            amountMinor: BigInt(b.gross_amount_minor),
            priceIncludesVat: b.price_includes_vat,
            transactionDate: b.transaction_date,
            idempotencyKey: singleHeader(req.headers['idempotency-key'], 'invalid_idempotency_key', 'Idempotency-Key'),
            sourceId: singleHeader(req.headers['x-source-id'], 'invalid_source_id', 'X-Source-ID'),
          },
          call,
        );
        return calculationResultJson(res.result!);
      },
    },
  ];
}
