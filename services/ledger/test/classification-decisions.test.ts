import { ConnectError } from '@connectrpc/connect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SupplyLedgerService, type ProposedClassificationDecision } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import type { SupplyEventInput } from '@vat/gen/vat/ledger/v1/resources_pb';
import { reasonOf } from '@vat/platform/rpc-errors';
import { requireBackends } from '../../../test/support/env';
import { startServiceHarness, type ServiceHarness } from '../../../test/support/service-harness';
import type { LedgerDeps } from '../src/context';

const backends = await requireBackends(['postgres']);

const event = (n: number, over: Partial<SupplyEventInput> = {}): Partial<SupplyEventInput> => ({
  eventId: `ev-${n}`,
  eventType: 'sale',
  occurredAt: '2022-03-10',
  supplyKind: 'goods',
  customerType: 'b2c',
  countryOfConsumption: 'DE',
  currency: 'EUR',
  netAmountMinor: 1000n,
  vatAmountMinor: 190n,
  vatRateBps: 1900n,
  rateCategory: 'standard',
  classificationStatus: 'classified',
  taxClassId: 'standard',
  productReference: 'sku-beef',
  integrationId: '7',
  orderReference: `order-${n}`,
  ...over,
});

describe.skipIf(!backends.ok)('successor classification decisions in the ledger (PostgreSQL)', () => {
  let h: ServiceHarness<LedgerDeps>;
  let client: ReturnType<typeof clientOf>;
  const clientOf = (x: ServiceHarness<LedgerDeps>) => x.client(SupplyLedgerService);
  const as = () => h.as({ accountId: 41n });
  const list = async () => (await client.listProductSupplyEvents({ integrationId: 7n, productReference: 'sku-beef' }, as())).items;
  const food = (id: string, expected?: string): Partial<ProposedClassificationDecision> => ({ supplyEventId: id, expectedLatestDecisionId: expected, classificationStatus: 'classified', taxClassId: 'food', source: 'assignment', assignmentId: '01900000-0000-7000-8000-000000000001', assignmentRevision: 2, ruleId: 'DE-CN-02-food' });
  const append = (decisions: Partial<ProposedClassificationDecision>[]) => client.appendClassificationDecisions({ integrationId: 7n, productReference: 'sku-beef', decisions: decisions as ProposedClassificationDecision[] }, as());

  beforeAll(async () => {
    h = await startServiceHarness<LedgerDeps>('ledger');
    client = clientOf(h);
    await client.commitSupplyEvents({ events: [event(1), event(2), event(3, { orderReference: 'order-2' }), event(4, { productReference: 'sku-other' }), event(5, { orderReference: undefined })] as SupplyEventInput[] }, as());
    await client.commitSupplyEvents({ events: [event(1, { integrationId: '7' })] as SupplyEventInput[] }, h.as({ accountId: 42n }));
  });
  afterAll(async () => h?.close());

  it('lists only the product\'s events of the integration and account, with the classification in effect', async () => {
    const items = await list();
    expect(items.map((i) => i.eventId).sort()).toEqual(['ev-1', 'ev-2', 'ev-3', 'ev-5']);
    expect(items[0]).toMatchObject({ occurredOn: '2022-03-10', countryOfConsumption: 'DE', classificationStatus: 'classified', taxClassId: 'standard', originalTaxClassId: 'standard' });
    expect(items[0]!.latestDecisionId).toBeUndefined();
  });

  it('appends successor decisions per order, never editing the event, and is a no-op when repeated', async () => {
    const items = await list();
    const r = await append(items.map((i) => food(i.id)));
    expect(r).toMatchObject({ appended: 4, unchanged: 0, stale: 0, routedToCorrectionReview: 0 });
    const after = await list();
    expect(after.every((i) => i.taxClassId === 'food' && i.originalTaxClassId === 'standard' && i.latestDecisionSource === 'assignment')).toBe(true);
    const again = await append(after.map((i) => food(i.id, i.latestDecisionId)));
    expect(again).toMatchObject({ appended: 0, unchanged: 4 });
    const stored = await h.deps.pool.query(`select tax_class_id from ledger.supply_event where account_id = 41 and product_reference = 'sku-beef'`);
    expect(stored.rows.every((row) => row.tax_class_id === 'standard')).toBe(true);
  });

  it('refuses stale proposals for a whole order (the chain moved on) and restores the original facts', async () => {
    const items = await list();
    const order2 = items.filter((i) => i.orderReference === 'order-2');
    expect(order2).toHaveLength(2);
    // One proposal computed against no decision: the whole order stays unchanged.
    const stale = await append([{ ...food(order2[0]!.id, order2[0]!.latestDecisionId), taxClassId: 'standard', ruleId: 'x' }, { ...food(order2[1]!.id), taxClassId: 'standard', ruleId: 'x' }]);
    expect(stale).toMatchObject({ appended: 0, stale: 2 });
    expect((await list()).filter((i) => i.orderReference === 'order-2').every((i) => i.taxClassId === 'food')).toBe(true);
    const restored = await append(order2.map((i) => ({ supplyEventId: i.id, expectedLatestDecisionId: i.latestDecisionId, classificationStatus: i.originalClassificationStatus, taxClassId: i.originalTaxClassId, source: 'restored', reason: 'assignment_archived' })));
    expect(restored).toMatchObject({ appended: 2 });
    expect((await list()).filter((i) => i.orderReference === 'order-2').map((i) => `${i.taxClassId}:${i.latestDecisionSource}`)).toEqual(['standard:restored', 'standard:restored']);
  });

  it('routes manually decided events and oversized orders to correction review, unchanged', async () => {
    const ev1 = (await list()).find((i) => i.eventId === 'ev-1')!;
    await h.deps.pool.query(
      `insert into ledger.classification_decision (id, account_id, supply_event_id, supersedes, classification_status, tax_class_id, source, decided_at) values (gen_random_uuid(), 41, $1, $2, 'classified', 'food', 'manual', now())`,
      [ev1.id, ev1.latestDecisionId],
    );
    const manual = (await list()).find((i) => i.eventId === 'ev-1')!;
    expect(await append([{ ...food(manual.id, manual.latestDecisionId), taxClassId: 'standard' }])).toMatchObject({ appended: 0, routedToCorrectionReview: 1 });
    const big = Array.from({ length: 501 }, (_, i) => event(1000 + i, { orderReference: 'order-big', productReference: i === 0 ? 'sku-beef' : 'sku-filler' }));
    await client.commitSupplyEvents({ events: big.slice(0, 1000) as SupplyEventInput[] }, as());
    const bigEvent = (await list()).find((i) => i.orderReference === 'order-big')!;
    expect(await append([food(bigEvent.id)])).toMatchObject({ appended: 0, routedToCorrectionReview: 1 });
    const review = await h.deps.pool.query(`select reason, order_reference from ledger.classification_correction where account_id = 41 order by reason`);
    expect(review.rows).toEqual([{ reason: 'manual_decision', order_reference: 'order-1' }, { reason: 'order_too_large', order_reference: 'order-big' }]);
    // Repeating the same proposals does not repeat the review entries.
    await append([food(bigEvent.id)]);
    expect((await h.deps.pool.query(`select count(*)::int as n from ledger.classification_correction`)).rows[0].n).toBe(2);
  });

  it('keeps decisions append-only and refuses events of other products or accounts', async () => {
    await expect(h.deps.pool.query(`update ledger.classification_decision set tax_class_id = 'x'`)).rejects.toThrow(/append-only/);
    await expect(h.deps.pool.query(`delete from ledger.classification_decision`)).rejects.toThrow(/append-only/);
    const other = (await h.deps.pool.query(`select id from ledger.supply_event where account_id = 42`)).rows[0].id as string;
    const err = await append([food(other)]).catch((e: unknown) => ConnectError.from(e));
    expect(reasonOf(err as ConnectError)).toBe('supply_event_not_found');
    const bad = await append([{ ...food((await list())[0]!.id), classificationStatus: 'great' }]).catch((e: unknown) => ConnectError.from(e));
    expect(reasonOf(bad as ConnectError)).toBe('invalid_decision');
  });
});
