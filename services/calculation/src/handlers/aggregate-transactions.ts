import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { AggregateTransactionsResponseSchema, type AggregateTransactionsRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { minorUnits } from '@vat/platform/currencies';
import { currencyToEurMinor, type EcbRateTable } from '@vat/platform/fx';
import { callerOf } from '@vat/platform/principal';
import { invalidArgument } from '@vat/platform/rpc-errors';
import type { CalculationDeps } from '../context';
import { transactionQuery } from '../domain/transaction-filter';
import { GROUP_KEY_SQL, type DailyTotal, type GroupBy } from '../repositories/calculations';

const CONVERSION_RULE =
  'Non-EUR amounts are summed per currency and transaction day (UTC) and converted to EUR with the ECB euro reference rate of that day, or of the latest earlier publication day when none was published that day; rounded half away from zero once per day and currency.';
const DISCLAIMER =
  'Informational aggregation of calculation history; not a tax return, not OSS threshold evidence and not legal advice. Transactions in currencies without an ECB reference rate are excluded and listed in unconverted_currencies.';

type Acc = { count: bigint; gross: bigint; net: bigint; vat: bigint; converted: Set<string>; unconverted: Set<string> };

/** EUR conversion of one day's sum; undefined when no usable rate (after the last publication: never a stale rate). */
function toEurOf(table: EcbRateTable, t: DailyTotal): ((v: bigint) => bigint) | undefined {
  if (t.currency === 'EUR') return (v) => v;
  const last = table.lastPublicationDate();
  const hit = last !== undefined && t.day <= last ? table.rateOnOrPreviousPublication(t.currency, t.day) : undefined;
  const units = minorUnits(t.currency);
  return hit && units !== undefined ? (v) => currencyToEurMinor(v, hit.rate, units) : undefined;
}

/** Totals per country, tax class or month in EUR minor units, default period: this calendar year. */
export async function aggregateTransactions(deps: CalculationDeps, req: AggregateTransactionsRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  const groupBy = (req.groupBy ?? 'country') as GroupBy;
  if (!Object.hasOwn(GROUP_KEY_SQL, groupBy)) throw invalidArgument('invalid_group_by', 'group_by must be country, tax_class or month.');
  const today = deps.now().toISOString().slice(0, 10);
  const snap = await deps.rates.current();
  const filter = { ...req.filter, from: req.filter?.from ?? `${today.slice(0, 4)}-01-01`, to: req.filter?.to ?? today, $typeName: 'vat.calculation.v1.TransactionFilter' as const };
  const query = transactionQuery(filter, (id) => snap.classById.has(id), { requireRange: true });
  const totals = await deps.calculations.dailyTotals(accountId, query, groupBy);
  const table = await deps.fx.current();
  const acc = new Map<string, Acc>();
  const converted = new Set<string>();
  const unconverted = new Set<string>();
  for (const t of totals) {
    const a = acc.get(t.key) ?? { count: 0n, gross: 0n, net: 0n, vat: 0n, converted: new Set(), unconverted: new Set() };
    acc.set(t.key, a);
    const toEur = toEurOf(table, t);
    if (!toEur) {
      a.unconverted.add(t.currency);
      unconverted.add(t.currency);
      continue;
    }
    if (t.currency !== 'EUR') {
      a.converted.add(t.currency);
      converted.add(t.currency);
    }
    a.count += t.count;
    a.gross += toEur(t.gross);
    a.net += toEur(t.net);
    a.vat += toEur(t.vat);
  }
  return create(AggregateTransactionsResponseSchema, {
    groupBy,
    periodFrom: query.from!,
    periodTo: query.to!,
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
    conversionRule: CONVERSION_RULE,
    disclaimer: DISCLAIMER,
  });
}
