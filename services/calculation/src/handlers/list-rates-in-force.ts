import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ListRatesInForceResponseSchema, type ListRatesInForceRequest, type RateInForce } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { EU_MEMBER_STATES } from '@vat/platform/countries';
import type { CalculationDeps } from '../context';
import { checkCountry } from '../domain/reference-inputs';
import type { RateSnapshot } from '../reference/rate-store';

type Span = { country: string; region?: string; rateBps: number; rateType: string; validFrom: string; validTo: string | null };

const endOf = (d: string | null) => d ?? '9999-12-31';

/** Joins overlapping or adjacent spans of the same (country, region, rate, type) into one. */
function merged(spans: Span[]): Span[] {
  const key = (s: Span) => `${s.country}|${s.region ?? ''}|${s.rateType}|${String(s.rateBps).padStart(5, '0')}`;
  const sorted = [...spans].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.validFrom < b.validFrom ? -1 : a.validFrom > b.validFrom ? 1 : 0));
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out.at(-1);
    if (last && key(last) === key(s) && endOf(last.validTo) >= s.validFrom) {
      if (endOf(s.validTo) > endOf(last.validTo)) last.validTo = s.validTo;
    } else out.push({ ...s });
  }
  return out;
}

/** The rates in force in `countries`, over every class (conditional windows too) plus the regional windows. */
export function ratesInForce(snap: RateSnapshot, countries: ReadonlySet<string>): Span[] {
  const general = snap.windows.filter((w) => countries.has(w.country)).map((w) => ({ country: w.country, rateBps: w.rateBps, rateType: w.rateType, validFrom: w.validFrom, validTo: w.validTo }));
  const regional = snap.regional.filter((w) => countries.has(w.country)).map((w) => ({ country: w.country, region: w.region, rateBps: w.rateBps, rateType: w.rateType, validFrom: w.validFrom, validTo: w.validTo }));
  return merged([...general, ...regional]);
}

/** For the ledger and the reports: which (rate, type) pairs a supply in a country (or region) may carry on a day. */
export async function listRatesInForce(deps: CalculationDeps, req: ListRatesInForceRequest, _ctx: HandlerContext) {
  for (const c of req.countries) checkCountry(c);
  const snap = await deps.rates.current();
  const countries = new Set<string>(req.countries.length ? req.countries : EU_MEMBER_STATES);
  const rates = ratesInForce(snap, countries).map((s): Omit<RateInForce, '$typeName'> => ({ country: s.country, region: s.region, rateBps: s.rateBps, rateType: s.rateType, validFrom: s.validFrom, validTo: s.validTo ?? undefined }));
  return create(ListRatesInForceResponseSchema, { rates, dataReleaseDigest: snap.release.digest });
}
