import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal } from '../../services/classification/test/support';
import { requireBackends } from '../../test/support/env';
import { startHarness, type Harness } from '../../test/support/harness';
import { SEED_RELEASE, seedRelease, TreatmentDesk } from '../../gateway/test/governed-support';
import { activateTreatmentRelease, listTreatmentReleases } from './treatment-admin';

const backends = await requireBackends(['postgres']);

describe.skipIf(!backends.ok)('treatment-release workflow (admin CLI functions, four eyes, audited)', () => {
  let h: Harness;
  let desk: TreatmentDesk;
  beforeAll(async () => {
    h = await startHarness();
    desk = new TreatmentDesk(h);
    await desk.enrol();
  });
  afterAll(async () => {
    await desk?.close();
    await h?.close();
  });

  const activate = (id: string, operator: string, totp: string) => activateTreatmentRelease(desk.deps, { id, operator, totp });

  it('imports a candidate that seals the stored VAT rate release, and lists it', async () => {
    const c = await desk.import();
    const rate = (await desk.pool.query(`select digest from calculation.reference_release where kind = 'vat_rates' order by id desc limit 1`)).rows[0].digest;
    expect(c).toMatchObject({ status: 'candidate', rate_release_digest: rate, imported_by: 'alice', jurisdictions: 27, legal_from: '2021-07-01', legal_to: null });
    expect((await listTreatmentReleases(desk.deps)).map((r) => r.id)).toContain(c.id);
  });

  it('refuses an unknown operator, an invalid file, the importer, a wrong, stale or reused code, and an activated release', async () => {
    expect(await refusal(desk.import(SEED_RELEASE, 'mallory'))).toBe('unknown_operator');
    const bad = seedRelease();
    bad.rules = [];
    expect(await refusal(desk.import(bad))).toBe('invalid_release');
    const c = await desk.import();
    expect(await refusal(activate(c.id, 'alice', desk.w.code('alice')))).toBe('four_eyes_violation');
    desk.w.nextStep();
    expect(await refusal(activate(c.id, 'bob', '000000' === desk.w.code('bob') ? '111111' : '000000'))).toBe('totp_invalid');
    expect(await refusal(activate(c.id, 'bob', desk.w.code('bob', -1)))).toBe('totp_stale');
    const code = desk.w.code('bob');
    const ok = await activate(c.id, 'bob', code);
    expect(ok).toMatchObject({ status: 'active', activated_by: 'bob' });
    const other = await desk.import();
    expect(await refusal(activate(other.id, 'bob', code))).toBe('totp_reused');
    desk.w.nextStep();
    expect(await refusal(activate(c.id, 'bob', desk.w.code('bob')))).toBe('not_a_candidate');
    expect(await refusal(activate('999999', 'bob', desk.w.code('bob')))).toBe('candidate_not_found');
    const audit = await desk.w.deps.operators.auditLog({ limit: 50 });
    for (const reason of ['unknown_operator', 'invalid_release', 'four_eyes_violation', 'totp_invalid', 'totp_stale', 'totp_reused', 'not_a_candidate', 'candidate_not_found']) {
      expect(audit.some((e) => e.reason === reason && e.outcome === 'refused'), reason).toBe(true);
    }
  });

  it('refuses to activate a candidate whose stored content changed since import (candidates are not sealed yet)', async () => {
    const c = await desk.import();
    await desk.pool.query(`update calculation.treatment_release set content = jsonb_set(content, '{legal_from}', '"2019-01-01"') where id = $1`, [c.id]);
    expect(await refusal(desk.activate(c.id))).toBe('candidate_tampered');
  });
});
