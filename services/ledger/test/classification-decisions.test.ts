import { ConnectError } from '@connectrpc/connect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SupplyLedgerService, type ProposedClassificationDecision } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import type { SupplyEventInput } from '@vat/gen/vat/ledger/v1/resources_pb';
import { fromBinary } from '@bufbuild/protobuf';
import { ClassificationDecidedSchema } from '@vat/gen/vat/ledger/v1/events_pb';
import { reasonOf } from '@vat/platform/rpc-errors';
import { requireBackends } from '../../../test/support/env';
import { startServiceHarness, type ServiceHarness } from '../../../test/support/service-harness';
import type { LedgerDeps } from '../src/context';
import { decidedEvent } from '../src/handlers/append-classification-decisions';

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
    // the ledger checks an event's tax_class_id against calculation's classes (by RPC)
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

  it('publishes every appended decision through the outbox of its transaction (id = decision id, generation = place in the chain)', async () => {
    const rows = (await h.deps.pool.query(
      `select d.id, d.generation, d.supersedes, o.subject, o.payload from ledger.classification_decision d join ledger.outbox o on o.id = d.id where d.account_id = 41 order by d.decided_at, d.id`,
    )).rows;
    // 4 first decisions + 2 restorations were appended through the RPC (the manual one above was written by hand).
    expect(rows).toHaveLength(6);
    expect(rows.every((r) => r.subject === 'vat.ledger.v1.classification_decided')).toBe(true);
    const decoded = rows.map((r) => ({ row: r, ev: fromBinary(ClassificationDecidedSchema, r.payload) }));
    for (const { row, ev } of decoded) {
      expect(ev.eventId).toBe(row.id);
      expect(ev.accountId).toBe(41n);
      expect(ev.generation).toBe(row.generation);
      expect(ev.supersedes ?? null).toBe(row.supersedes);
    }
    expect(decoded.filter(({ ev }) => ev.source === 'restored').map(({ ev }) => [ev.generation, ev.taxClassId, ev.reason])).toEqual([[2, 'standard', 'assignment_archived'], [2, 'standard', 'assignment_archived']]);
    expect(decoded.filter(({ ev }) => ev.source === 'assignment').every(({ ev }) => ev.generation === 1 && ev.taxClassId === 'food' && ev.ruleId === 'DE-CN-02-food')).toBe(true);
    const head = await client.getLedgerHead({}, as());
    expect(head.decisionCount).toBe(6n);
  });

  it('a fenced (locked) Union OSS quarter sends its events to correction review; imported goods and other quarters are unaffected', async () => {
    await client.commitSupplyEvents({ events: [event(20, { occurredAt: '2022-04-02', orderReference: 'order-q2' }), event(21, { occurredAt: '2022-03-31T23:59:59Z', orderReference: 'order-q2' }), event(22, { supplyKind: 'imported_goods', orderReference: 'order-imp', consignmentReference: 'c-1', intrinsicValueEurMinor: 1000n, thirdCountryOrigin: 'CN', exciseGoods: false, dispatchCountry: undefined }), event(23, { occurredAt: '2022-05-01', orderReference: 'order-q2b' })] as SupplyEventInput[] }, as());
    const before = await client.getLedgerHead({}, as());
    const fence = await client.fenceReturnPeriod({ periodKey: '2022-Q1' }, as());
    // 2022-Q1 events carry 7 decisions: 4 first ones, 2 restorations (order-2) and the manual one on ev-1.
    expect(fence).toMatchObject({ sequence: before.sequence, decisionCount: before.decisionCount, periodDecisionCount: 7n });
    expect((await client.fenceReturnPeriod({ periodKey: '2021-Q4' }, as())).periodDecisionCount).toBe(0n);
    expect(await client.fenceReturnPeriod({ periodKey: '2022-Q1' }, as())).toMatchObject({ sequence: before.sequence, decisionCount: before.decisionCount });
    const items = await list();
    const pick = (id: string) => items.find((i) => i.eventId === id)!;
    // order-q2 holds one event of 2022-Q1 (the last second of March, UTC): the whole order goes to review.
    const r = await append([food(pick('ev-20').id), food(pick('ev-21').id), food(pick('ev-22').id), food(pick('ev-23').id)]);
    expect(r).toMatchObject({ appended: 2, routedToCorrectionReview: 2, stale: 0 });
    const after = await list();
    expect(after.filter((i) => ['ev-20', 'ev-21'].includes(i.eventId)).every((i) => i.latestDecisionId === undefined)).toBe(true);
    expect(after.filter((i) => ['ev-22', 'ev-23'].includes(i.eventId)).every((i) => i.taxClassId === 'food')).toBe(true);
    expect((await client.getLedgerHead({}, as())).decisionCount).toBe(before.decisionCount + 2n);
    const bad = await client.fenceReturnPeriod({ periodKey: '2022-Q5' }, as()).catch((e: unknown) => ConnectError.from(e));
    expect(reasonOf(bad as ConnectError)).toBe('invalid_period');
  });

  it('lists the correction-review list with filters and a cursor, the caller\'s account only', async () => {
    const all = await client.listClassificationCorrections({}, as());
    // In id order (uuidv7: creation order, entries of one millisecond in any order).
    expect(all.items.map((i) => `${i.eventId}:${i.reason}`).sort()).toEqual(['ev-1000:order_too_large', 'ev-1:manual_decision', 'ev-20:union_oss_period_locked', 'ev-21:union_oss_period_locked']);
    expect(all.items.map((i) => i.id)).toEqual(all.items.map((i) => i.id).sort());
    const ev20 = all.items.find((i) => i.eventId === 'ev-20')!;
    expect(ev20).toMatchObject({ orderReference: 'order-q2', productReference: 'sku-beef', integrationId: 7n, occurredAt: '2022-04-02T00:00:00.000Z' });
    expect(JSON.parse(ev20.proposedJson)).toMatchObject({ classification_status: 'classified', tax_class_id: 'food', source: 'assignment', rule_id: 'DE-CN-02-food', supersedes: null });
    const p1 = await client.listClassificationCorrections({ limit: 3 }, as());
    expect(p1.items).toHaveLength(3);
    const p2 = await client.listClassificationCorrections({ limit: 3, cursor: p1.nextCursor }, as());
    expect([...p1.items, ...p2.items].map((i) => i.id)).toEqual(all.items.map((i) => i.id));
    expect(p2.nextCursor).toBeUndefined();
    expect((await client.listClassificationCorrections({ reason: 'union_oss_period_locked', orderReference: 'order-q2' }, as())).items).toHaveLength(2);
    expect((await client.listClassificationCorrections({ supplyEventId: all.items.find((i) => i.eventId === 'ev-1')!.supplyEventId }, as())).items.map((i) => i.reason)).toEqual(['manual_decision']);
    expect((await client.listClassificationCorrections({ productReference: 'sku-none' }, as())).items).toEqual([]);
    expect((await client.listClassificationCorrections({}, h.as({ accountId: 42n }))).items).toEqual([]);
    for (const [req, code] of [[{ limit: 0 }, 'invalid_limit'], [{ limit: 201 }, 'invalid_limit'], [{ cursor: 'x' }, 'invalid_cursor'], [{ reason: 'other' }, 'invalid_reason'], [{ supplyEventId: 'ev-1' }, 'invalid_supply_event_id'], [{ orderReference: '' }, 'invalid_order_reference'], [{ productReference: 'x'.repeat(201) }, 'invalid_product_reference']] as const) {
      const err = await client.listClassificationCorrections(req, as()).catch((e: unknown) => ConnectError.from(e));
      expect(reasonOf(err as ConnectError), JSON.stringify(req)).toBe(code);
    }
  });

  it('a fence taken concurrently with an append is never missed: the decision is either counted by the fence or routed to review', async () => {
    const quarters = ['2023-Q1', '2023-Q2', '2023-Q3', '2023-Q4', '2024-Q1', '2024-Q2', '2024-Q3', '2024-Q4'];
    const months: Record<string, string> = { Q1: '02', Q2: '05', Q3: '08', Q4: '11' };
    await client.commitSupplyEvents({ events: quarters.map((q, i) => event(300 + i, { occurredAt: `${q.slice(0, 4)}-${months[q.slice(5)]}-15`, productReference: 'sku-race', orderReference: `race-${i}` })) as SupplyEventInput[] }, as());
    const items = (await client.listProductSupplyEvents({ integrationId: 7n, productReference: 'sku-race' }, as())).items;
    const outcomes: string[] = [];
    for (const [i, q] of quarters.entries()) {
      const e = items.find((x) => x.eventId === `ev-${300 + i}`)!;
      const [appended, fence] = await Promise.all([
        client.appendClassificationDecisions({ integrationId: 7n, productReference: 'sku-race', decisions: [food(e.id) as ProposedClassificationDecision] }, as()),
        client.fenceReturnPeriod({ periodKey: q }, as()),
      ]);
      const stored = (await h.deps.pool.query(`select count(*)::int as n from ledger.classification_decision where supply_event_id = $1`, [e.id])).rows[0].n;
      // Whatever the interleaving: what the fence counted is all there will ever be for the quarter.
      expect(BigInt(stored)).toBe(fence.periodDecisionCount);
      expect(appended.appended + appended.routedToCorrectionReview).toBe(1);
      expect(appended.appended).toBe(stored);
      outcomes.push(appended.appended ? 'appended' : 'routed');
    }
    // A later append for a fenced quarter is always routed.
    const late = items.find((x) => x.eventId === 'ev-300')!;
    const again = await client.appendClassificationDecisions({ integrationId: 7n, productReference: 'sku-race', decisions: [{ ...food(late.id, (await client.listProductSupplyEvents({ integrationId: 7n, productReference: 'sku-race' }, as())).items.find((x) => x.id === late.id)!.latestDecisionId), taxClassId: 'reduced' } as ProposedClassificationDecision] }, as());
    expect(again).toMatchObject({ appended: 0, routedToCorrectionReview: 1 });
    expect(outcomes).toHaveLength(8);
  });

  it('publishes once, at start, the decisions appended before decisions were published (with their place in the chain)', async () => {
    // The manual decision above was written by hand (no generation, no outbox row), like a decision of the earlier version.
    const before = (await client.getLedgerHead({}, as())).decisionCount;
    expect(await h.deps.decisions.publishUnpublished(new Date(), decidedEvent)).toBe(1);
    expect(await h.deps.decisions.publishUnpublished(new Date(), decidedEvent)).toBe(0);
    expect((await client.getLedgerHead({}, as())).decisionCount).toBe(before + 1n);
    const row = (await h.deps.pool.query(`select o.payload from ledger.classification_decision d join ledger.outbox o on o.id = d.id where d.source = 'manual'`)).rows[0];
    const ev = fromBinary(ClassificationDecidedSchema, row.payload);
    // ev-1's chain: the first assignment decision (1), then the manual one (2).
    expect(ev).toMatchObject({ generation: 2, source: 'manual', taxClassId: 'food', accountId: 41n });
  });
});
