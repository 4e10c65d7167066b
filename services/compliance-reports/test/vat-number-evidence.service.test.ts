import { Code, ConnectError } from '@connectrpc/connect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBinary } from '@bufbuild/protobuf';
import { VatNumberService } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { VatNumberCheckedSchema } from '@vat/gen/vat/compliance_reports/v1/events_pb';
import { reasonOf } from '@vat/platform/rpc-errors';
import { vatNumberDigest } from '@vat/platform/vat-number-digest';
import { requireBackends } from '../../../test/support/env';
import { startServiceHarness, type ServiceHarness } from '../../../test/support/service-harness';
import { germanVatNumber, LocalVies } from '../../../test/support/vies-server';
import type { ComplianceReportsDeps } from '../src/context';

const backends = await requireBackends(['postgres']);

const DAY = 86_400_000;
const T0 = Date.parse('2026-03-10T12:00:00Z');
const REUSE_DAYS = 10;

describe.skipIf(!backends.ok)('VAT-number evidence through time (createRouterTransport, PostgreSQL, a local VIES)', () => {
  let h: ServiceHarness<ComplianceReportsDeps>;
  let vies: LocalVies;
  const A = { accountId: 501n };
  const B = { accountId: 502n };
  const at = (days: number) => {
    h.deps.now = () => new Date(T0 + days * DAY);
  };
  const check = (who: { accountId: bigint }, vatNumber: string) => h.client(VatNumberService).checkVatNumber({ vatNumber }, h.as(who));
  const evidence = (who: { accountId: bigint }, number: string, legalDate: string) =>
    h.client(VatNumberService).getVatNumberEvidence({ vatNumber: number, legalDate }, h.as(who));

  beforeAll(async () => {
    vies = await new LocalVies().start();
    h = await startServiceHarness<ComplianceReportsDeps>('compliance-reports');
    Object.assign(h.deps.config.vies, { url: vies.url, retries: 0, backoffMs: 0, statusTtlMs: 0, reuseDays: REUSE_DAYS, timeoutMs: 2000 });
  });
  afterAll(async () => {
    await h?.close();
    await vies?.close();
  });

  it('reuses a definitive answer for VIES_REUSE_DAYS, then asks VIES again', async () => {
    const n = germanVatNumber('30000001');
    vies.numbers.set(n, 'valid');
    at(0);
    const first = await check(A, n);
    at(REUSE_DAYS - 1);
    const again = await check(A, n);
    expect(again.reused).toBe(true);
    expect(again.check!.id).toBe(first.check!.id);
    expect(vies.countFor(n)).toBe(1);
    at(REUSE_DAYS + 1);
    const fresh = await check(A, n);
    expect(fresh.reused).toBe(false);
    expect(fresh.check!.checkedAt).toBe(new Date(T0 + (REUSE_DAYS + 1) * DAY).toISOString());
    expect(vies.countFor(n)).toBe(2);
  });

  it('evidence at a tax point: the newest definitive check from VIES_REUSE_DAYS before to the end of its day; never a later one', async () => {
    const n = germanVatNumber('30000002');
    vies.numbers.set(n, 'valid');
    at(0);
    const valid = (await check(A, n)).check!;
    const day = (d: number) => new Date(T0 + d * DAY).toISOString().slice(0, 10);
    expect(await evidence(A, n, day(0))).toMatchObject({ status: 'valid', check: { id: valid.id, result: 'valid' } });
    // the caller sends the number; the answer carries the ledger's keyed digest and the mask, never the number
    const spaced = `${n.slice(0, 2)} ${n.slice(2, 5)}.${n.slice(5)}`;
    expect(await evidence(A, spaced, day(0))).toMatchObject({ vatNumberDigest: vatNumberDigest(h.deps.vatNumberDigestKey, n), vatNumberMasked: `DE*****${n.slice(-4)}` });
    // the day before the check: nothing proves the status then
    expect((await evidence(A, n, day(-1))).status).toBe('none');
    // 10 days later the check still stands (window [day 0, day 11)); 11 days later it is too old
    expect((await evidence(A, n, day(REUSE_DAYS))).status).toBe('valid');
    expect((await evidence(A, n, day(REUSE_DAYS + 1))).status).toBe('none');
    // VIES now says invalid (after the reuse window): from that day on, the number has no valid evidence
    vies.numbers.set(n, 'invalid');
    at(20);
    expect((await check(A, n)).check!.result).toBe('invalid');
    expect((await evidence(A, n, day(20))).status).toBe('invalid');
    expect((await evidence(A, n, day(5))).status).toBe('valid');
    // VIES down: an unavailable answer stands only where no definitive answer does
    vies.down = true;
    at(40);
    expect((await check(A, n)).check!.result).toBe('unavailable');
    vies.down = false;
    expect((await evidence(A, n, day(40))).status).toBe('unavailable');
    expect((await evidence(A, n, day(25))).status).toBe('invalid');
  });

  it('another account has no evidence of this account\'s checks; bad input is InvalidArgument', async () => {
    const n = germanVatNumber('30000003');
    vies.numbers.set(n, 'valid');
    at(0);
    await check(A, n);
    expect((await evidence(B, n, '2026-03-10')).status).toBe('none');
    for (const [req, reason] of [
      [{ vatNumber: 'DE 12/34', legalDate: '2026-03-10' }, 'invalid_vat_number'],
      [{ vatNumber: n, legalDate: '2026-02-30' }, 'invalid_legal_date'],
    ] as const) {
      const err = await h.client(VatNumberService).getVatNumberEvidence(req, h.as(A)).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectError);
      expect((err as ConnectError).code).toBe(Code.InvalidArgument);
      expect(reasonOf(err as ConnectError)).toBe(reason);
    }
  });

  it('every stored check is announced once as VatNumberChecked (digest, result, time; never the number), a reused answer is not', async () => {
    const n = germanVatNumber('30000004');
    vies.numbers.set(n, 'valid');
    at(0);
    const events = async () =>
      (await h.deps.pool.query(`select payload from compliance_reports.outbox where subject = 'vat.compliance_reports.v1.vat_number_checked' order by created_at, id`)).rows.map((r) => ({
        raw: Buffer.from(r.payload as Buffer),
        event: fromBinary(VatNumberCheckedSchema, r.payload as Buffer),
      }));
    const before = new Set((await events()).map((e) => e.event.eventId));
    const valid = (await check(A, n)).check!;
    expect((await check(A, n)).reused).toBe(true);
    const badFormat = (await check(A, 'DE136695977')).check!;
    const mine = (await events()).filter((e) => !before.has(e.event.eventId)).sort((a, b) => Number(a.event.checkId - b.event.checkId));
    expect(mine.map((e) => ({ accountId: e.event.accountId, checkId: e.event.checkId, digest: e.event.vatNumberDigest, result: e.event.result, checkedAt: e.event.checkedAt }))).toEqual([
      { accountId: 501n, checkId: valid.id, digest: vatNumberDigest(h.deps.vatNumberDigestKey, n), result: 'valid', checkedAt: valid.checkedAt },
      { accountId: 501n, checkId: badFormat.id, digest: vatNumberDigest(h.deps.vatNumberDigestKey, 'DE136695977'), result: 'format_invalid', checkedAt: badFormat.checkedAt },
    ]);
    for (const e of mine) {
      expect(e.raw.toString('latin1')).not.toContain(n.slice(2));
      expect(e.raw.toString('latin1')).not.toContain(valid.vatNumberMasked);
    }
  });

  it('checks stored before the event existed are announced once at start, also by two replicas starting together', async () => {
    const insert = async (id: number) =>
      h.deps.pool.query(
        `insert into compliance_reports.vat_number_check (id, account_id, vat_number_digest, vat_number_masked, vat_number_encrypted, member_state, result, checked_at, member_state_availability, attempts)
         values ($1, 503, $2, 'DE*****0000', '\\x00', 'DE', 'valid', '2026-01-05T00:00:00Z', 'Available', 1)`,
        [id, String(id).padStart(64, '0')],
      );
    for (const id of [900001, 900002, 900003]) await insert(id);
    const announced = await Promise.all([h.deps.vatNumberChecks.announceBacklog(new Date()), h.deps.vatNumberChecks.announceBacklog(new Date())]);
    expect(announced[0] + announced[1]).toBe(3);
    expect(await h.deps.vatNumberChecks.announceBacklog(new Date())).toBe(0);
    const rows = (await h.deps.pool.query(`select payload from compliance_reports.outbox where subject = 'vat.compliance_reports.v1.vat_number_checked'`)).rows;
    const ids = rows.map((r) => fromBinary(VatNumberCheckedSchema, r.payload as Buffer)).filter((e) => e.accountId === 503n).map((e) => Number(e.checkId)).sort();
    expect(ids).toEqual([900001, 900002, 900003]);
  });
});
