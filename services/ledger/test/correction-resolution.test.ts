import { ConnectError } from '@connectrpc/connect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBinary } from '@bufbuild/protobuf';
import { ClassificationDecidedSchema } from '@vat/gen/vat/ledger/v1/events_pb';
import { SupplyLedgerService, type ProposedClassificationDecision } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import type { SupplyEventInput } from '@vat/gen/vat/ledger/v1/resources_pb';
import { reasonOf } from '@vat/platform/rpc-errors';
import { requireBackends } from '../../../test/support/env';
import { startServiceHarness, type ServiceHarness } from '../../../test/support/service-harness';
import type { LedgerDeps } from '../src/context';

const backends = await requireBackends(['postgres']);

const event = (id: string, over: Partial<SupplyEventInput> = {}): Partial<SupplyEventInput> => ({
  eventId: id,
  eventType: 'sale',
  occurredAt: '2022-05-10',
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
  productReference: 'sku-r',
  integrationId: '7',
  orderReference: `order-${id}`,
  ...over,
});

describe.skipIf(!backends.ok)('resolving correction-review entries in the ledger (PostgreSQL)', () => {
  let h: ServiceHarness<LedgerDeps>;
  let client: ReturnType<typeof clientOf>;
  const clientOf = (x: ServiceHarness<LedgerDeps>) => x.client(SupplyLedgerService);
  const as = (apiKeyId = 5n) => h.as({ accountId: 51n, apiKeyId });
  const events = async () => new Map((await client.listProductSupplyEvents({ integrationId: 7n, productReference: 'sku-r' }, as())).items.map((i) => [i.eventId, i]));
  const propose = (id: string, taxClassId: string, expected?: string): Partial<ProposedClassificationDecision> => ({ supplyEventId: id, expectedLatestDecisionId: expected, classificationStatus: 'classified', taxClassId, source: 'assignment', assignmentId: '01900000-0000-7000-8000-000000000001', assignmentRevision: 3, ruleId: `DE-${taxClassId}` });
  const append = (decisions: Partial<ProposedClassificationDecision>[]) => client.appendClassificationDecisions({ integrationId: 7n, productReference: 'sku-r', decisions: decisions as ProposedClassificationDecision[] }, as());
  const entriesOf = async (eventId: string) => (await client.listClassificationCorrections({}, as())).items.filter((i) => i.eventId === eventId);
  const resolve = (id: string, action: string, note: string, apiKeyId?: bigint) => client.resolveClassificationCorrection({ id, action, note }, as(apiKeyId));
  const refusal = (p: Promise<unknown>) => p.then(() => 'resolved', (e: unknown) => reasonOf(ConnectError.from(e)));
  // A person's earlier decision, as a decision of the version before decisions were published (nothing else creates one yet).
  const handManual = async (supplyEventId: string) =>
    (await h.deps.pool.query(`insert into ledger.classification_decision (id, account_id, supply_event_id, supersedes, classification_status, tax_class_id, source, decided_at) values (gen_random_uuid(), 51, $1, null, 'classified', 'standard', 'manual', now()) returning id`, [supplyEventId])).rows[0].id as string;

  beforeAll(async () => {
    // the ledger checks an event's tax_class_id against calculation's classes (by RPC)
    h = await startServiceHarness<LedgerDeps>('ledger');
    client = clientOf(h);
    const big = Array.from({ length: 501 }, (_, i) => event(`big-${i}`, { orderReference: 'order-big', productReference: i < 2 ? 'sku-r' : 'sku-filler' }));
    await client.commitSupplyEvents({ events: big as SupplyEventInput[] }, as());
    await client.commitSupplyEvents({ events: [event('s1'), event('s3'), event('q1', { occurredAt: '2021-02-01' }), event('q1b', { occurredAt: '2021-03-01' })] as SupplyEventInput[] }, as());
  });
  afterAll(async () => h?.close());

  it('apply of an oversized order applies every open entry of the order in one transaction, as manual decisions published through the outbox', async () => {
    const ev = await events();
    const before = (await client.getLedgerHead({}, as())).decisionCount;
    expect(await append([propose(ev.get('big-0')!.id, 'food'), propose(ev.get('big-1')!.id, 'food')])).toMatchObject({ routedToCorrectionReview: 2, appended: 0 });
    const [e0] = await entriesOf('big-0');
    const [e1] = await entriesOf('big-1');
    expect([e0!.status, e1!.status, e0!.reason]).toEqual(['open', 'open', 'order_too_large']);
    const r = await resolve(e0!.id, 'apply', 'Checked against the CN code: food.');
    expect(r.resolvedWith).toEqual([e1!.id]);
    expect(r.correction).toMatchObject({ id: e0!.id, status: 'applied', resolution: { action: 'apply', note: 'Checked against the CN code: food.', resolvedByApiKeyId: 5n } });
    const after = await events();
    expect(['big-0', 'big-1'].map((k) => `${after.get(k)!.taxClassId}:${after.get(k)!.latestDecisionSource}`)).toEqual(['food:manual', 'food:manual']);
    expect(after.get('big-0')!.latestDecisionId).toBe(r.correction!.resolution!.decisionId);
    expect((await client.getLedgerHead({}, as())).decisionCount).toBe(before + 2n);
    const published = (await h.deps.pool.query(`select o.payload from ledger.outbox o where o.id = $1`, [r.correction!.resolution!.decisionId])).rows[0];
    expect(fromBinary(ClassificationDecidedSchema, published.payload)).toMatchObject({ source: 'manual', taxClassId: 'food', generation: 1, accountId: 51n });
    // The sibling shows the same resolution; a retry of either with the same action and note answers it again.
    const sibling = (await entriesOf('big-1'))[0]!;
    expect(sibling).toMatchObject({ status: 'applied', resolution: { action: 'apply', note: 'Checked against the CN code: food.' } });
    const retry = await resolve(e0!.id, 'apply', 'Checked against the CN code: food.', 6n);
    expect(retry.correction!.resolution).toEqual(r.correction!.resolution);
    expect(retry.resolvedWith).toEqual([]);
    expect((await resolve(e1!.id, 'apply', 'Checked against the CN code: food.')).correction!.status).toBe('applied');
    expect((await client.getLedgerHead({}, as())).decisionCount).toBe(before + 2n);
    expect(await refusal(resolve(e0!.id, 'apply', 'another note'))).toBe('correction_already_resolved');
    expect(await refusal(resolve(e0!.id, 'dismiss', 'Checked against the CN code: food.'))).toBe('correction_already_resolved');
  });

  it('a manual decision protects its event: later reprocessing goes to review again; a proposal computed against an older decision is stale (dismiss only)', async () => {
    const s1 = (await events()).get('s1')!;
    const m1 = await handManual(s1.id);
    expect(await append([propose(s1.id, 'food', m1), propose(s1.id, 'reduced', m1)].slice(0, 1))).toMatchObject({ routedToCorrectionReview: 1 });
    expect(await append([propose(s1.id, 'reduced', m1)])).toMatchObject({ routedToCorrectionReview: 1 });
    const [food, reduced] = await entriesOf('s1');
    expect([food!.reason, JSON.parse(food!.proposedJson).supersedes, JSON.parse(reduced!.proposedJson).tax_class_id]).toEqual(['manual_decision', m1, 'reduced']);
    const applied = await resolve(food!.id, 'apply', 'food it is');
    expect(applied.resolvedWith).toEqual([]);
    const now = (await events()).get('s1')!;
    expect([now.taxClassId, now.latestDecisionSource, now.latestDecisionId]).toEqual(['food', 'manual', applied.correction!.resolution!.decisionId]);
    // Computed against m1, which is no longer in effect.
    expect(await refusal(resolve(reduced!.id, 'apply', 'reduced'))).toBe('correction_stale');
    expect((await entriesOf('s1')).find((e) => e.id === reduced!.id)!.status).toBe('open');
    expect((await resolve(reduced!.id, 'dismiss', 'superseded by the food decision')).correction).toMatchObject({ status: 'dismissed', resolution: { action: 'dismiss' } });
    expect((await resolve(reduced!.id, 'dismiss', 'superseded by the food decision')).correction!.resolution!.decisionId).toBeUndefined();
    // Automatic reprocessing against the manual decision in effect: routed, not applied.
    expect(await append([propose(s1.id, 'standard', now.latestDecisionId)])).toMatchObject({ appended: 0, routedToCorrectionReview: 1 });
    expect((await events()).get('s1')!.taxClassId).toBe('food');
    expect((await client.listClassificationCorrections({ supplyEventId: s1.id, status: 'open' }, as())).items.map((i) => [i.reason, JSON.parse(i.proposedJson).tax_class_id])).toEqual([['manual_decision', 'standard']]);
  });

  it('an entry of a locked Union OSS quarter can only be dismissed', async () => {
    const ev = await events();
    await client.fenceReturnPeriod({ periodKey: '2021-Q1' }, as());
    expect(await append([propose(ev.get('q1')!.id, 'food'), propose(ev.get('q1b')!.id, 'food')])).toMatchObject({ routedToCorrectionReview: 2 });
    const [q1] = await entriesOf('q1');
    expect(q1!.reason).toBe('union_oss_period_locked');
    expect(await refusal(resolve(q1!.id, 'apply', 'try'))).toBe('period_locked');
    expect((await events()).get('q1')!.latestDecisionId).toBeUndefined();
    const note = 'Corrected in the 2021-Q3 return; see ticket 12.';
    expect((await resolve(q1!.id, 'dismiss', note)).correction).toMatchObject({ status: 'dismissed', resolution: { note } });
  });

  it('concurrent resolves store one resolution', async () => {
    const [q1b] = await entriesOf('q1b');
    const same = await Promise.all(Array.from({ length: 5 }, () => resolve(q1b!.id, 'dismiss', 'one')));
    expect(new Set(same.map((r) => r.correction!.resolution!.resolvedAt)).size).toBe(1);
    const s3 = (await events()).get('s3')!;
    const m = await handManual(s3.id);
    await append([propose(s3.id, 'food', m)]);
    const [entry] = await entriesOf('s3');
    const outcomes = await Promise.all([refusal(resolve(entry!.id, 'apply', 'a')), refusal(resolve(entry!.id, 'dismiss', 'b')), refusal(resolve(entry!.id, 'apply', 'a'))]);
    const rows = (await h.deps.pool.query(`select action from ledger.classification_correction_resolution where correction_id = $1`, [entry!.id])).rows;
    expect(rows).toHaveLength(1);
    const chain = (await h.deps.pool.query(`select count(*)::int as n from ledger.classification_decision where supply_event_id = $1`, [s3.id])).rows[0].n;
    if (rows[0].action === 'apply') {
      expect([...outcomes].sort()).toEqual(['correction_already_resolved', 'resolved', 'resolved']);
      expect(chain).toBe(2);
    } else {
      expect(outcomes).toEqual(['correction_already_resolved', 'resolved', 'correction_already_resolved']);
      expect(chain).toBe(1);
    }
  });

  it('refuses bad input, and other accounts\' and unknown entries alike; resolutions are append-only', async () => {
    const [open] = (await client.listClassificationCorrections({ status: 'open' }, as())).items;
    const id = open!.id;
    for (const [action, note, code] of [['fix', 'x', 'invalid_action'], ['', 'x', 'invalid_action'], ['apply', '', 'invalid_note'], ['apply', '   ', 'invalid_note'], ['dismiss', 'x'.repeat(1001), 'invalid_note'], ['dismiss', 'bell\u0007', 'invalid_note'], ['dismiss', 'nul\u0000', 'invalid_note'], ['dismiss', 'line\nbreak', 'invalid_note'], ['dismiss', 'next line\u0085', 'invalid_note'], ['dismiss', 'csi\u009b', 'invalid_note'], ['dismiss', '\u0080', 'invalid_note']] as const) {
      expect(await refusal(resolve(id, action, note)), `${action}/${note.slice(0, 10)}`).toBe(code);
    }
    expect(await refusal(client.resolveClassificationCorrection({ id, action: 'dismiss', note: 'x' }, h.as({ accountId: 52n })))).toBe('correction_not_found');
    expect(await refusal(resolve('01900000-0000-7000-8000-0000000000ff', 'dismiss', 'x'))).toBe('correction_not_found');
    expect(await refusal(resolve('not-a-uuid', 'dismiss', 'x'))).toBe('correction_not_found');
    expect((await entriesOf(open!.eventId)).find((e) => e.id === id)!.status).toBe('open');
    // 1,000 characters (code points) is the limit.
    expect((await resolve(id.toUpperCase(), 'dismiss', 'é'.repeat(1000))).correction!.resolution!.note).toHaveLength(1000);
    const statuses = (await client.listClassificationCorrections({}, as())).items.map((i) => i.status);
    for (const status of ['open', 'applied', 'dismissed']) {
      expect((await client.listClassificationCorrections({ status }, as())).items).toHaveLength(statuses.filter((s) => s === status).length);
    }
    expect(statuses.filter((s) => s === 'applied').length).toBeGreaterThanOrEqual(3);
    expect(await refusal(client.listClassificationCorrections({ status: 'closed' }, as()))).toBe('invalid_status');
    await expect(h.deps.pool.query(`update ledger.classification_correction_resolution set note = 'x'`)).rejects.toThrow(/append-only/);
    await expect(h.deps.pool.query(`delete from ledger.classification_correction_resolution`)).rejects.toThrow(/append-only/);
  });
});
