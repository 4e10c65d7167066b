import type { HandlerContext } from '@connectrpc/connect';
import { callerOf } from '@vat/platform/principal';
import { failedPrecondition, notFound } from '@vat/platform/rpc-errors';
import { isUuid } from '@vat/platform/http-inputs';
import { uuidv7 } from '@vat/platform/uuid7';
import type { ClassificationDeps } from '../context';
import { requireRevisionRoom } from '../domain/assignment-rules';
import type { RevisionRecord } from '../repositories/assignments';
import { inTransaction } from '@vat/platform/transaction';

export const assignmentNotFound = () => notFound('assignment_not_found', 'No assignment of this integration has this id.');

/**
 * Appends a validated or archived successor to an assignment's head (never editing a revision): the head
 * must be live (an archived head takes neither), counts against the revision limit, enqueues reprocessing.
 */
export async function appendSuccessor(deps: ClassificationDeps, req: { integrationId: bigint; assignmentId: string }, ctx: HandlerContext, state: 'validated' | 'archived'): Promise<RevisionRecord> {
  const { accountId, apiKeyId } = callerOf(ctx);
  if (!isUuid(req.assignmentId) || req.integrationId <= 0n) throw assignmentNotFound();
  const assignmentId = req.assignmentId.toLowerCase();
  const now = deps.now();
  // Every statement inside goes through the transaction's client: on the embedded database another
  // connection would wait for this transaction's session.
  const successor = await inTransaction(deps.pool, async (db) => {
    await deps.assignments.lockAccount(db, accountId);
    const head = (await deps.assignments.revisions(accountId, req.integrationId, assignmentId, db)).at(-1);
    if (!head) throw assignmentNotFound();
    if (head.state === 'archived') throw failedPrecondition('assignment_archived', 'The assignment is archived; submit the product again to create a new head.');
    if (state === 'validated' && head.state === 'validated') throw failedPrecondition('assignment_already_validated', 'The head revision is validated already.');
    let binding = { catalogEditionId: head.catalogEditionId, catalogDigest: head.catalogDigest };
    if (state === 'validated') {
      const served = await deps.catalogs.servedRevision(head.scheme as 'cn' | 'cpa', head.catalogVersion, db);
      if (!served || !(await deps.catalogs.code(served.id, head.exactCode, db))) {
        throw failedPrecondition('code_not_found', `${head.exactCode} is no longer a code of the approved ${head.scheme.toUpperCase()} ${head.catalogVersion}; submit a corrected code.`);
      }
      binding = { catalogEditionId: served.id, catalogDigest: served.digest };
    }
    requireRevisionRoom(await deps.assignments.revisionCount(db, accountId));
    const next: RevisionRecord = { ...head, ...binding, id: uuidv7(now.getTime()), revision: head.revision + 1, state, apiKeyId, createdAt: now };
    await deps.assignments.insert(db, next);
    await deps.assignments.enqueueReprocessing(db, [next], `assignment_${state}`, now);
    return next;
  });
  deps.relay.kick();
  return successor;
}
