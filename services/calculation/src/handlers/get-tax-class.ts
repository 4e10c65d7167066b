import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { GetTaxClassResponseSchema, type GetTaxClassRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { notFound } from '@vat/platform/rpc-errors';
import { EU_MEMBER_STATES } from '@vat/platform/countries';
import type { CalculationDeps } from '../context';
import { checkCountry, resolveAt, shown } from '../domain/reference-inputs';
import { rateMessage, taxClassMessage } from '../messages';
import type { RateWindow } from '../repositories/rate-releases';

/** One class with the windows in force at `at` (one country or all 27). */
export async function getTaxClass(deps: CalculationDeps, req: GetTaxClassRequest, _ctx: HandlerContext) {
  checkCountry(req.country);
  const at = resolveAt(req.at, deps.now());
  const snap = await deps.rates.current();
  const c = snap.classById.get(req.id);
  if (!c) throw notFound('tax_class_not_found', `No tax class "${shown(req.id)}".`);
  const countries = req.country ? [req.country] : [...EU_MEMBER_STATES];
  const windows = countries.map((cc) => snap.windowAt(cc, c.id, at)).filter((w): w is RateWindow => w !== undefined);
  return create(GetTaxClassResponseSchema, { taxClass: taxClassMessage(c, { rates: windows.map(rateMessage) }) });
}
