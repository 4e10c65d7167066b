import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ListSourcesResponseSchema, type ListSourcesRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { callerOf } from '@vat/platform/principal';
import type { CalculationDeps } from '../context';
import { MAX_ACTIVE_PROFILES, MAX_STORED_PROFILES } from '../domain/source-profile-rules';
import { sourceProfileMessage } from '../messages';

/** The account's profiles (active first) with the caps and how much of them is used. */
export async function listSources(deps: CalculationDeps, _req: ListSourcesRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  const rows = await deps.sourceProfiles.list(accountId);
  return create(ListSourcesResponseSchema, {
    items: rows.map(sourceProfileMessage),
    activeCount: rows.filter((r) => r.active).length,
    maxProfiles: MAX_ACTIVE_PROFILES,
    storedCount: rows.length,
    maxStoredProfiles: MAX_STORED_PROFILES,
  });
}
