import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import type pg from 'pg';
import Cursor from 'pg-cursor';
import {
  AggregateTransactionsResponseSchema,
  GetTransactionResponseSchema,
  ListTransactionsResponseSchema,
  ReplayTransactionResponseSchema,
  type AggregateTransactionsRequest,
  type ExportTransactionsRequest,
  type GetTransactionRequest,
  type ListTransactionsRequest,
  type ReplayTransactionRequest,
  type TransactionFilter,
} from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import type { TransactionSummary } from '@vat/gen/vat/calculation/v1/resources_pb';
import { csvStream, type CsvColumn, type CsvValue } from '@vat/platform/csv';
import { currencyToEurMinor } from '@vat/platform/fx';
import { minorUnits } from '@vat/platform/currencies';
import { minorToMajor } from '@vat/platform/money';
import { digestOf } from '@vat/platform/canonical-json';
import { isUuid, isValidDate, isValidSourceId } from '@vat/platform/http-inputs';
import { principalOf } from '@vat/platform/principal';
import { invalidArgument, notFound } from '@vat/platform/rpc-errors';
import type { ServiceDeps } from '@vat/platform/service-module';
import { calculateVat, CALCULATION_VERSION } from '../domain/calculator';
import { calculationProvenance, MAPPING_VERSION, pinnedDigestMatches, rateProvenance, snapshotReferences, type CanonicalRequest, type StoredRateEvidence } from '../evidence';
import type { FxStore } from '../reference/fx-store';
import { checkCountry } from './tax-classes';
import type { CalculationRow } from './rows';

export const MAX_PAGE = 500;
export const DEFAULT_PAGE = 50;
export const MAX_EXPORT_DAYS = 367;
export const MAX_EXPORT_ROWS = 1_000_000;
const DAY_MS = 86_400_000;

type Where = { sql: string; params: unknown[] };

/** Validates the shared filters and turns them into a tenant-scoped WHERE clause ($n placeholders). */
export function filterWhere(accountId: bigint, f: TransactionFilter | undefined, requireRange: boolean): Where & { from?: string; to?: string } {
  const params: unknown[] = [accountId.toString()];
  const parts = ['account_id = $1'];
  const add = (clause: string, value: unknown) => {
    params.push(value);
    parts.push(clause.replace('?', `$${params.length}`));
  };
  const from = f?.from;
  const to = f?.to;
  if (requireRange && (from === undefined || to === undefined)) throw invalidArgument('invalid_date_range', '`from` and `to` are required (YYYY-MM-DD).');
  if (from !== undefined && !isValidDate(from)) throw invalidArgument('invalid_date', '`from` must be YYYY-MM-DD.');
  if (to !== undefined && !isValidDate(to)) throw invalidArgument('invalid_date', '`to` must be YYYY-MM-DD.');
  if (from !== undefined && to !== undefined && from > to) throw invalidArgument('invalid_date_range', '`from` must not be after `to`.');
  if (from !== undefined) add('transaction_date >= ?::date', from);
  if (to !== undefined) add('transaction_date < ?::date + 1', to);
  if (f?.country !== undefined) {
    checkCountry(f.country);
    add('country = ?', f.country);
  }
  if (f?.currency !== undefined) {
    if (!/^[A-Z]{3}$/.test(f.currency)) throw invalidArgument('invalid_currency', '`currency` must be an ISO 4217 code.');
    add('currency = ?', f.currency);
  }
  if (f?.taxClassId !== undefined) {
    if (!/^[a-z][a-z0-9_]{0,59}$/.test(f.taxClassId)) throw invalidArgument('invalid_tax_class_id', '`tax_class_id` must be a tax class slug.');
    add('tax_class_id = ?', f.taxClassId);
  }
  if (f?.sourceId !== undefined) {
    if (!isValidSourceId(f.sourceId)) throw invalidArgument('invalid_source_id', '`source_id` must be 1 to 100 letters, digits, _, - or /.');
    add('source_id = ?', f.sourceId);
  }
  if (f?.apiKeyId !== undefined) add('api_key_id = ?', f.apiKeyId.toString());
  return { sql: parts.join(' and '), params, from, to };
}

function iso(d: Date | string): string {
  return new Date(d).toISOString();
}

export function summaryOf(r: CalculationRow): TransactionSummary {
  return {
    $typeName: 'vat.calculation.v1.TransactionSummary',
    id: r.id,
    createdAt: iso(r.created_at),
    transactionDate: iso(r.transaction_date),
    country: r.country,
    currency: r.currency,
    taxClassId: r.tax_class_id,
    vatRateBps: r.vat_rate_bps,
    netAmountMinor: BigInt(r.net_minor),
    vatAmountMinor: BigInt(r.vat_minor),
    grossAmountMinor: BigInt(r.gross_minor),
    priceIncludesVat: r.price_includes_vat,
    sourceId: r.source_id ?? undefined,
    apiKeyId: BigInt(r.api_key_id),
    rateEvidenceStatus: r.rate_evidence_status,
    replayStatus: r.replay_status,
  };
}

/** Cursors name the last row returned (its id), so they reveal nothing beyond the caller's own data. */
function encodeCursor(id: string): string {
  return Buffer.from(`c:${id}`).toString('base64url');
}

function decodeCursor(cursor: string): string {
  const text = /^[A-Za-z0-9_-]{1,64}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : '';
  const id = text.startsWith('c:') ? text.slice(2) : '';
  if (!isUuid(id)) throw invalidArgument('invalid_cursor', '`cursor` must be a next_cursor value from a previous page.');
  return id;
}

export function transactionHandlers(deps: ServiceDeps, fx: FxStore, db: () => pg.Pool) {

  async function ownedRow(accountId: bigint, id: string): Promise<CalculationRow | undefined> {
    const res = await db().query('select * from "calculation".calculation where account_id = $1 and id = $2', [accountId.toString(), id]);
    return res.rows[0] as CalculationRow | undefined;
  }

  return {
    async getTransaction(req: GetTransactionRequest, ctx: HandlerContext) {
      const { accountId } = principalOf(ctx);
      if (!isUuid(req.id)) throw invalidArgument('invalid_transaction_id', 'The transaction id must be a UUID.');
      const row = await ownedRow(accountId, req.id.toLowerCase());
      if (!row) throw notFound('transaction_not_found', 'No such transaction.');
      const e = row.rate_evidence as StoredRateEvidence;
      const refs = snapshotReferences(row.request_digest, e, row.manifest_digest);
      return create(GetTransactionResponseSchema, {
        transaction: {
          summary: summaryOf(row),
          rateSource: `EU VAT rate reference release ${e.release_version}`,
          rateReleaseVersion: e.release_version,
          rateReleaseDigest: e.release_digest,
          rateEffectiveFrom: e.window.valid_from,
          rateEffectiveTo: e.window.valid_to ?? undefined,
          mappingVersion: MAPPING_VERSION,
          calculationVersion: row.calculation_version,
          executionDigest: row.execution_digest,
          algorithmManifestDigest: row.manifest_digest,
          evidenceStatus: 'captured',
          snapshotReferences: refs,
          idempotencyKeyDigest: row.idempotency_key ? digestOf({ idempotency_key: row.idempotency_key }) : undefined,
          rateProvenance: rateProvenance(e, iso(row.transaction_date), row.request_digest),
        },
      });
    },

    async listTransactions(req: ListTransactionsRequest, ctx: HandlerContext) {
      const { accountId } = principalOf(ctx);
      const limit = req.limit === 0 ? DEFAULT_PAGE : req.limit;
      if (limit < 1 || limit > MAX_PAGE) throw invalidArgument('invalid_limit', `limit must be 1 to ${MAX_PAGE}.`);
      const w = filterWhere(accountId, req.filter, false);
      if (req.cursor !== undefined) {
        const at = await db().query('select seq from "calculation".calculation where account_id = $1 and id = $2', [accountId.toString(), decodeCursor(req.cursor)]);
        if (!at.rows[0]) throw invalidArgument('invalid_cursor', '`cursor` must be a next_cursor value from a previous page.');
        w.params.push(at.rows[0].seq);
        w.sql += ` and seq < $${w.params.length}`;
      }
      w.params.push(limit + 1);
      const res = await db().query(`select * from "calculation".calculation where ${w.sql} order by seq desc limit $${w.params.length}`, w.params);
      const rows = res.rows as CalculationRow[];
      const page = rows.slice(0, limit);
      return create(ListTransactionsResponseSchema, {
        items: page.map(summaryOf),
        nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]!.id) : undefined,
      });
    },

    async replayTransaction(req: ReplayTransactionRequest, ctx: HandlerContext) {
      const { accountId } = principalOf(ctx);
      const hidden = () => notFound('calculation_not_found', 'No replayable calculation with this id.');
      if (!isUuid(req.id)) throw hidden();
      const row = await ownedRow(accountId, req.id.toLowerCase());
      if (!row || row.replay_status !== 'available' || row.calculation_version !== CALCULATION_VERSION) throw hidden();
      const canonical = row.canonical_request as CanonicalRequest;
      const e = row.rate_evidence as StoredRateEvidence;
      if (digestOf(canonical) !== row.request_digest || !pinnedDigestMatches(e) || e.window.rate_bps !== row.vat_rate_bps) {
        deps.log.warn({ calculation: row.id }, 'replay refused: sealed evidence does not match');
        throw hidden();
      }
      const amounts = calculateVat({ amountMinor: BigInt(canonical.amount_minor), rateBps: e.window.rate_bps, priceIncludesVat: canonical.price_includes_vat });
      const exact = amounts.netMinor === BigInt(row.net_minor) && amounts.vatMinor === BigInt(row.vat_minor) && amounts.grossMinor === BigInt(row.gross_minor);
      if (!exact) {
        deps.log.warn({ calculation: row.id }, 'replay refused: recomputed amounts differ');
        throw hidden();
      }
      return create(ReplayTransactionResponseSchema, {
        exactMatch: true,
        calculationId: row.id,
        country: canonical.country,
        currency: canonical.currency,
        vatRateBps: e.window.rate_bps,
        grossAmountMinor: amounts.grossMinor,
        netAmountMinor: amounts.netMinor,
        vatAmountMinor: amounts.vatMinor,
        transactionDate: canonical.transaction_date,
        rateProvenance: rateProvenance(e, canonical.transaction_date, row.request_digest),
        calculationProvenance: calculationProvenance('tenant_owned', 'available'),
      });
    },

    async *exportTransactions(req: ExportTransactionsRequest, ctx: HandlerContext) {
      const { accountId } = principalOf(ctx);
      if (req.exportVersion !== 1 && req.exportVersion !== 2) throw invalidArgument('invalid_export_version', 'export_version must be 1 or 2.');
      const w = filterWhere(accountId, req.filter, true);
      const days = (Date.parse(`${w.to}T00:00:00Z`) - Date.parse(`${w.from}T00:00:00Z`)) / DAY_MS + 1;
      if (days > MAX_EXPORT_DAYS) throw invalidArgument('invalid_date_range', `An export covers at most ${MAX_EXPORT_DAYS} days.`);
      const maxRows = req.maxRows > 0n && req.maxRows < BigInt(MAX_EXPORT_ROWS) ? Number(req.maxRows) : MAX_EXPORT_ROWS;
      const v2 = req.exportVersion === 2;
      const columns: CsvColumn[] = [
        { name: 'id', kind: 'text' },
        { name: 'created_at', kind: 'text' },
        { name: 'transaction_date', kind: 'text' },
        { name: 'country', kind: 'text' },
        { name: 'currency', kind: 'text' },
        { name: 'tax_class_id', kind: 'text' },
        { name: 'price_includes_vat', kind: 'text' },
        { name: 'vat_rate_bps', kind: 'number' },
        { name: 'net_amount', kind: 'number' },
        { name: 'vat_amount', kind: 'number' },
        { name: 'gross_amount', kind: 'number' },
        { name: 'source_id', kind: 'text' },
        { name: 'api_key_id', kind: 'number' },
        ...(v2
          ? ([
              { name: 'rate_evidence_status', kind: 'text' },
              { name: 'replay_status', kind: 'text' },
              { name: 'calculation_version', kind: 'text' },
              { name: 'execution_digest', kind: 'text' },
              { name: 'algorithm_manifest_digest', kind: 'text' },
              { name: 'rate_release_digest', kind: 'text' },
              { name: 'rate_window_digest', kind: 'text' },
              { name: 'snapshot_digests', kind: 'text' },
            ] as CsvColumn[])
          : []),
      ];
      const select = v2
        ? `seq, id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), to_char(transaction_date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), country, currency, tax_class_id, price_includes_vat, vat_rate_bps, net_minor, vat_minor, gross_minor, source_id, api_key_id,
           rate_evidence_status, replay_status, calculation_version, execution_digest, manifest_digest, rate_evidence->>'release_digest', rate_evidence->>'pinned_digest', request_digest`
        : `seq, id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), to_char(transaction_date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), country, currency, tax_class_id, price_includes_vat, vat_rate_bps, net_minor, vat_minor, gross_minor, source_id, api_key_id`;
      const client = await db().connect();
      // One ordered query read through a server-side cursor: a single index scan in seq order, no
      // re-sorting per batch, and memory bounded by the batch size.
      async function* rows(): AsyncGenerator<CsvValue[]> {
        const sql = `select ${select} from "calculation".calculation where ${w.sql} order by seq`;
        const cursor = client.query(new Cursor(sql, w.params, { rowMode: 'array', types: { getTypeParser: () => (v: string) => v } }));
        try {
          for (;;) {
            const batch = (await cursor.read(10_000)) as string[][];
            if (batch.length === 0) return;
            for (const r of batch) {
              const units = minorUnits(r[5]!) ?? 2;
              const out: CsvValue[] = [r[1], r[2], r[3], r[4], r[5], r[6], r[7] === 't' ? 'true' : 'false', r[8], minorToMajor(r[9]!, units), minorToMajor(r[10]!, units), minorToMajor(r[11]!, units), r[12], r[13]];
              if (v2) out.push(r[14], r[15], r[16], r[17], r[18], r[19], r[20], [r[21], r[20], r[19], r[18]].join(';'));
              yield out;
            }
          }
        } finally {
          await cursor.close();
        }
      }
      try {
        for await (const chunk of csvStream(columns, rows(), { maxRows, truncationComment: `truncated: the export is capped at ${maxRows} rows; narrow the filters or date range` })) {
          yield { csvChunk: chunk };
        }
      } finally {
        client.release();
      }
    },

    async aggregateTransactions(req: AggregateTransactionsRequest, ctx: HandlerContext) {
      const { accountId } = principalOf(ctx);
      const groupBy = req.groupBy || 'country';
      const keyExpr = { country: 'country', tax_class: 'tax_class_id', month: `to_char(transaction_date at time zone 'UTC', 'YYYY-MM')` }[groupBy];
      if (!keyExpr) throw invalidArgument('invalid_group_by', 'group_by must be country, tax_class or month.');
      const today = deps.now().toISOString().slice(0, 10);
      const filter = { ...req.filter, from: req.filter?.from ?? `${today.slice(0, 4)}-01-01`, to: req.filter?.to ?? today } as TransactionFilter;
      const w = filterWhere(accountId, filter, true);
      const res = await db().query(
        `select ${keyExpr} as key, currency, to_char(transaction_date at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::text as n,
                sum(gross_minor)::text as gross, sum(net_minor)::text as net, sum(vat_minor)::text as vat
         from "calculation".calculation where ${w.sql} group by 1, 2, 3 order by 1, 2, 3`,
        w.params,
      );
      const table = await fx.current();
      type Acc = { count: bigint; gross: bigint; net: bigint; vat: bigint; converted: Set<string>; unconverted: Set<string> };
      const acc = new Map<string, Acc>();
      const converted = new Set<string>();
      const unconverted = new Set<string>();
      for (const r of res.rows as { key: string; currency: string; day: string; n: string; gross: string; net: string; vat: string }[]) {
        const a = acc.get(r.key) ?? { count: 0n, gross: 0n, net: 0n, vat: 0n, converted: new Set(), unconverted: new Set() };
        acc.set(r.key, a);
        let toEur: ((v: bigint) => bigint) | undefined;
        if (r.currency === 'EUR') toEur = (v) => v;
        else {
          // After the last loaded publication the right rate is unknown: unconverted, never a stale rate.
          const last = table.lastPublicationDate();
          const hit = last !== undefined && r.day <= last ? table.rateOnOrPreviousPublication(r.currency, r.day) : undefined;
          const units = minorUnits(r.currency);
          if (hit && units !== undefined) toEur = (v) => currencyToEurMinor(v, hit.rate, units);
        }
        if (!toEur) {
          a.unconverted.add(r.currency);
          unconverted.add(r.currency);
          continue;
        }
        if (r.currency !== 'EUR') {
          a.converted.add(r.currency);
          converted.add(r.currency);
        }
        a.count += BigInt(r.n);
        a.gross += toEur(BigInt(r.gross));
        a.net += toEur(BigInt(r.net));
        a.vat += toEur(BigInt(r.vat));
      }
      return create(AggregateTransactionsResponseSchema, {
        groupBy,
        periodFrom: w.from!,
        periodTo: w.to!,
        rows: [...acc.entries()].map(([key, a]) => ({
          key,
          transactionCount: a.count,
          grossAmountMinor: a.gross,
          netAmountMinor: a.net,
          vatAmountMinor: a.vat,
          convertedCurrencies: [...a.converted].sort(),
          unconvertedCurrencies: [...a.unconverted].sort(),
        })),
        convertedCurrencies: [...converted].sort(),
        unconvertedCurrencies: [...unconverted].sort(),
        eurOnly: unconverted.size > 0,
        conversionRule:
          'Non-EUR amounts are summed per currency and transaction day (UTC) and converted to EUR with the ECB euro reference rate of that day, or of the latest earlier publication day when none was published that day; rounded half away from zero once per day and currency.',
        disclaimer: 'Informational aggregation of calculation history; not a tax return, not OSS threshold evidence and not legal advice. Transactions in currencies without an ECB reference rate are excluded and listed in unconverted_currencies.',
      });
    },
  };
}
