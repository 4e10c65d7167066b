import { createHash, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { create, toBinary } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SupplyCommittedSchema } from '@vat/gen/vat/ledger/v1/events_pb';
import { SupplyEventSchema } from '@vat/gen/vat/ledger/v1/resources_pb';
import { Code, ConnectError } from '@connectrpc/connect';
import { ThresholdService } from '@vat/gen/vat/thresholds/v1/thresholds_service_pb';
import type { BusMessage } from '@vat/platform/bus';
import { requireBackends } from '../../../test/support/env';
import { startServiceHarness, type ServiceHarness } from '../../../test/support/service-harness';
import { loadShippedRelease } from '../src/article59c/release';
import type { ThresholdsDeps } from '../src/context';
import { thresholdsProjectionConsumer } from '../src/projection';
import { importRelease } from '../src/repositories/releases';
import { summarizeYear } from '../src/article59c/summarize';
import { article59cView } from '../src/article59c/view';

const backends = await requireBackends(['postgres']);

/** A B2C goods sale from DE to FR in EUR (DE threshold EUR 10,000 = 1,000,000 cents). */
function message(accountId: bigint, sequence: number, eventId: string, occurredAt: string, net: bigint, over: Record<string, unknown> = {}): BusMessage {
  const supplyEvent = create(SupplyEventSchema, {
    id: randomUUID(),
    accountId,
    sequence: BigInt(sequence),
    recordedAt: new Date(Date.UTC(2026, 10, 1, 0, 0, sequence)).toISOString(),
    eventId,
    eventType: 'sale',
    occurredAt,
    supplyKind: 'goods',
    customerType: 'b2c',
    countryOfConsumption: 'FR',
    dispatchCountry: 'DE',
    supplierEstablishmentCountry: 'DE',
    currency: 'EUR',
    netAmountMinor: net,
    vatAmountMinor: (net * 2000n) / 10000n,
    vatRateBps: 2000,
    rateCategory: 'standard',
    classificationStatus: 'classified',
    ...over,
  });
  const id = randomUUID();
  return { id, subject: 'vat.ledger.v1.supply_committed', data: toBinary(SupplyCommittedSchema, create(SupplyCommittedSchema, { eventId: id, supplyEvent })) };
}

/** JSON with bigints as text (the status view holds bigints). */
const json = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));

describe.skipIf(!backends.ok)('Article 59c projection (service, PostgreSQL)', () => {
  let h: ServiceHarness<ThresholdsDeps>;
  const q = async (sql: string, params: unknown[] = []) => (await h.deps.pool.query(sql, params)).rows;
  /** The status view the threshold-status route answers, as of 2026-12-31, with the ledger's head at `head` (no ledger here). */
  const statusOf = (accountId: bigint, head: number) => {
    const ledger = { getLedgerHead: async () => ({ sequence: BigInt(head), decisionCount: 0n }) } as unknown as ThresholdsDeps['clients']['ledger'];
    return article59cView({ ...h.deps, clients: { ...h.deps.clients, ledger } }, { accountId, apiKeyId: 1n, keyKind: 'v2', scope: 'full' }, '2026-12-31');
  };

  beforeAll(async () => {
    h = await startServiceHarness<ThresholdsDeps>('thresholds');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('notifications, the crossing and the running totals are applied exactly once when batches are redelivered', async () => {
    const consumer = thresholdsProjectionConsumer(h.deps);
    const acct = 9001n;
    // 400,000 + 500,000 = 900,000 (warning band at e2) + 200,000 = 1,100,000 (crossing at e3)
    const batch = [message(acct, 1, 'e1', '2026-01-10T00:00:00.000Z', 400_000n), message(acct, 2, 'e2', '2026-02-10T00:00:00.000Z', 500_000n), message(acct, 3, 'e3', '2026-03-10T00:00:00.000Z', 200_000n)];
    await consumer.handler(batch);
    await consumer.handler(batch); // a whole redelivery
    await consumer.handler([batch[2]!, batch[0]!, batch[2]!]); // a partial one, with an id repeated inside the batch
    const notes = await q(`select kind, event_id, cumulative_minor::text as c from thresholds.threshold_notification where account_id = $1 order by id`, [acct.toString()]);
    expect(notes).toEqual([
      { kind: 'article_59c_warning_band_entered', event_id: 'e2', c: '900000' },
      { kind: 'article_59c_threshold_crossed', event_id: 'e3', c: '1100000' },
    ]);
    const crossing = await q(`select event_id, cumulative_minor::text as c, sequence::text as s from thresholds.article59c_crossing where account_id = $1`, [acct.toString()]);
    expect(crossing).toEqual([{ event_id: 'e3', c: '1100000', s: '3' }]);
    const totals = await q(`select sum(event_count)::text as n, sum(net_minor)::text as net from thresholds.article59c_bucket where account_id = $1`, [acct.toString()]);
    expect(totals).toEqual([{ n: '3', net: '1100000' }]);
    expect(await q(`select applied::text from thresholds.supply_projection_position where account_id = $1`, [acct.toString()])).toEqual([{ applied: '3' }]);
  });

  it('keeps every event\'s ECB evidence as the ledger attached it (events sharing a set of rates, and not)', async () => {
    const consumer = thresholdsProjectionConsumer(h.deps);
    const acct = 9101n;
    const feb = { rateDate: '2026-02-27', ratesPerEur: { PLN: '4.2173', SEK: '10.5935' } };
    const mar = { rateDate: '2026-03-03', ratesPerEur: { PLN: '4.2865', SEK: '10.7265', USD: '1.0812' } };
    const batch = [
      message(acct, 1, 'ev-1', '2026-02-28T00:00:00.000Z', 1_000n, { ecbRateEvidence: feb }),
      message(acct, 2, 'ev-2', '2026-03-03T00:00:00.000Z', 2_000n, { ecbRateEvidence: mar, currency: 'USD' }),
      message(acct, 3, 'ev-3', '2026-02-28T10:00:00.000Z', 3_000n, { ecbRateEvidence: feb }),
      message(acct, 4, 'ev-4', '2026-03-03T10:00:00.000Z', 4_000n),
    ];
    await consumer.handler(batch);
    await consumer.handler(batch); // redelivered: nothing changes
    expect(await q(`select f.event_id, d.rate_date, d.rates from thresholds.supply_fact f left join thresholds.article59c_rate_doc d on d.digest = f.rate_doc where f.account_id = $1 order by f.event_id`, [acct.toString()])).toEqual([
      { event_id: 'ev-1', rate_date: '2026-02-27', rates: feb.ratesPerEur },
      { event_id: 'ev-2', rate_date: '2026-03-03', rates: mar.ratesPerEur },
      { event_id: 'ev-3', rate_date: '2026-02-27', rates: feb.ratesPerEur },
      { event_id: 'ev-4', rate_date: null, rates: null },
    ]);
    // Each distinct document once, named by the SHA-256 of its rate date and text; the events sharing one name it.
    const named = await q(`select f.event_id, f.rate_doc from thresholds.supply_fact f where f.account_id = $1 order by f.event_id`, [acct.toString()]);
    const digest = (e: typeof feb) => createHash('sha256').update(`${e.rateDate}\n${JSON.stringify(e.ratesPerEur)}`).digest('hex');
    expect(named.map((r) => r.rate_doc)).toEqual([digest(feb), digest(mar), digest(feb), null]);
    expect(await q(`select count(*)::int as n from thresholds.article59c_rate_doc where digest = any($1::text[])`, [[digest(feb), digest(mar)]])).toEqual([{ n: 2 }]);
  });

  it('the stored crossing is immutable in the database and stays when a later refund reduces the total', async () => {
    const consumer = thresholdsProjectionConsumer(h.deps);
    const acct = 9001n;
    await consumer.handler([message(acct, 4, 'r1', '2026-04-10T00:00:00.000Z', -300_000n, { eventType: 'refund', originalEventId: 'e2' })]);
    expect(await q(`select event_id from thresholds.article59c_crossing where account_id = $1`, [acct.toString()])).toEqual([{ event_id: 'e3' }]);
    expect(await q(`select sum(net_minor)::text as net from thresholds.article59c_bucket where account_id = $1`, [acct.toString()])).toEqual([{ net: '800000' }]);
    await expect(h.deps.pool.query(`update thresholds.article59c_crossing set cumulative_minor = 0 where account_id = $1`, [acct.toString()])).rejects.toThrow(/immutable/);
    await expect(h.deps.pool.query(`delete from thresholds.article59c_crossing where account_id = $1`, [acct.toString()])).rejects.toThrow(/immutable/);
  });

  it('a correction received before its original waits as unresolved, then moves to the original year when the sale arrives', async () => {
    const consumer = thresholdsProjectionConsumer(h.deps);
    const acct = 9002n;
    // the refund (2026) of a 2025 sale arrives first: unresolved in 2026
    await consumer.handler([message(acct, 1, 'r-early', '2026-01-05T00:00:00.000Z', -100_000n, { eventType: 'refund', originalEventId: 'sale-2025' })]);
    expect(await q(`select year, link_state, net_minor::text as n from thresholds.article59c_bucket where account_id = $1`, [acct.toString()])).toEqual([{ year: 2026, link_state: 'missing', n: '-100000' }]);
    await consumer.handler([message(acct, 2, 'sale-2025', '2025-12-20T00:00:00.000Z', 500_000n)]);
    const rows = await q(`select year, event_class, link_state, event_count::text as c, net_minor::text as n from thresholds.article59c_bucket where account_id = $1 order by event_class`, [acct.toString()]);
    expect(rows).toEqual([
      { year: 2025, event_class: 'correction', link_state: 'linked', c: '1', n: '-100000' },
      { year: 2025, event_class: 'sale', link_state: 'none', c: '1', n: '500000' },
    ]);
    expect(await q(`select count(*)::int as n from thresholds.article59c_pending_correction where account_id = $1`, [acct.toString()])).toEqual([{ n: 0 }]);
  });

  it('goods shipped from another State count in 2026 but not in 2027 (running totals classified by statutory year)', async () => {
    const consumer = thresholdsProjectionConsumer(h.deps);
    const acct = 9003n;
    // DE-established supplier, FR warehouse, IT consumer: 300,000 in 2026 (counted), 300,000 in 2027 (excluded).
    await consumer.handler([
      message(acct, 1, 'fr-2026', '2026-05-01T00:00:00.000Z', 300_000n, { dispatchCountry: 'FR', countryOfConsumption: 'IT' }),
      message(acct, 2, 'fr-2027', '2027-05-01T00:00:00.000Z', 300_000n, { dispatchCountry: 'FR', countryOfConsumption: 'IT' }),
    ]);
    const release = await h.deps.releases.current();
    const buckets = await h.deps.article59cStatus.buckets(acct, [2026, 2027]);
    const y2026 = summarizeYear(2026, buckets, () => undefined, (c) => release.thresholds.get(c), '2026-12-31');
    const y2027 = summarizeYear(2027, buckets, () => undefined, (c) => release.thresholds.get(c), '2027-12-31');
    expect(y2026.countedByEstablishment.get('DE')).toBe(300_000n);
    expect(y2027.countedByEstablishment.get('DE')).toBeUndefined();
    expect(y2027.coverage).toEqual([{ reason: 'dispatch_not_from_establishment_state', disposition: 'excluded', evidenceQuality: 'complete', materiality: 'immaterial', currency: 'EUR', eventCount: 1n, netMinor: 300_000n }]);
  });

  it('the crossing is that of the ledger prefix that reached it, whatever the batches and their delivery order', async () => {
    const consumer = thresholdsProjectionConsumer(h.deps);
    // Ledger order: s1 (10 Jan, 600,000), s2 (10 Feb, 500,000), r3 (refund of s1 dated 20 Jan, -200,000).
    // Prefix 1..2: 600,000 + 500,000 = 1,100,000 > 1,000,000, so s2 crosses (warning at s2 too: 600,000 < 900,000).
    // Prefix 1..3 in tax-point order: 600,000 - 200,000 + 500,000 = 900,000: no crossing, but the crossing of
    // prefix 2 is historical evidence and stays. Every delivery must record exactly that.
    const events = (acct: bigint) => [
      message(acct, 1, 's1', '2026-01-10T00:00:00.000Z', 600_000n),
      message(acct, 2, 's2', '2026-02-10T00:00:00.000Z', 500_000n),
      message(acct, 3, 'r3', '2026-01-20T00:00:00.000Z', -200_000n, { eventType: 'refund', originalEventId: 's1' }),
    ];
    const deliveries: ((m: BusMessage[]) => BusMessage[][])[] = [
      (m) => m.map((x) => [x]), // one event at a time, in ledger order (the reference)
      (m) => [m], // one batch
      (m) => [[m[2]!], [m[1]!], [m[0]!]], // reversed: the refund first, the first sale last
      (m) => [[m[1]!, m[2]!], [m[0]!]],
    ];
    const results: unknown[] = [];
    for (const [i, deliver] of deliveries.entries()) {
      const acct = 9400n + BigInt(i);
      for (const batch of deliver(events(acct))) await consumer.handler(batch);
      const crossing = await q(`select event_id, sequence::text, cumulative_minor::text from thresholds.article59c_crossing where account_id = $1`, [acct.toString()]);
      const notes = await q(`select kind, event_id, cumulative_minor::text from thresholds.threshold_notification where account_id = $1 order by kind`, [acct.toString()]);
      results.push({ crossing, notes });
    }
    expect(results[0]).toEqual({
      crossing: [{ event_id: 's2', sequence: '2', cumulative_minor: '1100000' }],
      notes: [
        { kind: 'article_59c_threshold_crossed', event_id: 's2', cumulative_minor: '1100000' },
        { kind: 'article_59c_warning_band_entered', event_id: 's2', cumulative_minor: '1100000' },
      ],
    });
    for (const r of results.slice(1)) expect(r).toEqual(results[0]);
  });

  it('a correction that precedes its original in the ledger gives the same running totals and status whatever the batching, replica or redelivery', async () => {
    // Issue 23 (the replica run): concurrent clients can commit a refund's batch before its original's, so the
    // ledger numbers the refund first. Ledger order: r1 (refund of s2 dated 15 Feb, -100,000), s2 (10 Jan, 500,000),
    // s3 (20 Mar, 300,000). A one-process run posting the three in one batch links r1 at once; a replica taking
    // r1 alone leaves it unresolved (reason correction_reference_missing) until s2 arrives, then moves it. Both
    // must end with the same rows and the same status: counted 500,000 - 100,000 + 300,000 = 700,000 in 3 events,
    // below the 900,000 warning band, nothing unresolved. Before the fix the moved-out row stayed with 0 events
    // and the status listed a correction_reference_missing coverage entry (and issue) for it.
    const consumer = thresholdsProjectionConsumer(h.deps);
    const events = (acct: bigint) => [
      message(acct, 1, 'r1', '2026-02-15T00:00:00.000Z', -100_000n, { eventType: 'refund', originalEventId: 's2' }),
      message(acct, 2, 's2', '2026-01-10T00:00:00.000Z', 500_000n),
      message(acct, 3, 's3', '2026-03-20T00:00:00.000Z', 300_000n),
    ];
    const deliveries: ((m: BusMessage[]) => BusMessage[][])[] = [
      (m) => [m], // one batch: the original is there when the refund is applied (the reference)
      (m) => m.map((x) => [x]), // one at a time in ledger order: r1 waits, unresolved, until s2
      (m) => [[m[0]!], [m[0]!, m[1]!], [m[2]!], m], // redeliveries after a kill, the refund twice before its original
      (m) => [[m[1]!, m[2]!], [m[0]!]], // another replica applied the original first; the refund comes last
      (m) => [[m[2]!], [m[0]!], [m[2]!, m[1]!]],
    ];
    const results: { rows: unknown; status: string }[] = [];
    for (const [i, deliver] of deliveries.entries()) {
      const acct = 9500n + BigInt(i);
      for (const batch of deliver(events(acct))) await consumer.handler(batch);
      const rows = await q(`select bucket_key, event_count::text as n, net_minor::text as net from thresholds.article59c_bucket where account_id = $1 order by bucket_key`, [acct.toString()]);
      results.push({ rows, status: json(await statusOf(acct, 3)) });
    }
    const reference = await statusOf(9500n, 3);
    expect(reference.currentYearCoverage).toEqual([{ reason: 'counted', disposition: 'counted', evidenceQuality: 'complete', materiality: 'immaterial', currency: 'EUR', eventCount: 3n, netMinor: 700_000n }]);
    expect(reference.issues).toEqual([]);
    expect(reference.evidenceStatus).toBe('resolved');
    expect(reference.checks[0]?.currentMinor).toBe(700_000n);
    expect(results[0]!.rows).toEqual([
      { bucket_key: '2026|2026-01-10|sale|none|goods|b2c|classified|FR|DE|DE|EUR|', n: '1', net: '500000' },
      { bucket_key: '2026|2026-02-15|correction|linked|goods|b2c|classified|FR|DE|DE|EUR|', n: '1', net: '-100000' },
      { bucket_key: '2026|2026-03-20|sale|none|goods|b2c|classified|FR|DE|DE|EUR|', n: '1', net: '300000' },
    ]);
    for (const [i, r] of results.entries()) expect(r, `delivery ${i}`).toEqual(results[0]);
  });

  it('a running total that a linked correction left keeps the latest recording time of the events still in it (cutoff_at), whatever the batching', async () => {
    // Ledger order (recorded at 00:00:0n of 1 Nov 2026 for sequence n): s1 (sale 10 Jan 2026, 500,000), rB (B2B
    // refund of a sale never received, 15 Feb 2026), rA (B2B refund dated 15 Feb 2026 of the B2B sale `old` of
    // 1 Jun 2024), old. Both refunds are excluded (B2B), so the evidence of 2026 and 2025 is complete and the status
    // has a check. rA and `old` belong to 2024, so the latest recording among the events of 2025-2026 is rB's,
    // 00:00:02. Delivered one at a time, rA first joins rB's `missing` row (recorded 00:00:03) and leaves it when
    // `old` arrives: before the fix that row kept 00:00:03 as its latest recording, and the check's cutoff_at with it.
    const consumer = thresholdsProjectionConsumer(h.deps);
    const events = (acct: bigint) => [
      message(acct, 1, 's1', '2026-01-10T00:00:00.000Z', 500_000n),
      message(acct, 2, 'rB', '2026-02-15T00:00:00.000Z', -1_000n, { eventType: 'refund', originalEventId: 'gone', customerType: 'b2b' }),
      message(acct, 3, 'rA', '2026-02-15T00:00:00.000Z', -2_000n, { eventType: 'refund', originalEventId: 'old', customerType: 'b2b' }),
      message(acct, 4, 'old', '2024-06-01T00:00:00.000Z', 2_000n, { customerType: 'b2b' }),
    ];
    const deliveries: ((m: BusMessage[]) => BusMessage[][])[] = [(m) => [m], (m) => m.map((x) => [x]), (m) => [[m[2]!], [m[0]!, m[1]!], [m[3]!, m[2]!]]];
    const statuses: string[] = [];
    for (const [i, deliver] of deliveries.entries()) {
      const acct = 9600n + BigInt(i);
      for (const batch of deliver(events(acct))) await consumer.handler(batch);
      const status = await statusOf(acct, 4);
      expect(status.evidenceStatus, `delivery ${i}`).toBe('resolved');
      expect(status.checks[0]?.cutoffAt, `delivery ${i}`).toBe('2026-11-01T00:00:02.000Z');
      statuses.push(json(status));
    }
    for (const s of statuses) expect(s).toBe(statuses[0]);
  });

  it('property: any split into batches, in either order, in any redelivery pattern, gives the running totals, notifications and crossings of one application', async () => {
    const consumer = thresholdsProjectionConsumer(h.deps);
    let account = 20_000n;
    const totals = async (acct: bigint) =>
      q(
        `select bucket_key, event_count::text, net_minor::text from thresholds.article59c_bucket where account_id = $1 order by bucket_key`,
        [acct.toString()],
      );
    const row = fc.record({ net: fc.bigInt({ min: 50_000n, max: 400_000n }), month: fc.integer({ min: 1, max: 12 }), refundOf: fc.option(fc.nat(), { nil: undefined }), missingDispatch: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 12 }), fc.array(fc.nat(), { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 4 }), fc.boolean(), async (rows, cuts, repeats, reversed) => {
        const once = ++account;
        const split = ++account;
        const build = (acct: bigint) =>
          rows.map((r, k) => {
            const refund = r.refundOf !== undefined && k > 0;
            return message(acct, k + 1, `e${k}`, `2026-${String(r.month).padStart(2, '0')}-15T00:00:00.000Z`, refund ? -r.net : r.net, {
              ...(refund ? { eventType: 'refund', originalEventId: `e${(r.refundOf! % k)}` } : {}),
              ...(r.missingDispatch ? { dispatchCountry: undefined } : {}),
            });
          });
        for (const m of build(once)) await consumer.handler([m]); // the reference: one event at a time, in ledger order
        const msgs = build(split);
        const bounds = [...new Set(cuts.map((c) => c % (msgs.length + 1)))].sort((a, b) => a - b);
        const batches: typeof msgs[] = [];
        let from = 0;
        for (const b of [...bounds, msgs.length]) if (b > from) (batches.push(msgs.slice(from, b)), (from = b));
        if (reversed) batches.reverse(); // corrections then arrive before their originals
        for (let i = 0; i < batches.length; i++) {
          await consumer.handler(batches[i]!);
          if (repeats.includes(i)) await consumer.handler([...batches[i]!, ...(batches[i - 1] ?? [])]);
        }
        await consumer.handler(msgs); // a final redelivery of everything
        const key = (r: Record<string, string>) => ({ ...r });
        expect((await totals(split)).map(key)).toEqual((await totals(once)).map(key));
        const marks = await q(`select kind, count(*)::int as n from thresholds.threshold_notification where account_id = $1 group by kind`, [split.toString()]);
        for (const m of marks) expect(m.n).toBe(1);
        // Marks are found prefix by prefix in ledger order: the same warning, the same crossing and the same
        // superseded crossings (history) at the same events, whatever the batches and their order.
        const crossings = (acct: bigint) =>
          q(`select year, event_id, sequence::text, cumulative_minor::text from thresholds.article59c_crossing where account_id = $1 order by year, sequence`, [acct.toString()]);
        const notes = (acct: bigint) =>
          q(`select year, kind, event_id, cumulative_minor::text from thresholds.threshold_notification where account_id = $1 order by year, kind`, [acct.toString()]);
        expect(await crossings(split)).toEqual(await crossings(once));
        expect(await notes(split)).toEqual(await notes(once));
        // And the status answered from those rows: the same, but for when each crossing was proven.
        const proofTimesMasked = (t: string) => t.replace(/"(provenAt|supersededAt)":"[^"]*"/g, '"$1":"<time>"');
        expect(proofTimesMasked(json(await statusOf(split, msgs.length)))).toBe(proofTimesMasked(json(await statusOf(once, msgs.length))));
      }),
      { numRuns: 25 },
    );
  }, 240_000);

  it('a release that lacks any Member State is rejected before it is stored (never selectable)', async () => {
    const doc = loadShippedRelease().document;
    const partial = { ...doc, release_version: 'partial-de-only', member_states: doc.member_states.filter((r) => r.country === 'DE') };
    await expect(importRelease(h.deps.pool, partial, new Date())).rejects.toThrow(/complete EU-27/);
    expect(await q(`select version from thresholds.article59c_release where version = 'partial-de-only'`)).toEqual([]);
    expect((await h.deps.releases.current()).version).toBe(doc.release_version);
    // a stored release version cannot change
    await expect(importRelease(h.deps.pool, { ...doc, legal_basis: 'changed' }, new Date())).rejects.toThrow(/already stored/);
    await expect(h.deps.pool.query(`delete from thresholds.article59c_release`)).rejects.toThrow(/immutable/);
  });
  it('GetThresholdStatus as_of (RPC only): a calendar date not later than today, else InvalidArgument with a code', async () => {
    const client = h.client(ThresholdService);
    const ctx = h.as({ accountId: 9101n });
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    for (const [asOf, code] of [['2025-02-30', 'invalid_as_of'], ['20250101', 'invalid_as_of'], [tomorrow, 'as_of_after_today']] as const) {
      const err = await client.getThresholdStatus({ asOf }, ctx).then(() => undefined, (e: unknown) => e as ConnectError);
      expect(err, asOf).toBeInstanceOf(ConnectError);
      expect(err!.message).toContain('`as_of`');
      expect(err!.code).toBe(Code.InvalidArgument);
      expect(JSON.stringify(err)).toContain(code);
    }
  });
});
