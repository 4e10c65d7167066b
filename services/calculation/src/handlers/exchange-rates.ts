import { create } from '@bufbuild/protobuf';
import type { ServiceImpl } from '@connectrpc/connect';
import { ExchangeRateService, GetExchangeRatesResponseSchema } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { invalidArgument } from '@vat/platform/rpc-errors';
import { isValidDate } from '@vat/platform/http-inputs';
import type { FxStore } from '../reference/fx-store';

const MAX_QUERIES = 1000;

/** The one place other services get euro reference rates; a missing rate answers found=false. */
export function exchangeRateService(fx: FxStore): ServiceImpl<typeof ExchangeRateService> {
  return {
    async getExchangeRates(req) {
      if (req.queries.length > MAX_QUERIES) throw invalidArgument('too_many_queries', `At most ${MAX_QUERIES} queries per call.`);
      const table = await fx.current();
      const answers = req.queries.map((q) => {
        if (!/^[A-Z]{3}$/.test(q.currency) || !isValidDate(q.date)) throw invalidArgument('invalid_query', 'currency must be 3 letters and date YYYY-MM-DD.');
        const base = { currency: q.currency, requestedDate: q.date };
        if (q.currency === 'EUR') return { ...base, found: true, rateDate: q.date, rate: '1' };
        const hit = q.nextPublicationDay ? table.rateOnOrNextPublication(q.currency, q.date) : (() => {
          const r = table.rateOn(q.currency, q.date);
          return r ? { rate: r, rateDate: q.date } : undefined;
        })();
        return hit ? { ...base, found: true, rateDate: hit.rateDate, rate: hit.rate.decimal } : { ...base, found: false, rateDate: '', rate: '' };
      });
      return create(GetExchangeRatesResponseSchema, { answers, lastPublicationDate: table.lastPublicationDate() ?? '' });
    },
  };
}
