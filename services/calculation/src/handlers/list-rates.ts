import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ListRatesResponseSchema, type ListRatesRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { invalidArgument, notFound } from '@vat/platform/rpc-errors';
import type { CalculationDeps } from '../context';
import { checkCountry, resolveAt, shown } from '../domain/reference-inputs';
import { rateMessage } from '../messages';
import type { RateWindow } from '../repositories/rate-releases';

/** A country's windows at `at`, or one class's full dated history in that country. */
export async function listRates(deps: CalculationDeps, req: ListRatesRequest, _ctx: HandlerContext) {
  if (!req.country) throw invalidArgument('invalid_country', '`country` is required.');
  checkCountry(req.country);
  const snap = await deps.rates.current();
  if (req.taxClassId !== undefined && !snap.classById.has(req.taxClassId)) throw notFound('tax_class_not_found', `No tax class "${shown(req.taxClassId)}".`);
  if (req.history && req.taxClassId === undefined) throw invalidArgument('history_requires_tax_class', '`history=true` needs a `tax_class_id`.');
  if (req.history && req.at !== undefined) throw invalidArgument('invalid_at', '`at` and `history=true` cannot be combined.');
  if (req.history) {
    const windows = snap.history(req.country, req.taxClassId!);
    return create(ListRatesResponseSchema, { country: req.country, rates: windows.map(rateMessage), dataReleaseDigest: snap.release.digest });
  }
  const at = resolveAt(req.at, deps.now());
  const classIds = req.taxClassId ? [req.taxClassId] : snap.classes.map((c) => c.id);
  const windows = classIds.map((id) => snap.windowAt(req.country, id, at)).filter((w): w is RateWindow => w !== undefined);
  return create(ListRatesResponseSchema, { country: req.country, at, rates: windows.map(rateMessage), dataReleaseDigest: snap.release.digest });
}
