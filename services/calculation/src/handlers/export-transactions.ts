import type { HandlerContext } from '@connectrpc/connect';
import type { ExportTransactionsRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { csvStream, type CsvColumn, type CsvValue } from '@vat/platform/csv';
import { minorUnits } from '@vat/platform/currencies';
import { minorToMajor } from '@vat/platform/money';
import { callerOf } from '@vat/platform/principal';
import { invalidArgument } from '@vat/platform/rpc-errors';
import type { CalculationDeps } from '../context';
import { transactionQuery } from '../domain/transaction-filter';
import type { ExportRow } from '../repositories/calculations';

const MAX_EXPORT_DAYS = 367;
const MAX_EXPORT_ROWS = 1_000_000;
/**
 * Rows per keyset statement. The batch is held while it is formatted and streamed, long enough for V8 to promote it:
 * at 5,000 rows the one-process server peaked at 225-256 MB over the two 1,000,000-row exports on a fresh server
 * (235-264 MB in the full bench), at 1,000 at 198-220 MB, at the same speed within the machine's noise
 * (`test/bench/export-memory.ts`, interleaved runs; docs/benchmarks.md).
 */
const BATCH_ROWS = 1_000;
const DAY_MS = 86_400_000;

type Column = CsvColumn & { value: (r: ExportRow) => CsvValue };

/** Amounts in major units at the currency's ISO 4217 scale, as the spec says for exports. */
const major = (minor: (r: ExportRow) => string) => (r: ExportRow) => minorToMajor(minor(r), minorUnits(r.currency) ?? 2);

const V1_COLUMNS: Column[] = [
  { name: 'id', kind: 'text', value: (r) => r.id },
  { name: 'created_at', kind: 'text', value: (r) => r.createdAt },
  { name: 'transaction_date', kind: 'text', value: (r) => r.transactionDate },
  { name: 'country', kind: 'text', value: (r) => r.country },
  { name: 'currency', kind: 'text', value: (r) => r.currency },
  { name: 'tax_class_id', kind: 'text', value: (r) => r.taxClassId },
  { name: 'price_includes_vat', kind: 'text', value: (r) => (r.priceIncludesVat ? 'true' : 'false') },
  { name: 'vat_rate_bps', kind: 'number', value: (r) => r.vatRateBps },
  { name: 'net_amount', kind: 'number', value: major((r) => r.netMinor) },
  { name: 'vat_amount', kind: 'number', value: major((r) => r.vatMinor) },
  { name: 'gross_amount', kind: 'number', value: major((r) => r.grossMinor) },
  { name: 'source_id', kind: 'text', value: (r) => r.sourceId },
  { name: 'api_key_id', kind: 'number', value: (r) => r.apiKeyId },
];

const V2_COLUMNS: Column[] = [
  ...V1_COLUMNS,
  { name: 'rate_evidence_status', kind: 'text', value: (r) => r.rateEvidenceStatus },
  { name: 'replay_status', kind: 'text', value: (r) => r.replayStatus },
  { name: 'calculation_version', kind: 'text', value: (r) => r.calculationVersion },
  { name: 'execution_digest', kind: 'text', value: (r) => r.executionDigest },
  { name: 'algorithm_manifest_digest', kind: 'text', value: (r) => r.manifestDigest },
  { name: 'rate_release_digest', kind: 'text', value: (r) => r.rateReleaseDigest },
  { name: 'rate_window_digest', kind: 'text', value: (r) => r.rateWindowDigest },
  // The snapshot references in the order of the detail record.
  { name: 'snapshot_digests', kind: 'text', value: (r) => [r.requestDigest, r.rateWindowDigest, r.rateReleaseDigest, r.manifestDigest].join(';') },
];

/**
 * Streams the account's calculations as CSV in storage order. Rows are read in keyset batches
 * (short independent statements), so an export never holds a cursor or transaction open.
 */
export async function* exportTransactions(deps: CalculationDeps, req: ExportTransactionsRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  const version = req.exportVersion ?? 1;
  if (version !== 1 && version !== 2) throw invalidArgument('invalid_export_version', 'export_version must be 1 or 2.');
  const snap = await deps.rates.current();
  const query = transactionQuery(req.filter, (id) => snap.classById.has(id), { requireRange: true });
  const days = (Date.parse(`${query.to}T00:00:00Z`) - Date.parse(`${query.from}T00:00:00Z`)) / DAY_MS + 1;
  if (days > MAX_EXPORT_DAYS) throw invalidArgument('invalid_date_range', `An export covers at most ${MAX_EXPORT_DAYS} days.`);
  const maxRows = req.maxRows > 0n && req.maxRows < BigInt(MAX_EXPORT_ROWS) ? Number(req.maxRows) : MAX_EXPORT_ROWS;
  const columns = version === 2 ? V2_COLUMNS : V1_COLUMNS;
  async function* rows(): AsyncGenerator<CsvValue[]> {
    for await (const batch of deps.calculations.exportRows(accountId, query, BATCH_ROWS, ctx.signal)) {
      for (const r of batch) yield columns.map((c) => c.value(r));
    }
  }
  const truncationComment = `truncated: the export is capped at ${maxRows} rows; narrow the filters or date range`;
  for await (const chunk of csvStream(columns, rows(), { maxRows, truncationComment })) yield { csvChunk: chunk };
}
