import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ListRatesInForceResponseSchema, type ListRatesInForceRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import type { RateInForce } from '@vat/gen/vat/calculation/v1/resources_pb';
import { EU_MEMBER_STATES } from '@vat/platform/countries';
import type { CalculationDeps } from '../context';
import { checkCountry } from '../domain/reference-inputs';
import { ratesInForce } from '../reference/rates-in-force';

/** For the ledger and the reports: which (rate, type) pairs a supply in a country (or region) may carry on a day. */
export async function listRatesInForce(deps: CalculationDeps, req: ListRatesInForceRequest, _ctx: HandlerContext) {
  for (const c of req.countries) checkCountry(c);
  const snap = await deps.rates.current();
  const countries = new Set<string>(req.countries.length ? req.countries : EU_MEMBER_STATES);
  const rates = ratesInForce(snap, countries).map((s): Omit<RateInForce, '$typeName'> => ({ country: s.country, region: s.region, rateBps: s.rateBps, rateType: s.rateType, validFrom: s.validFrom, validTo: s.validTo ?? undefined }));
  return create(ListRatesInForceResponseSchema, { rates, dataReleaseDigest: snap.release.digest });
}
