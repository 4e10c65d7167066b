import { Code, ConnectError } from '@connectrpc/connect';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaxRegistrationService, type CreateTaxRegistrationRequest } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { loadConfig } from '@vat/platform/config';
import { metadataOf, reasonOf } from '@vat/platform/rpc-errors';
import { build } from '@vat/deploy/build';
import { NATS_TEST_URL, requireBackends } from '../../../test/support/env';
import { startServiceHarness, type ServiceHarness } from '../../../test/support/service-harness';
import { complianceReportsContext, type ComplianceReportsDeps } from '../src/context';
import { MAX_REGISTRATIONS_PER_SCHEME } from '../src/registration-writes';

const backends = await requireBackends(['postgres']);

type Failure = { code: Code; reason: string | undefined; detail: string; metadata: Record<string, string> };

async function failure(p: Promise<unknown>): Promise<Failure> {
  try {
    await p;
  } catch (err) {
    const e = ConnectError.from(err);
    return { code: e.code, reason: reasonOf(e), detail: e.rawMessage, metadata: metadataOf(e) };
  }
  throw new Error('expected the call to fail');
}

/** A create request as a test writes it (any subset of the fields). */
type CreateInit = Partial<Omit<CreateTaxRegistrationRequest, '$typeName' | '$unknown'>>;

const UNION: CreateInit = { schemeType: 'union_oss', memberStateIdentification: 'DE', effectiveFrom: '2024-01-01', status: 'active' };

describe.skipIf(!backends.ok)('tax registrations through createRouterTransport (PostgreSQL)', () => {
  let h: ServiceHarness<ComplianceReportsDeps>;
  let nextAccount = 1000n;
  /** A fresh account per test: the overlap rule is per account. */
  const account = () => {
    const accountId = nextAccount++;
    return { accountId, apiKeyId: accountId };
  };
  beforeAll(async () => {
    h = await startServiceHarness<ComplianceReportsDeps>('compliance-reports');
  });
  afterAll(async () => h?.close());

  const svc = () => h.client(TaxRegistrationService);
  const createAs = async (who: { accountId: bigint }, req: CreateInit) => (await svc().createTaxRegistration(req, h.as(who))).registration!;
  const list = async (who: { accountId: bigint }) => (await svc().listTaxRegistrations({}, h.as(who))).items;
  const stored = async (id: bigint) => (await h.deps.pool.query('select * from "compliance_reports".tax_registration where id = $1', [id.toString()])).rows[0] as Record<string, any>;
  /** A row written straight to the table, as data from before the overlap rule could be. */
  const legacyRow = async (accountId: bigint, schemeType: string, from: string, to: string | null, status: string) => {
    const r = await h.deps.pool.query(
      `insert into "compliance_reports".tax_registration (account_id, scheme_type, member_state_identification, effective_from, effective_to, status, created_at, updated_at)
       values ($1, $2, 'DE', $3, $4, $5, now(), now()) returning id`,
      [accountId.toString(), schemeType, from, to, status],
    );
    return BigInt(r.rows[0].id);
  };

  describe('create', () => {
    it('stores a Union OSS registration; the answer has only the masked number and says it counts', async () => {
      const a = account();
      const r = await createAs(a, { ...UNION, vatRegistrationNumber: 'de 123 456 789', effectiveTo: '2024-12-31' });
      expect(r).toMatchObject({
        id: expect.any(BigInt),
        schemeType: 'union_oss',
        memberStateIdentification: 'DE',
        vatRegistrationNumberMasked: 'DE*****6789',
        effectiveFrom: '2024-01-01',
        effectiveTo: '2024-12-31',
        status: 'active',
        countsTowardCoverage: true,
        coverageStatus: 'counted',
        conflictingRegistrationIds: [],
      });
      expect([r.iossIntermediaryName, r.iossIntermediaryNumberMasked]).toEqual([undefined, undefined]);
      expect(JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))).not.toContain('123456789');
    });

    it('encrypts the full identifiers at rest, bound to the account and the field', async () => {
      const a = account();
      const r = await createAs(a, { schemeType: 'ioss', memberStateIdentification: 'IE', vatRegistrationNumber: 'IM3720000224', iossIntermediaryName: 'Acme Intermediary Ltd', iossIntermediaryNumber: 'IN3720000999', effectiveFrom: '2021-07-01', status: 'active' });
      expect(r).toMatchObject({ vatRegistrationNumberMasked: 'IM******0224', iossIntermediaryNumberMasked: 'IN******0999', iossIntermediaryName: 'Acme Intermediary Ltd' });
      const row = await stored(r.id);
      const vat = row.vat_registration_number_encrypted as Buffer;
      const inter = row.ioss_intermediary_number_encrypted as Buffer;
      expect(vat[0]).toBe(1);
      expect(vat.length).toBe(1 + 12 + 16 + 'IM3720000224'.length);
      expect(vat.includes(Buffer.from('IM3720000224'))).toBe(false);
      expect(JSON.stringify(row)).not.toMatch(/IM3720000224|IN3720000999/);
      expect(h.deps.identifiers.open(a.accountId, 'vat_registration_number', vat)).toBe('IM3720000224');
      expect(h.deps.identifiers.open(a.accountId, 'ioss_intermediary_number', inter)).toBe('IN3720000999');
      expect(() => h.deps.identifiers.open(a.accountId + 1n, 'vat_registration_number', vat)).toThrow(/does not authenticate/);
      expect(() => h.deps.identifiers.open(a.accountId, 'ioss_intermediary_number', vat)).toThrow(/does not authenticate/);
    });

    it('accepts the four fields the spec names and nothing more; the others are optional', async () => {
      const r = await createAs(account(), { schemeType: 'non_union_oss', memberStateIdentification: 'GR', effectiveFrom: '2020-01-01', status: 'pending' });
      expect(r).toMatchObject({ status: 'pending', countsTowardCoverage: false, coverageStatus: 'pending' });
      expect([r.vatRegistrationNumberMasked, r.effectiveTo]).toEqual([undefined, undefined]);
    });

    it('treats "" in an optional field of a create as absent', async () => {
      const r = await createAs(account(), { ...UNION, vatRegistrationNumber: '', effectiveTo: '' });
      expect([r.vatRegistrationNumberMasked, r.effectiveTo]).toEqual([undefined, undefined]);
    });

    it.each([
      ['scheme_type', { schemeType: '' }, 'invalid_scheme_type', /required/],
      ['member_state_identification', { memberStateIdentification: '' }, 'invalid_member_state_identification', /required/],
      ['effective_from', { effectiveFrom: '' }, 'invalid_effective_from', /required/],
      ['status', { status: '' }, 'invalid_status', /required/],
    ])('refuses a create without %s', async (_f, change, reason, detail) => {
      const f = await failure(svc().createTaxRegistration({ ...UNION, ...change }, h.as(account())));
      expect(f).toMatchObject({ code: Code.InvalidArgument, reason });
      expect(f.detail).toMatch(detail);
    });

    it.each([
      ['scheme_type', { schemeType: 'oss' }, 'invalid_scheme_type'],
      ['scheme_type', { schemeType: 'UNION_OSS' }, 'invalid_scheme_type'],
      ['member_state_identification', { memberStateIdentification: 'US' }, 'invalid_member_state_identification'],
      ['member_state_identification', { memberStateIdentification: 'GB' }, 'invalid_member_state_identification'],
      ['member_state_identification', { memberStateIdentification: 'de' }, 'invalid_member_state_identification'],
      ['member_state_identification', { memberStateIdentification: 'DEU' }, 'invalid_member_state_identification'],
      ['effective_from', { effectiveFrom: '2024-02-30' }, 'invalid_effective_from'],
      ['effective_from', { effectiveFrom: '2024-1-01' }, 'invalid_effective_from'],
      ['effective_from', { effectiveFrom: '2024-01-01T00:00:00Z' }, 'invalid_effective_from'],
      ['effective_from', { effectiveFrom: '1899-12-31' }, 'invalid_effective_from'],
      ['effective_to', { effectiveTo: '2023-02-29' }, 'invalid_effective_to'],
      ['effective_to', { effectiveTo: 'open' }, 'invalid_effective_to'],
      ['status', { status: 'Active' }, 'invalid_status'],
      ['status', { status: 'deleted' }, 'invalid_status'],
      ['vat_registration_number', { vatRegistrationNumber: 'DE12345678' }, 'invalid_vat_registration_number'],
      ['vat_registration_number', { vatRegistrationNumber: 'AT U12345678' }, 'invalid_vat_registration_number'],
      ['vat_registration_number', { vatRegistrationNumber: 'X'.repeat(41) }, 'invalid_vat_registration_number'],
      ['vat_registration_number', { vatRegistrationNumber: 'DE12345\u00006789' }, 'invalid_vat_registration_number'],
      ['window', { effectiveFrom: '2024-05-01', effectiveTo: '2024-04-30' }, 'invalid_effective_window'],
      ['ended', { status: 'ended' }, 'effective_to_required'],
      ['ioss_intermediary_name', { iossIntermediaryName: 'Someone' }, 'ioss_fields_not_allowed'],
      ['ioss_intermediary_number', { iossIntermediaryNumber: 'IN2760000001' }, 'ioss_fields_not_allowed'],
      ['ioss_intermediary_name', { iossIntermediaryName: '' }, 'ioss_fields_not_allowed'],
    ])('refuses a bad %s: %j → %s', async (_f, change, reason) => {
      const a = account();
      const f = await failure(svc().createTaxRegistration({ ...UNION, ...change }, h.as(a)));
      expect(f).toMatchObject({ code: Code.InvalidArgument, reason });
      expect(await list(a)).toEqual([]);
    });

    it('says why a Member State code is refused: Greece is GR, Northern Ireland is not a Member State', async () => {
      expect((await failure(svc().createTaxRegistration({ ...UNION, memberStateIdentification: 'EL' }, h.as(account())))).detail).toMatch(/Greece is GR here/);
      expect((await failure(svc().createTaxRegistration({ ...UNION, memberStateIdentification: 'XI' }, h.as(account())))).detail).toMatch(/Northern Ireland/);
    });

    it("checks numbers against the scheme and the Member State of identification, without echoing them", async () => {
      const cases: [CreateInit, string, RegExp][] = [
        [{ ...UNION, memberStateIdentification: 'AT', vatRegistrationNumber: 'DE123456789' }, 'invalid_vat_registration_number', /ATU \+ 8 digits/],
        [{ ...UNION, memberStateIdentification: 'GR', vatRegistrationNumber: 'GR123456789' }, 'invalid_vat_registration_number', /EL \+ 9 digits/],
        [{ schemeType: 'non_union_oss', memberStateIdentification: 'IE', vatRegistrationNumber: 'EU276000041', effectiveFrom: '2024-01-01', status: 'active' }, 'invalid_vat_registration_number', /EU372 \+ 6 digits/],
        [{ schemeType: 'ioss', memberStateIdentification: 'DE', vatRegistrationNumber: 'DE123456789', effectiveFrom: '2024-01-01', status: 'active' }, 'invalid_vat_registration_number', /IM276 \+ 7 digits/],
        [{ schemeType: 'ioss', memberStateIdentification: 'DE', iossIntermediaryNumber: 'IN3720000001', effectiveFrom: '2024-01-01', status: 'active' }, 'invalid_ioss_intermediary_number', /IN276 \+ 7 digits/],
        [{ schemeType: 'ioss', memberStateIdentification: 'DE', iossIntermediaryName: ' ', effectiveFrom: '2024-01-01', status: 'active' }, 'invalid_ioss_intermediary_name', /not blank/],
        [{ schemeType: 'ioss', memberStateIdentification: 'DE', iossIntermediaryName: 'x'.repeat(201), effectiveFrom: '2024-01-01', status: 'active' }, 'invalid_ioss_intermediary_name', /1 to 200/],
        [{ schemeType: 'ioss', memberStateIdentification: 'DE', effectiveFrom: '2021-06-30', status: 'active' }, 'invalid_effective_from', /IOSS scheme exists from 2021-07-01/],
      ];
      for (const [req, reason, detail] of cases) {
        const f = await failure(svc().createTaxRegistration(req, h.as(account())));
        expect(f, JSON.stringify(req)).toMatchObject({ code: Code.InvalidArgument, reason });
        expect(f.detail).toMatch(detail);
        for (const v of [req.vatRegistrationNumber, req.iossIntermediaryNumber]) if (v) expect(f.detail).not.toContain(v);
      }
    });
  });

  describe('overlap per account and scheme', () => {
    it('refuses an overlapping window with 409 naming the conflicting id; touching days count, the day after does not', async () => {
      const a = account();
      const first = await createAs(a, { ...UNION, effectiveTo: '2024-03-31' });
      const f = await failure(svc().createTaxRegistration({ ...UNION, effectiveFrom: '2024-03-31' }, h.as(a)));
      expect(f).toMatchObject({ code: Code.AlreadyExists, reason: 'registration_overlap', metadata: { conflicting_registration_id: first.id.toString() } });
      expect(f.detail).toContain(`registration ${first.id}`);
      const next = await createAs(a, { ...UNION, effectiveFrom: '2024-04-01' });
      expect(next.coverageStatus).toBe('counted');
      expect((await createAs(a, { ...UNION, effectiveFrom: '2023-01-01', effectiveTo: '2023-12-31' })).coverageStatus).toBe('counted');
    });

    it('ignores excluded rows, other schemes and other accounts; pending and ended rows count', async () => {
      const a = account();
      const b = account();
      await createAs(a, { ...UNION, status: 'excluded' });
      await createAs(a, { ...UNION, schemeType: 'non_union_oss' });
      await createAs(b, UNION);
      const r = await createAs(a, UNION);
      expect(r.coverageStatus).toBe('counted');
      const pending = await createAs(account(), { ...UNION, status: 'pending' });
      expect(pending.coverageStatus).toBe('pending');
      const c = account();
      const ended = await createAs(c, { ...UNION, status: 'ended', effectiveTo: '2024-06-30' });
      expect(await failure(svc().createTaxRegistration({ ...UNION, effectiveFrom: '2024-06-30' }, h.as(c)))).toMatchObject({ reason: 'registration_overlap', metadata: { conflicting_registration_id: ended.id.toString() } });
      const d = account();
      const p = await createAs(d, { ...UNION, status: 'pending' });
      expect(await failure(svc().createTaxRegistration(UNION, h.as(d)))).toMatchObject({ reason: 'registration_overlap', metadata: { conflicting_registration_id: p.id.toString() } });
    });

    it('lets exactly one of many concurrent overlapping creates win', async () => {
      const a = account();
      const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => svc().createTaxRegistration({ ...UNION, effectiveFrom: `2024-0${i + 1}-01` }, h.as(a))));
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(won).toHaveLength(1);
      for (const l of lost) expect(reasonOf(ConnectError.from(l.reason))).toBe('registration_overlap');
      expect(await list(a)).toHaveLength(1);
    });

    it('keeps at most 500 registrations per scheme and account', async () => {
      const a = account();
      await h.deps.pool.query(
        `insert into "compliance_reports".tax_registration (account_id, scheme_type, member_state_identification, effective_from, status, created_at, updated_at)
         select $1, 'ioss', 'DE', '2022-01-01', 'excluded', now(), now() from generate_series(1, $2::int)`,
        [a.accountId.toString(), MAX_REGISTRATIONS_PER_SCHEME],
      );
      const f = await failure(svc().createTaxRegistration({ ...UNION, schemeType: 'ioss' }, h.as(a)));
      expect(f).toMatchObject({ code: Code.FailedPrecondition, reason: 'registration_limit_reached' });
      expect((await createAs(a, UNION)).schemeType).toBe('union_oss');
    });
  });

  describe('update', () => {
    const update = (who: { accountId: bigint }, id: bigint | string, changes: Record<string, string>) => svc().updateTaxRegistration({ id: id.toString(), ...changes }, h.as(who));

    it('keeps omitted fields, replaces given ones and clears optional ones with ""', async () => {
      const a = account();
      const r = await createAs(a, { schemeType: 'ioss', memberStateIdentification: 'DE', vatRegistrationNumber: 'IM2760000742', iossIntermediaryName: 'Int GmbH', iossIntermediaryNumber: 'IN2760000001', effectiveFrom: '2022-01-01', effectiveTo: '2022-12-31', status: 'active' });
      const kept = (await update(a, r.id, {})).registration!;
      expect(kept).toEqual(r);
      const renamed = (await update(a, r.id, { iossIntermediaryName: 'Other GmbH', vatRegistrationNumber: 'IM2760000743' })).registration!;
      expect(renamed).toMatchObject({ iossIntermediaryName: 'Other GmbH', vatRegistrationNumberMasked: 'IM******0743', iossIntermediaryNumberMasked: 'IN******0001', effectiveTo: '2022-12-31' });
      expect(h.deps.identifiers.open(a.accountId, 'vat_registration_number', (await stored(r.id)).vat_registration_number_encrypted)).toBe('IM2760000743');
      const cleared = (await update(a, r.id, { iossIntermediaryName: '', iossIntermediaryNumber: '', vatRegistrationNumber: '', effectiveTo: '' })).registration!;
      expect([cleared.iossIntermediaryName, cleared.iossIntermediaryNumberMasked, cleared.vatRegistrationNumberMasked, cleared.effectiveTo, cleared.status]).toEqual([undefined, undefined, undefined, undefined, 'active']);
      const row = await stored(r.id);
      expect([row.vat_registration_number_encrypted, row.vat_registration_number_masked, row.ioss_intermediary_number_encrypted, row.ioss_intermediary_number_masked, row.ioss_intermediary_name, row.effective_to]).toEqual([null, null, null, null, null, null]);
    });

    it('refuses scheme_type (even unchanged), clearing a required field, and rule violations of the resulting row', async () => {
      const a = account();
      const r = await createAs(a, { ...UNION, vatRegistrationNumber: 'DE123456789' });
      const before = await stored(r.id);
      const cases: [Record<string, string>, string][] = [
        [{ schemeType: 'union_oss' }, 'scheme_type_immutable'],
        [{ schemeType: 'ioss' }, 'scheme_type_immutable'],
        [{ memberStateIdentification: '' }, 'invalid_member_state_identification'],
        [{ effectiveFrom: '' }, 'invalid_effective_from'],
        [{ status: '' }, 'invalid_status'],
        [{ status: 'ended' }, 'effective_to_required'],
        [{ effectiveTo: '2023-12-31' }, 'invalid_effective_window'],
        [{ iossIntermediaryName: 'x' }, 'ioss_fields_not_allowed'],
        [{ iossIntermediaryNumber: '' }, 'ioss_fields_not_allowed'],
        [{ memberStateIdentification: 'AT' }, 'invalid_vat_registration_number'],
        [{ memberStateIdentification: 'AT', vatRegistrationNumber: 'DE123456789' }, 'invalid_vat_registration_number'],
      ];
      for (const [changes, reason] of cases) expect(await failure(update(a, r.id, changes)), JSON.stringify(changes)).toMatchObject({ code: Code.InvalidArgument, reason });
      expect(await stored(r.id)).toEqual(before);
      const moved = (await update(a, r.id, { memberStateIdentification: 'AT', vatRegistrationNumber: 'ATU12345678' })).registration!;
      expect(moved).toMatchObject({ memberStateIdentification: 'AT', vatRegistrationNumberMasked: 'AT*****5678' });
      const movedCleared = (await update(a, r.id, { memberStateIdentification: 'FR', vatRegistrationNumber: '' })).registration!;
      expect([movedCleared.memberStateIdentification, movedCleared.vatRegistrationNumberMasked]).toEqual(['FR', undefined]);
    });

    it('ends a registration with effective_to, and refuses clearing effective_to of an ended one', async () => {
      const a = account();
      const r = await createAs(a, UNION);
      const ended = (await update(a, r.id, { status: 'ended', effectiveTo: '2024-06-30' })).registration!;
      expect(ended).toMatchObject({ status: 'ended', effectiveTo: '2024-06-30', countsTowardCoverage: true, coverageStatus: 'counted' });
      expect(await failure(update(a, r.id, { effectiveTo: '' }))).toMatchObject({ reason: 'effective_to_required' });
    });

    it("answers a malformed, unknown or other account's id with registration_not_found and changes nothing", async () => {
      const a = account();
      const b = account();
      const theirs = await createAs(b, { ...UNION, vatRegistrationNumber: 'DE123456789' });
      const before = await stored(theirs.id);
      for (const id of ['0', '-1', 'abc', '1.0', '01', ' 1', '9'.repeat(19), '999999999999', theirs.id.toString()]) {
        expect(await failure(update(a, id, { status: 'excluded' })), id).toMatchObject({ code: Code.NotFound, reason: 'registration_not_found' });
      }
      expect(await stored(theirs.id)).toEqual(before);
      expect(await list(b)).toEqual([theirs]);
    });

    it('checks the resulting window for overlap: moving into another row or re-activating an excluded duplicate is 409', async () => {
      const a = account();
      const q1 = await createAs(a, { ...UNION, effectiveTo: '2024-03-31' });
      const q2 = await createAs(a, { ...UNION, effectiveFrom: '2024-04-01', effectiveTo: '2024-06-30' });
      expect(await failure(update(a, q2.id, { effectiveFrom: '2024-03-15' }))).toMatchObject({ reason: 'registration_overlap', metadata: { conflicting_registration_id: q1.id.toString() } });
      expect(await failure(update(a, q1.id, { effectiveTo: '' }))).toMatchObject({ reason: 'registration_overlap', metadata: { conflicting_registration_id: q2.id.toString() } });
      await update(a, q2.id, { status: 'excluded' });
      expect((await update(a, q1.id, { effectiveTo: '' })).registration!.effectiveTo).toBeUndefined();
      expect(await failure(update(a, q2.id, { status: 'active' }))).toMatchObject({ reason: 'registration_overlap', metadata: { conflicting_registration_id: q1.id.toString() } });
      expect(await failure(update(a, q2.id, { status: 'pending' }))).toMatchObject({ reason: 'registration_overlap' });
    });
  });

  describe('list order and coverage', () => {
    it('orders by effective_from descending, then id descending', async () => {
      const a = account();
      const old = await createAs(a, { ...UNION, effectiveFrom: '2022-01-01', effectiveTo: '2022-12-31' });
      const recent = await createAs(a, { ...UNION, effectiveFrom: '2025-01-01' });
      const iossSameStart = await createAs(a, { ...UNION, schemeType: 'ioss', effectiveFrom: '2025-01-01' });
      const mid = await createAs(a, { ...UNION, schemeType: 'non_union_oss', effectiveFrom: '2023-06-01' });
      expect((await list(a)).map((r) => r.id)).toEqual([iossSameStart.id, recent.id, mid.id, old.id]);
    });

    it('shows rows from before the overlap rule as cleanup_required until the duplicate is excluded or ended before the other begins', async () => {
      const a = account();
      const keep = await legacyRow(a.accountId, 'union_oss', '2024-01-01', null, 'active');
      const dup = await legacyRow(a.accountId, 'union_oss', '2024-01-01', null, 'active');
      const later = await legacyRow(a.accountId, 'union_oss', '2024-06-01', null, 'ended');
      const byId = async () => new Map((await list(a)).map((r) => [r.id, r]));
      let rows = await byId();
      expect(rows.get(keep)).toMatchObject({ coverageStatus: 'cleanup_required', countsTowardCoverage: false, conflictingRegistrationIds: [dup, later] });
      expect(rows.get(later)).toMatchObject({ coverageStatus: 'cleanup_required', conflictingRegistrationIds: [keep, dup] });
      // Any write of a conflicting row must resolve its conflict: an unrelated edit is refused.
      expect(await failure(svc().updateTaxRegistration({ id: keep.toString(), vatRegistrationNumber: 'DE123456789' }, h.as(a)))).toMatchObject({ reason: 'registration_overlap', metadata: { conflicting_registration_id: dup.toString() } });
      const excluded = (await svc().updateTaxRegistration({ id: dup.toString(), status: 'excluded' }, h.as(a))).registration!;
      expect(excluded).toMatchObject({ coverageStatus: 'excluded', countsTowardCoverage: false });
      // Ending with a window that still overlaps is refused; ending before the other begins resolves it.
      expect(await failure(svc().updateTaxRegistration({ id: keep.toString(), status: 'ended', effectiveTo: '2024-06-01' }, h.as(a)))).toMatchObject({ reason: 'registration_overlap', metadata: { conflicting_registration_id: later.toString() } });
      const ended = (await svc().updateTaxRegistration({ id: keep.toString(), status: 'ended', effectiveTo: '2024-05-31' }, h.as(a))).registration!;
      expect(ended).toMatchObject({ coverageStatus: 'counted', countsTowardCoverage: true, conflictingRegistrationIds: [] });
      rows = await byId();
      expect(rows.get(later)).toMatchObject({ coverageStatus: 'counted' });
    });
  });

  describe('ResolveUnionOssRegistration (for reports)', () => {
    const resolve = (who: { accountId: bigint }, periodKey: string) => svc().resolveUnionOssRegistration({ periodKey }, h.as(who));

    it('returns the one eligible registration with the quarter bounds', async () => {
      const a = account();
      const u = await createAs(a, { ...UNION, vatRegistrationNumber: 'DE123456789', effectiveFrom: '2024-05-15' });
      await createAs(a, { ...UNION, schemeType: 'ioss', effectiveFrom: '2024-01-01' });
      const r = await resolve(a, '2024-Q2');
      expect(r.registration).toMatchObject({ id: u.id, vatRegistrationNumberMasked: 'DE*****6789', coverageStatus: 'counted' });
      expect([r.periodStart, r.periodEnd]).toEqual(['2024-04-01', '2024-06-30']);
    });

    it('refuses with registration_required (422) when only pending, excluded or no rows cover the quarter', async () => {
      const a = account();
      expect(await failure(resolve(a, '2024-Q2'))).toMatchObject({ code: Code.FailedPrecondition, reason: 'registration_required', metadata: { blocking_registration_ids: '' } });
      const p = await createAs(a, { ...UNION, status: 'pending' });
      await createAs(a, { ...UNION, status: 'excluded' });
      expect(await failure(resolve(a, '2024-Q2'))).toMatchObject({ reason: 'registration_required', metadata: { blocking_registration_ids: p.id.toString() } });
      expect(await failure(resolve(account(), '2024-Q2'))).toMatchObject({ reason: 'registration_required' });
    });

    it('refuses with registration_conflict naming the rows when two cover the quarter or one needs cleanup', async () => {
      const a = account();
      const x = await createAs(a, { ...UNION, status: 'ended', effectiveTo: '2024-05-10' });
      const y = await createAs(a, { ...UNION, effectiveFrom: '2024-05-11' });
      expect(await failure(resolve(a, '2024-Q2'))).toMatchObject({ code: Code.FailedPrecondition, reason: 'registration_conflict', metadata: { blocking_registration_ids: `${x.id},${y.id}` } });
      expect((await resolve(a, '2024-Q1')).registration!.id).toBe(x.id);
      expect((await resolve(a, '2024-Q3')).registration!.id).toBe(y.id);
      const b = account();
      const one = await legacyRow(b.accountId, 'union_oss', '2024-01-01', null, 'active');
      const two = await legacyRow(b.accountId, 'union_oss', '2024-01-01', '2024-01-31', 'ended');
      expect(await failure(resolve(b, '2024-Q3'))).toMatchObject({ reason: 'registration_conflict', metadata: { blocking_registration_ids: `${one},${two}` } });
    });

    it.each(['', '2024', '2024-Q5', '2024-Q0', '2024-q1', '1899-Q1', '2024-Q1 '])('refuses period %j with invalid_period', async (period) => {
      expect(await failure(resolve(account(), period))).toMatchObject({ code: Code.InvalidArgument, reason: 'invalid_period' });
    });
  });

  describe('DATA_ENCRYPTION_KEY', () => {
    it('the service cannot be built without it, and says so', () => {
      const config = { ...h.deps.config, dataEncryptionKey: undefined };
      expect(() => complianceReportsContext({ ...h.deps, config })).toThrow(/DATA_ENCRYPTION_KEY is required to run the compliance-reports service/);
      expect(() => complianceReportsContext({ ...h.deps, config: { ...config, dataEncryptionKey: 'not-a-key' } })).toThrow(/must be 32 random bytes/);
    });
  });
});

const withNats = await requireBackends(['postgres', 'nats']);

describe.skipIf(!withNats.ok)('compliance-reports as its own process', () => {
  it('fails to start without DATA_ENCRYPTION_KEY, with a message naming it', async () => {
    const { freshDatabase } = await import('../../../test/support/env');
    const db = await freshDatabase();
    try {
      const config = loadConfig({ DATABASE_URL: db.url, NATS_URL: NATS_TEST_URL, LOG_LEVEL: 'silent', SERVICE_PORT: '0' });
      await expect(build('compliance-reports', config, pino({ level: 'silent' }))).rejects.toThrow(/DATA_ENCRYPTION_KEY is required to run the compliance-reports service/);
    } finally {
      await db.drop();
    }
  });
});
