import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ListRateHistoriesResponseSchema, type ListRateHistoriesRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { invalidArgument, notFound } from '@vat/platform/rpc-errors';
import type { CalculationDeps } from '../context';
import { checkCountry, shown } from '../domain/reference-inputs';
import { rateMessage } from '../messages';

const MAX_COUNTRIES = 100;

/** One class's full dated history in each country asked, all from one snapshot of the rate release. */
export async function listRateHistories(deps: CalculationDeps, req: ListRateHistoriesRequest, _ctx: HandlerContext) {
  if (req.countries.length === 0 || req.countries.length > MAX_COUNTRIES) throw invalidArgument('invalid_country', `\`countries\` takes 1 to ${MAX_COUNTRIES} Member State codes.`);
  for (const country of req.countries) checkCountry(country);
  const snap = await deps.rates.current();
  if (!snap.classById.has(req.taxClassId)) throw notFound('tax_class_not_found', `No tax class "${shown(req.taxClassId)}".`);
  return create(ListRateHistoriesResponseSchema, {
    rates: req.countries.flatMap((country) => snap.history(country, req.taxClassId).map(rateMessage)),
    dataReleaseDigest: snap.release.digest,
  });
}
