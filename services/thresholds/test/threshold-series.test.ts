import { randomUUID } from 'node:crypto';
import { create, toBinary } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SupplyCommittedSchema } from '@vat/gen/vat/ledger/v1/events_pb';
import { SupplyEventSchema } from '@vat/gen/vat/ledger/v1/resources_pb';
import { ThresholdService } from '@vat/gen/vat/thresholds/v1/thresholds_service_pb';
import type { BusMessage } from '@vat/platform/bus';
import { requireBackends } from '../../../test/support/env';
import { startServiceHarness, type ServiceHarness } from '../../../test/support/service-harness';
import type { CandidateFacts } from '../src/article59c/classify';
import { cumulativeSeries } from '../src/article59c/series';
import { summarizeYear, type Bucket } from '../src/article59c/summarize';
import type { ThresholdsDeps } from '../src/context';
import { thresholdsProjectionConsumer } from '../src/projection';

const backends = await requireBackends(['postgres']);

const Y = new Date().getUTCFullYear();
/** A past year: its series runs to 31 December, whatever the day the test runs. */
const P = Y - 1;

type Over = Partial<{ eventType: string; originalEventId: string; customerType: string; supplyKind: string; dispatchCountry: string; establishment: string }>;

/** One committed event of `accountId` at ledger `sequence`: by default a B2C goods sale from DE to FR in EUR. */
function event(accountId: bigint, sequence: number, eventId: string, occurredAt: string, net: bigint, o: Over = {}): BusMessage {
  const supplyKind = o.supplyKind ?? 'goods';
  const supplyEvent = create(SupplyEventSchema, {
    id: randomUUID(),
    accountId,
    sequence: BigInt(sequence),
    recordedAt: new Date(Date.UTC(P, 11, 31, 0, 0, sequence)).toISOString(),
    eventId,
    eventType: o.eventType ?? 'sale',
    originalEventId: o.originalEventId,
    occurredAt,
    supplyKind,
    customerType: o.customerType ?? 'b2c',
    countryOfConsumption: 'FR',
    dispatchCountry: supplyKind === 'goods' ? (o.dispatchCountry ?? 'DE') : undefined,
    supplierEstablishmentCountry: o.establishment ?? 'DE',
    currency: 'EUR',
    netAmountMinor: net,
    vatAmountMinor: (net * 2000n) / 10000n,
    vatRateBps: 2000,
    rateCategory: 'standard',
    classificationStatus: 'classified',
  });
  const messageId = randomUUID();
  return { id: messageId, subject: 'vat.ledger.v1.supply_committed', data: toBinary(SupplyCommittedSchema, create(SupplyCommittedSchema, { eventId: messageId, supplyEvent })) };
}

const day = (d: string, h = 10) => `${P}-${d}T${String(h).padStart(2, '0')}:00:00.000Z`;

describe.skipIf(!backends.ok)('GetThresholdSeries: the cumulative counted amount by tax-point day (PostgreSQL)', () => {
  let h: ServiceHarness<ThresholdsDeps>;
  const A = 8201n;
  const B = 8202n;

  beforeAll(async () => {
    h = await startServiceHarness<ThresholdsDeps>('thresholds');
    const consumer = thresholdsProjectionConsumer(h.deps);
    const refund = (originalEventId: string) => ({ eventType: 'refund', originalEventId });
    // Two batches, in ledger order; r7 (a refund of s7) is committed before its original.
    await consumer.handler([
      event(A, 1, 's1', day('01-10', 9), 400_000n),
      event(A, 2, 's2', day('01-10', 15), 100_000n),
      event(A, 3, 'b1', day('02-01'), 300_000n, { customerType: 'b2b' }),
      event(A, 4, 's3', day('03-05'), 450_000n),
      event(A, 5, 'r1', day('03-20'), -50_000n, refund('s1')),
      event(A, 6, 's4', day('04-02'), 200_000n),
      event(A, 7, 's5', day('05-01', 10), 30_000n),
      event(A, 8, 'r5', day('05-01', 12), -30_000n, refund('s5')),
      event(A, 9, 'r6', day('06-01'), -10_000n, refund('never-committed')),
      event(A, 10, 'r7', day('07-15'), -20_000n, refund('s7')),
      event(B, 1, 'other', day('01-10'), 999_000n),
    ]);
    await consumer.handler([
      event(A, 11, 's7', day('07-01'), 100_000n),
      event(A, 12, 'at1', day('08-01'), 70_000n, { supplyKind: 'services', establishment: 'AT' }),
      event(A, 13, 'y1', `${Y}-01-01T00:00:00.000Z`, 5_000n),
    ]);
  }, 120_000);

  afterAll(async () => {
    await h?.close();
  });

  it('sums each day, leaves out excluded, unresolved and cancelling days, and marks the crossing', async () => {
    const r = await h.client(ThresholdService).getThresholdSeries({ year: P }, h.as({ accountId: A }));
    expect(r.year).toBe(P);
    expect(r.cutoffDate).toBe(`${P}-12-31`);
    expect(r.ledgerPosition).toBe(13n);
    const [at, de] = r.series;
    expect(r.series.map((s) => s.establishmentCountry)).toEqual(['AT', 'DE']);
    expect(de).toMatchObject({ currency: 'EUR', currencyScale: 2, thresholdMinor: 1_000_000n }); // EUR 10,000 (Art. 59c)
    const points = de!.points.map((p) => [p.date, p.dayMinor, p.cumulativeMinor, p.eventCount]);
    expect(points).toEqual([
      [`${P}-01-10`, 400_000n + 100_000n, 500_000n, 2n], // s1 + s2
      // b1 (B2B) is excluded: no point on 1 February
      [`${P}-03-05`, 450_000n, 500_000n + 450_000n, 1n], // 950,000
      [`${P}-03-20`, -50_000n, 950_000n - 50_000n, 1n], // the refund r1 of s1: 900,000
      [`${P}-04-02`, 200_000n, 900_000n + 200_000n, 1n], // 1,100,000 > 1,000,000
      // 1 May: s5 30,000 and its refund r5 -30,000 cancel out (no change, no point); r6 (original never committed) is unresolved
      [`${P}-07-01`, 100_000n, 1_100_000n + 100_000n, 1n], // s7: 1,200,000
      [`${P}-07-15`, -20_000n, 1_200_000n - 20_000n, 1n], // r7, linked once s7 arrived: 1,180,000
    ]);
    // The crossing: the walk in tax-point order reaches 400,000 + 100,000 + 450,000 - 50,000 + 200,000 = 1,100,000 at s4.
    expect(de!.crossing).toMatchObject({ eventId: 's4', cumulativeMinor: 1_100_000n, thresholdMinor: 1_000_000n, occurredAt: day('04-02') });
    // The AT-established service sale is counted against AT's threshold, in its own series (no crossing).
    expect(at!.points.map((p) => [p.date, p.cumulativeMinor])).toEqual([[`${P}-08-01`, 70_000n]]);
    expect(at!.crossing).toBeUndefined();
  });

  it('the current year by default (up to today), per account', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const current = await h.client(ThresholdService).getThresholdSeries({}, h.as({ accountId: A }));
    expect([current.year, current.cutoffDate]).toEqual([Y, today]);
    expect(current.series.map((s) => [s.establishmentCountry, s.points.map((p) => [p.date, p.cumulativeMinor])])).toEqual([['DE', [[`${Y}-01-01`, 5_000n]]]]);
    const other = await h.client(ThresholdService).getThresholdSeries({ year: P }, h.as({ accountId: B }));
    expect(other.series.flatMap((s) => s.points.map((p) => p.cumulativeMinor))).toEqual([999_000n]);
    const none = await h.client(ThresholdService).getThresholdSeries({ year: P - 1 }, h.as({ accountId: A }));
    expect(none.series).toEqual([]);
  });

  it('refuses a year that is not a calendar year or is later than the current one', async () => {
    for (const [year, code] of [[0, 'invalid_year'], [10_000, 'invalid_year'], [Y + 1, 'year_after_current_year']] as const) {
      const err = await h.client(ThresholdService).getThresholdSeries({ year }, h.as({ accountId: A })).then(() => undefined, (e: unknown) => e as ConnectError);
      expect(err, String(year)).toBeInstanceOf(ConnectError);
      expect(err!.code).toBe(Code.InvalidArgument);
      expect(JSON.stringify(err)).toContain(code);
    }
  });
});

describe('cumulativeSeries: converted amounts by day, and the same counting as the status', () => {
  const facts = (over: Partial<CandidateFacts> = {}): CandidateFacts => ({
    eventClass: 'sale', linkState: 'none', year: 2026, supplyKind: 'services', customerType: 'b2c', classificationStatus: 'classified',
    countryOfConsumption: 'FR', dispatchCountry: null, supplierEstablishmentCountry: 'PL', currency: 'EUR', sourceId: null, ...over,
  });
  /** Events of one day (or, for the status, of a combination summed over days); `plnCount` of them were converted. */
  const bucket = (f: CandidateFacts, occurredOn: string, net: bigint, count: bigint, pln?: bigint, plnCount = count): Bucket => ({
    facts: f, occurredOn, eventCount: count, netMinor: net, maxRecordedAt: `${occurredOn}T12:00:00.000Z`,
    converted: pln === undefined ? new Map() : new Map([['PLN', { net: pln, count: plnCount }]]),
  });
  /** PL: PLN 42,000 = 4,200,000 grosze (seeds/article59c-thresholds). */
  const threshold = (c: string) => (c === 'PL' ? { currency: 'PLN', amountMinor: 4_200_000n, scale: 2 } : undefined);

  it('a combination in another currency counts at each day’s converted amount only when all its events were converted', () => {
    const converted = facts();
    const halfConverted = facts({ countryOfConsumption: 'IT' });
    const buckets = [
      bucket(converted, '2026-02-01', 10_000n, 1n, 42_512n), // EUR 100.00 at the ECB rate of its day: PLN 425.12
      bucket(converted, '2026-02-03', 20_000n, 2n, 85_101n), // EUR 200.00 in two sales: PLN 851.01
      bucket(halfConverted, '2026-02-02', 5_000n, 1n, 21_300n),
      bucket(halfConverted, '2026-02-04', 5_000n, 1n), // no rate that day: the IT combination stays unresolved, as in the status
    ];
    const [pl] = cumulativeSeries(2026, buckets, () => undefined, threshold);
    expect(pl!.points.map((p) => [p.date, p.dayMinor, p.cumulativeMinor])).toEqual([
      ['2026-02-01', 42_512n, 42_512n],
      ['2026-02-03', 85_101n, 42_512n + 85_101n], // 127,613
    ]);
    // The last point is what the status counts for PL from the same running totals summed over days (as its snapshot reads them).
    const summed = [bucket(converted, '2026-02-03', 10_000n + 20_000n, 3n, 42_512n + 85_101n), bucket(halfConverted, '2026-02-04', 5_000n + 5_000n, 2n, 21_300n, 1n)];
    const status = summarizeYear(2026, summed, () => undefined, threshold, '2026-12-31');
    expect(status.countedByEstablishment.get('PL')).toBe(127_613n);
    expect(status.blockingCount).toBe(2n);
  });
});
