import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { GetExchangeRatesResponseSchema, type GetExchangeRatesRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { isValidDate } from '@vat/platform/http-inputs';
import { invalidArgument } from '@vat/platform/rpc-errors';
import type { CalculationDeps } from '../context';

const MAX_QUERIES = 1000;

/** Euro reference rates for other services; a missing rate answers found=false, never a guess. */
export async function getExchangeRates(deps: CalculationDeps, req: GetExchangeRatesRequest, _ctx: HandlerContext) {
  if (req.queries.length > MAX_QUERIES) throw invalidArgument('too_many_queries', `At most ${MAX_QUERIES} queries per call.`);
  const table = await deps.fx.current();
  const answers = req.queries.map((q) => {
    if (!/^[A-Z]{3}$/.test(q.currency) || !isValidDate(q.date)) throw invalidArgument('invalid_query', 'currency must be 3 letters and date YYYY-MM-DD.');
    const base = { currency: q.currency, requestedDate: q.date };
    if (q.currency === 'EUR') return { ...base, found: true, rateDate: q.date, rate: '1' };
    const sameDay = () => {
      const r = table.rateOn(q.currency, q.date);
      return r ? { rate: r, rateDate: q.date } : undefined;
    };
    const hit = q.nextPublicationDay ? table.rateOnOrNextPublication(q.currency, q.date) : q.previousPublicationDay ? table.rateOnOrPreviousPublication(q.currency, q.date) : sameDay();
    return hit ? { ...base, found: true, rateDate: hit.rateDate, rate: hit.rate.decimal } : { ...base, found: false, rateDate: '', rate: '' };
  });
  return create(GetExchangeRatesResponseSchema, { answers, lastPublicationDate: table.lastPublicationDate() ?? '' });
}
