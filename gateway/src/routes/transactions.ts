import type { FastifyRequest } from 'fastify';
import type { Clients } from '@vat/platform/clients';
import type { TransactionFilter } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { calculationResultJson, num, opt, rateProvenanceJson, transactionSummaryJson } from '../json';
import type { RouteDef } from '../route';
import { arrayOf, boolean, dateTime, file, integer, nullable, object, page, ref, string, strings } from '../openapi/shapes';
import { CALCULATION_RESULT_PROPS, RATE_PROVENANCE, TRANSACTION_SUMMARY_PROPS } from './response-shapes';
import { country, currency, date, intOf, intParam, query, str } from './schemas';

export const READ_SCOPES = ['full', 'read-only'] as const;
const access = { scopes: READ_SCOPES };

const filterProps = {
  from: { ...date('invalid_date', 'inclusive, UTC transaction date'), 'x-error-missing': 'missing_from' },
  to: { ...date('invalid_date', 'inclusive, UTC transaction date'), 'x-error-missing': 'missing_to' },
  country: country(),
  currency: currency(),
  tax_class_id: str('invalid_tax_class_id', { maxLength: 60 }),
  source_id: str('invalid_source_id', { maxLength: 100 }),
  api_key_id: intParam('invalid_api_key_id', 18),
};

function filterOf(req: FastifyRequest): Omit<TransactionFilter, '$typeName'> {
  const q = req.query as Record<string, string | undefined>;
  return {
    from: q.from,
    to: q.to,
    country: q.country,
    currency: q.currency,
    taxClassId: q.tax_class_id,
    sourceId: q.source_id,
    apiKeyId: q.api_key_id === undefined ? undefined : BigInt(q.api_key_id),
  };
}

const FILTER_ERRORS = ['invalid_date', 'invalid_date_range', 'invalid_country', 'invalid_currency', 'invalid_tax_class_id', 'invalid_source_id', 'invalid_api_key_id'];
const TRANSACTION_DETAIL = object({
  ...TRANSACTION_SUMMARY_PROPS,
  rate_source: string,
  rate_release_version: string,
  rate_release_digest: string,
  rate_effective_from: string,
  rate_effective_to: nullable(string),
  mapping_version: string,
  calculation_version: string,
  execution_digest: string,
  algorithm_manifest_digest: string,
  evidence_status: string,
  idempotency_key_digest: nullable(string),
  snapshot_references: arrayOf(object({ kind: string, digest: string })),
  rate_provenance: nullable(RATE_PROVENANCE),
});
const money = ref('MoneyMinor');
const AGGREGATE = object({
  group_by: string,
  period: object({ from: string, to: string }),
  rows: arrayOf(object({ key: string, transaction_count: integer, gross_amount_minor: money, net_amount_minor: money, vat_amount_minor: money, converted_currencies: strings, unconverted_currencies: strings })),
  converted_currencies: strings,
  unconverted_currencies: strings,
  eur_only: boolean,
  conversion_rule: string,
  disclaimer: string,
});

const idParam = { type: 'object', properties: { id: str('invalid_transaction_id', { maxLength: 64 }) }, required: ['id'] };

export function transactionRoutes(clients: Clients): RouteDef[] {
  return [
    {
      method: 'GET',
      url: '/v1/transactions',
      access,
      summary: 'List stored calculations, newest first (keyset cursor)',
      tags: ['transactions'],
      schema: { querystring: query({ ...filterProps, cursor: str('invalid_cursor', { maxLength: 64 }), limit: { ...intParam('invalid_limit'), description: '1-500, default 50' } }) },
      responses: { 200: page(object(TRANSACTION_SUMMARY_PROPS)) },
      errors: { 400: [...FILTER_ERRORS, 'invalid_cursor', 'invalid_limit'] },
      handler: async ({ req, call }) => {
        const q = req.query as Record<string, string | undefined>;
        const res = await clients.calculation.listTransactions({ filter: filterOf(req), cursor: q.cursor, limit: intOf(q.limit) }, call);
        return { items: res.items.map(transactionSummaryJson), next_cursor: opt(res.nextCursor) };
      },
    },
    {
      method: 'GET',
      url: '/v1/transactions/export',
      access,
      summary: 'CSV export (from/to required, at most 367 days, capped at 1,000,000 rows)',
      tags: ['transactions'],
      schema: { querystring: query({ ...filterProps, export_version: { ...intParam('invalid_export_version'), description: '1 (default) or 2' } }, ['from', 'to']) },
      responses: { 200: file('text/csv') },
      errors: { 400: [...FILTER_ERRORS, 'missing_from', 'missing_to', 'invalid_export_version'] },
      handler: async ({ req, reply, call }) => {
        const q = req.query as Record<string, string | undefined>;
        const stream = clients.calculation.exportTransactions({ filter: filterOf(req), exportVersion: intOf(q.export_version) }, call)[Symbol.asyncIterator]();
        // Pull the first chunk before committing to 200, so validation errors still answer as JSON.
        const first = await stream.next();
        reply.header('content-type', 'text/csv; charset=utf-8');
        reply.header('content-disposition', `attachment; filename="transactions-${q.from}-${q.to}.csv"`);
        async function* body() {
          if (!first.done) yield first.value.csvChunk;
          for (;;) {
            const next = await stream.next();
            if (next.done) return;
            yield next.value.csvChunk;
          }
        }
        const { Readable } = await import('node:stream');
        return reply.send(Readable.from(body()));
      },
    },
    {
      method: 'GET',
      url: '/v1/transactions/aggregated',
      access,
      summary: 'Totals grouped by country, tax class or month, in EUR minor units',
      tags: ['transactions'],
      schema: { querystring: query({ from: filterProps.from, to: filterProps.to, group_by: str('invalid_group_by', { enum: ['country', 'tax_class', 'month'] }), country: filterProps.country, source_id: filterProps.source_id, currency: filterProps.currency, api_key_id: filterProps.api_key_id }) },
      responses: { 200: AGGREGATE },
      errors: { 400: [...FILTER_ERRORS, 'invalid_group_by'] },
      handler: async ({ req, call }) => {
        const q = req.query as Record<string, string | undefined>;
        const res = await clients.calculation.aggregateTransactions({ filter: filterOf(req), groupBy: q.group_by }, call);
        return {
          group_by: res.groupBy,
          period: { from: res.periodFrom, to: res.periodTo },
          rows: res.rows.map((r) => ({
            key: r.key,
            transaction_count: num(r.transactionCount),
            gross_amount_minor: num(r.grossAmountMinor),
            net_amount_minor: num(r.netAmountMinor),
            vat_amount_minor: num(r.vatAmountMinor),
            converted_currencies: r.convertedCurrencies,
            unconverted_currencies: r.unconvertedCurrencies,
          })),
          converted_currencies: res.convertedCurrencies,
          unconverted_currencies: res.unconvertedCurrencies,
          eur_only: res.eurOnly,
          conversion_rule: res.conversionRule,
          disclaimer: res.disclaimer,
        };
      },
    },
    {
      method: 'GET',
      url: '/v1/transactions/:id',
      access,
      summary: 'Evidence detail of one stored calculation',
      tags: ['transactions'],
      schema: { params: idParam },
      responses: { 200: TRANSACTION_DETAIL },
      errors: { 400: ['invalid_transaction_id'], 404: ['transaction_not_found'] },
      handler: async ({ req, call }) => {
        const { id } = req.params as { id: string };
        const t = (await clients.calculation.getTransaction({ id }, call)).transaction!;
        return {
          ...transactionSummaryJson(t.summary!),
          rate_source: t.rateSource,
          rate_release_version: t.rateReleaseVersion,
          rate_release_digest: t.rateReleaseDigest,
          rate_effective_from: t.rateEffectiveFrom,
          rate_effective_to: opt(t.rateEffectiveTo),
          mapping_version: t.mappingVersion,
          calculation_version: t.calculationVersion,
          execution_digest: t.executionDigest,
          algorithm_manifest_digest: t.algorithmManifestDigest,
          evidence_status: t.evidenceStatus,
          idempotency_key_digest: opt(t.idempotencyKeyDigest),
          snapshot_references: t.snapshotReferences.map((r) => ({ kind: r.kind, digest: r.digest })),
          rate_provenance: rateProvenanceJson(t.rateProvenance),
        };
      },
    },
    {
      method: 'POST',
      url: '/v1/transactions/:id/replay',
      access,
      summary: 'Recalculate from the sealed canonical input, pinned rate and calculator version',
      tags: ['transactions'],
      // No shape rule on the id: every unavailable, malformed or foreign id gets the identical 404.
      schema: { params: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
      responses: { 200: object({ exact_match: boolean, ...CALCULATION_RESULT_PROPS }) },
      errors: { 404: ['calculation_not_found'] },
      handler: async ({ req, call }) => {
        const { id } = req.params as { id: string };
        const r = await clients.calculation.replayTransaction({ id }, call);
        return { exact_match: r.exactMatch, ...calculationResultJson(r) };
      },
    },
  ];
}
