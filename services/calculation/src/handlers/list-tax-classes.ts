import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ListTaxClassesResponseSchema, type ListTaxClassesRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { invalidArgument } from '@vat/platform/rpc-errors';
import type { CalculationDeps } from '../context';
import { checkCountry, resolveAt, shown } from '../domain/reference-inputs';
import { taxClassMessage } from '../messages';
import { servableByV1 } from '../reference/rate-store';

const MAX_Q_LENGTH = 120;

/** The 37 classes, filtered; with `country`, the rate v1 would apply at `at` (null when it would refuse). */
export async function listTaxClasses(deps: CalculationDeps, req: ListTaxClassesRequest, _ctx: HandlerContext) {
  if (req.q !== undefined && req.q.length > MAX_Q_LENGTH) throw invalidArgument('invalid_q', `q must be at most ${MAX_Q_LENGTH} characters.`);
  checkCountry(req.country);
  const at = resolveAt(req.at, deps.now());
  const snap = await deps.rates.current();
  if (req.group !== undefined && !snap.groups().has(req.group)) throw invalidArgument('unknown_group', `Unknown group "${shown(req.group)}".`);
  if (req.tag !== undefined && !snap.tags().has(req.tag)) throw invalidArgument('unknown_tag', `Unknown tag "${shown(req.tag)}".`);
  const q = req.q?.trim().toLowerCase();
  const items = snap.classes
    .filter((c) => !q || c.id.toLowerCase().includes(q) || c.name.toLowerCase().includes(q) || c.description.toLowerCase().includes(q))
    .filter((c) => req.group === undefined || c.groupSlug === req.group)
    .filter((c) => req.tag === undefined || c.tags.includes(req.tag))
    .map((c) => {
      if (req.country === undefined) return taxClassMessage(c);
      const w = snap.windowAt(req.country, c.id, at);
      return taxClassMessage(c, { previewRateBps: w && servableByV1(w) ? w.rateBps : undefined });
    });
  return create(ListTaxClassesResponseSchema, { items });
}
