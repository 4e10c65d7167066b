import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { UpdateSourceResponseSchema, type UpdateSourceRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { isRowId } from '@vat/platform/http-inputs';
import { callerOf } from '@vat/platform/principal';
import { Code, invalidArgument, notFound, rpcError } from '@vat/platform/rpc-errors';
import type { CalculationDeps } from '../context';
import { MAX_ACTIVE_PROFILES, profileChanges } from '../domain/source-profile-rules';
import { sourceProfileMessage } from '../messages';

const notFoundError = () => notFound('source_not_found', 'No such source profile.');

/** Updates labels, channel metadata or archive state; a malformed or foreign id is simply not found. */
export async function updateSource(deps: CalculationDeps, req: UpdateSourceRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  if (!isRowId(req.id)) throw notFoundError();
  if (req.sourceKey !== undefined) throw invalidArgument('source_key_immutable', 'source_key cannot change; create a new profile instead.');
  const changes = profileChanges(req);
  const now = deps.now();
  const profile = await deps.sourceProfiles.withAccountLock(accountId, now, async (profiles) => {
    const p = await profiles.find(BigInt(req.id));
    if (!p) throw notFoundError();
    if (changes.active === true && !p.active && (await profiles.activeCount()) >= MAX_ACTIVE_PROFILES) {
      throw rpcError(Code.FailedPrecondition, 'active_profile_limit_reached', `An account has at most ${MAX_ACTIVE_PROFILES} active source profiles; archive one first.`);
    }
    return profiles.update(p.id, changes, now);
  });
  // Answers once its SourceProfileChanged is on the bus (in one process: applied by thresholds), so a status read next sees it.
  await deps.relay.flush();
  return create(UpdateSourceResponseSchema, { source: sourceProfileMessage(profile) });
}
