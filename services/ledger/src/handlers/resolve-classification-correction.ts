import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ResolveClassificationCorrectionResponseSchema, type ResolveClassificationCorrectionRequest } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import { hasControlCharacter } from '@vat/platform/control-characters';
import { isUuid } from '@vat/platform/http-inputs';
import { callerOf } from '@vat/platform/principal';
import { aborted, invalidArgument, notFound } from '@vat/platform/rpc-errors';
import type { LedgerDeps } from '../context';
import { decidedEvent } from './append-classification-decisions';
import { correctionMessage } from './list-classification-corrections';

const ACTIONS = ['apply', 'dismiss'] as const;
const MAX_NOTE = 1000;

const REFUSALS = {
  stale: () => aborted('correction_stale', 'The decision in effect for an event of this entry is no longer the one the proposal was computed against; it was not applied.'),
  period_locked: () => aborted('period_locked', 'An event of this entry is in a locked or filed Union OSS quarter: only dismiss is allowed (correct it in a later return).'),
  already_resolved: () => aborted('correction_already_resolved', 'This entry was already resolved with another action or note.'),
  not_found: () => notFound('correction_not_found', 'No correction-review entry of this account has this id.'),
};

/**
 * Resolves a correction-review entry: `apply` appends its proposal (with the open entries routed with it for
 * the same order) as `manual` decisions, `dismiss` closes it; an identical retry answers the stored resolution.
 */
export async function resolveClassificationCorrection(deps: LedgerDeps, req: ResolveClassificationCorrectionRequest, ctx: HandlerContext) {
  const { accountId, apiKeyId } = callerOf(ctx);
  if (!(ACTIONS as readonly string[]).includes(req.action)) throw invalidArgument('invalid_action', 'action must be apply or dismiss.');
  const length = [...req.note].length;
  if (length < 1 || length > MAX_NOTE || req.note.trim() === '' || hasControlCharacter(req.note)) throw invalidArgument('invalid_note', `note is required: 1 to ${MAX_NOTE} characters, not only spaces, without control characters.`);
  if (!isUuid(req.id)) throw REFUSALS.not_found();
  const id = req.id.toLowerCase();
  const outcome = await deps.corrections.resolve(accountId, { id, action: req.action as (typeof ACTIONS)[number], note: req.note, apiKeyId }, deps.now(), decidedEvent);
  if (outcome.kind !== 'resolved' && outcome.kind !== 'replayed') throw REFUSALS[outcome.kind]();
  if (outcome.kind === 'resolved' && req.action === 'apply') deps.relay.kick();
  const [entry] = await deps.corrections.list(accountId, { id }, undefined, 1);
  return create(ResolveClassificationCorrectionResponseSchema, { correction: correctionMessage(entry!), resolvedWith: outcome.kind === 'resolved' ? outcome.ids.slice(1) : [] });
}
