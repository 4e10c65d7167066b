import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { CreateSourceResponseSchema, type CreateSourceRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { isValidSourceId } from '@vat/platform/http-inputs';
import { callerOf } from '@vat/platform/principal';
import { Code, invalidArgument, rpcError } from '@vat/platform/rpc-errors';
import type { CalculationDeps } from '../context';
import { checkChannel, checkDisplayName, MAX_ACTIVE_PROFILES, MAX_STORED_PROFILES, profileChanges } from '../domain/source-profile-rules';
import { sourceProfileMessage } from '../messages';

/** Creates a profile under the account's lock, so the active (100) and stored (500) caps hold under races. */
export async function createSource(deps: CalculationDeps, req: CreateSourceRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  if (!isValidSourceId(req.sourceKey)) throw invalidArgument('invalid_source_key', 'source_key must be 1 to 100 letters, digits, _, - or /.');
  checkDisplayName(req.displayName);
  checkChannel(req.channelType);
  const changes = profileChanges(req);
  const active = req.active ?? true;
  const now = deps.now();
  const profile = await deps.sourceProfiles.withAccountLock(accountId, now, async (profiles) => {
    const existing = await profiles.keys();
    if (existing.some((p) => p.sourceKey === req.sourceKey)) throw rpcError(Code.AlreadyExists, 'source_key_exists', `A source profile for "${req.sourceKey}" already exists.`);
    if (existing.length >= MAX_STORED_PROFILES) throw rpcError(Code.FailedPrecondition, 'stored_profile_limit_reached', `An account keeps at most ${MAX_STORED_PROFILES} source profiles, archived ones included.`);
    if (active && existing.filter((p) => p.active).length >= MAX_ACTIVE_PROFILES) throw rpcError(Code.FailedPrecondition, 'active_profile_limit_reached', `An account has at most ${MAX_ACTIVE_PROFILES} active source profiles; archive one first.`);
    return profiles.create({ ...changes, sourceKey: req.sourceKey, displayName: req.displayName, channelType: req.channelType, active }, now);
  });
  // Answers once its SourceProfileChanged is on the bus (in one process: applied by thresholds), so a status read next sees it.
  await deps.relay.flush();
  return create(CreateSourceResponseSchema, { source: sourceProfileMessage(profile) });
}
