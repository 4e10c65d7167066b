import type { ClassificationCorrection } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import type { Clients } from '@vat/platform/clients';
import { num, opt } from '../json';
import type { RouteDef } from '../route';
import { CLASSIFICATION_WRITE_SCOPES } from './product-code-assignments';
import { dateTime, enumOf, integer, nullable, object, openObject, page, string } from '../openapi/shapes';
import { body, intOf, intParam, query, str } from './schemas';

const CORRECTION_PROPS = {
  id: string,
  supply_event_id: string,
  event_id: string,
  order_reference: nullable(string),
  product_reference: nullable(string),
  integration_id: nullable(integer),
  occurred_at: dateTime,
  reason: enumOf(['union_oss_period_locked', 'order_too_large', 'manual_decision']),
  proposed: openObject('the classification the reprocessing proposed (as the ledger recorded it)'),
  created_at: dateTime,
  status: enumOf(['open', 'applied', 'dismissed']),
  resolution: nullable(object({ action: enumOf(['apply', 'dismiss']), note: string, resolved_at: dateTime, resolved_by_api_key_id: integer, decision_id: nullable(string) })),
};

/** The correction-review list: reclassifications the ledger did not apply, listed and resolved. */
export function correctionReviewRoutes(clients: Clients): RouteDef[] {
  return [
    {
      method: 'GET',
      url: '/v1/classification/correction-reviews',
      access: { scopes: ['classification-write', 'full', 'read-only'] },
      limiter: 'classification',
      summary: 'The correction-review list: reclassifications the ledger did not apply (locked or filed Union OSS quarter, oversized order, manual decision), oldest first (keyset cursor)',
      tags: ['classification'],
      schema: {
        querystring: query({
          reason: str('invalid_reason', { enum: ['union_oss_period_locked', 'order_too_large', 'manual_decision'] }),
          product_reference: str('invalid_product_reference', { maxLength: 200 }),
          order_reference: str('invalid_order_reference', { maxLength: 200 }),
          supply_event_id: str('invalid_supply_event_id', { description: 'the ledger id (UUID) of a supply event' }),
          status: str('invalid_status', { enum: ['open', 'applied', 'dismissed'] }),
          cursor: str('invalid_cursor'),
          limit: { ...intParam('invalid_limit'), description: '1-200, default 50' },
        }),
      },
      responses: { 200: page(object(CORRECTION_PROPS)) },
      errors: { 400: ['invalid_reason', 'invalid_status', 'invalid_product_reference', 'invalid_order_reference', 'invalid_supply_event_id', 'invalid_cursor', 'invalid_limit'] },
      handler: async ({ req, call }) => {
        const q = req.query as Record<string, string | undefined>;
        const r = await clients.ledger.listClassificationCorrections(
          { reason: q.reason, status: q.status, productReference: q.product_reference, orderReference: q.order_reference, supplyEventId: q.supply_event_id, cursor: q.cursor, limit: intOf(q.limit) },
          call,
        );
        return {
          items: r.items.map(correctionJson),
          next_cursor: opt(r.nextCursor),
        };
      },
    },
    {
      method: 'POST',
      url: '/v1/classification/correction-reviews/:id/resolve',
      access: { scopes: CLASSIFICATION_WRITE_SCOPES },
      limiter: 'classification',
      summary: 'Resolve a correction-review entry: apply (its proposal, with the open entries routed with it for the same order, becomes a manual decision) or dismiss; an identical retry answers the stored resolution',
      tags: ['classification'],
      schema: {
        params: { type: 'object', properties: { id: { type: 'string', description: 'the entry id (UUID)' } }, required: ['id'] },
        body: body(
          { action: str('invalid_action', { enum: ['apply', 'dismiss'] }), note: str('invalid_note', { minLength: 1, maxLength: 1000, description: 'required, 1-1000 characters, not only spaces, no control characters' }) },
          ['action', 'note'],
        ),
      },
      responses: { 200: object({ ...CORRECTION_PROPS, resolved_with: { type: 'array', items: string } }) },
      errors: { 400: ['invalid_action', 'invalid_note'], 404: ['correction_not_found'], 409: ['correction_already_resolved', 'correction_stale', 'period_locked'] },
      handler: async ({ req, call }) => {
        const b = req.body as { action: string; note: string };
        const r = await clients.ledger.resolveClassificationCorrection({ id: (req.params as { id: string }).id, action: b.action, note: b.note }, call);
        return { ...correctionJson(r.correction!), resolved_with: r.resolvedWith };
      },
    },
  ];
}

/** The REST form of a correction-review entry with its status and resolution. */
function correctionJson(c: ClassificationCorrection) {
  const s = c.resolution;
  return {
    id: c.id,
    supply_event_id: c.supplyEventId,
    event_id: c.eventId,
    order_reference: opt(c.orderReference),
    product_reference: opt(c.productReference),
    integration_id: c.integrationId === undefined ? null : num(c.integrationId),
    occurred_at: c.occurredAt,
    reason: c.reason,
    proposed: JSON.parse(c.proposedJson) as unknown,
    created_at: c.createdAt,
    status: c.status,
    resolution: s === undefined ? null : { action: s.action, note: s.note, resolved_at: s.resolvedAt, resolved_by_api_key_id: num(s.resolvedByApiKeyId), decision_id: opt(s.decisionId) },
  };
}
