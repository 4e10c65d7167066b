import { fromBinary } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReturnPeriodOverdueSchema } from '@vat/gen/vat/compliance_reports/v1/events_pb';
import { requireBackends } from '../../../test/support/env';
import { startServiceHarness, type ServiceHarness } from '../../../test/support/service-harness';
import type { ComplianceReportsDeps } from '../src/context';
import { complianceReportsModule } from '../src/module';
import { announceOverduePeriods } from '../src/overdue-check';

const backends = await requireBackends(['postgres']);

describe.skipIf(!backends.ok)('the background overdue check (PostgreSQL, an injected clock)', () => {
  let h: ServiceHarness<ComplianceReportsDeps>;
  const [A, B, PENDING] = [7001n, 7002n, 7003n];
  const at = (iso: string) => {
    h.deps.now = () => new Date(iso);
  };
  const register = (accountId: bigint, scheme: string, from: string, to: string | null, status: string) =>
    h.deps.pool.query(
      `insert into compliance_reports.tax_registration (account_id, scheme_type, member_state_identification, effective_from, effective_to, status, created_at, updated_at)
       values ($1, $2, 'DE', $3, $4, $5, now(), now())`,
      [accountId.toString(), scheme, from, to, status],
    );
  const recorded = async () =>
    (await h.deps.pool.query(`select account_id::text as a, scheme_type, period_key, due_date, detected_at from compliance_reports.return_period_overdue where account_id = any($1::bigint[]) order by 1, 2, 3`, [[A, B, PENDING].map(String)])).rows;
  const events = async () =>
    (await h.deps.pool.query(`select payload from compliance_reports.outbox where subject = 'vat.compliance_reports.v1.return_period_overdue'`)).rows
      .map((r) => fromBinary(ReturnPeriodOverdueSchema, r.payload as Buffer))
      .filter((e) => [A, B, PENDING].includes(e.accountId))
      .map((e) => `${e.accountId} ${e.schemeType} ${e.periodKey} due ${e.dueDate} found ${e.detectedAt}`)
      .sort();

  beforeAll(async () => {
    h = await startServiceHarness<ComplianceReportsDeps>('compliance-reports');
    // A: Union OSS from 2026-01-01 and IOSS for February 2026 only; B: Union OSS from 2026-01-01; a pending registration covers nothing.
    await register(A, 'union_oss', '2026-01-01', null, 'active');
    await register(A, 'ioss', '2026-02-01', '2026-02-28', 'ended');
    await register(B, 'union_oss', '2026-01-01', null, 'active');
    await register(PENDING, 'union_oss', '2026-01-01', null, 'pending');
  });
  afterAll(async () => h?.close());

  it('is the module\'s background task, every OVERDUE_CHECK_INTERVAL_MS', () => {
    const tasks = complianceReportsModule.background!(h.deps);
    expect(tasks.map((t) => t.name)).toEqual(['return-period-overdue-check']);
    expect(h.deps.config.overdueCheckIntervalMs).toBe(3_600_000);
  });

  it('announces each period once, on the first run after its due date, without any read of the calendar', async () => {
    // 2026-03-31: Q1 has not ended; February's IOSS return is due that day (the last day of March): not late yet.
    at('2026-03-31T23:59:59.000Z');
    expect(await announceOverduePeriods(h.deps)).toEqual({ accounts: 2, announced: 0 });
    // 2026-04-01: February's IOSS return is overdue (A); Q1 has ended but is due 2026-04-30.
    at('2026-04-01T00:00:00.000Z');
    expect(await announceOverduePeriods(h.deps)).toMatchObject({ announced: 1 });
    expect(await announceOverduePeriods(h.deps)).toMatchObject({ announced: 0 });
    // 2026-05-01: Q1 is overdue for A and B. Two replicas run the check at the same moment: each period once.
    at('2026-05-01T00:00:00.000Z');
    const runs = await Promise.all([announceOverduePeriods(h.deps), announceOverduePeriods(h.deps)]);
    expect(runs[0]!.announced + runs[1]!.announced).toBe(2);
    expect(await announceOverduePeriods(h.deps)).toMatchObject({ announced: 0 });

    expect((await recorded()).map((r) => [r.a, r.scheme_type, r.period_key, r.due_date, new Date(r.detected_at).toISOString()])).toEqual([
      [String(A), 'ioss', '2026-02', '2026-03-31', '2026-04-01T00:00:00.000Z'],
      [String(A), 'union_oss', '2026-Q1', '2026-04-30', '2026-05-01T00:00:00.000Z'],
      [String(B), 'union_oss', '2026-Q1', '2026-04-30', '2026-05-01T00:00:00.000Z'],
    ]);
    expect(await events()).toEqual([
      `${A} ioss 2026-02 due 2026-03-31 found 2026-04-01T00:00:00.000Z`,
      `${A} union_oss 2026-Q1 due 2026-04-30 found 2026-05-01T00:00:00.000Z`,
      `${B} union_oss 2026-Q1 due 2026-04-30 found 2026-05-01T00:00:00.000Z`,
    ]);
  });
});
