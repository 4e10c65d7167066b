import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBackends } from '../../../test/support/env';
import { startHarness, type Harness } from '../../../test/support/harness';
import { ALGORITHM_MANIFEST, ALGORITHM_MANIFEST_DIGEST, EXECUTION_DIGEST } from '../src/domain/algorithm-manifest';

const backends = await requireBackends(['postgres']);

// ---- independent view of the shipped rate seeds (read straight from the JSON files) ----------------
type SeedRow = { tax_class_id: string; rate_bps: number; valid_from: string; valid_to: string | null; conditional: boolean; review_status: string; source_ids: string[] };
type SeedFile = { country: string; sources: { id: string; title: string; url: string; as_of: string }[]; rates: SeedRow[] };
const SEED_DIR = new URL('../../../seeds/vat-rates/', import.meta.url);
const SEEDS: SeedFile[] = readdirSync(SEED_DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(new URL(f, SEED_DIR), 'utf8')) as SeedFile);
const CLASS_IDS: string[] = (JSON.parse(readFileSync(new URL('../../../seeds/tax-classes/tax-classes.json', import.meta.url), 'utf8')) as { classes: { id: string }[] }).classes.map((c) => c.id);

/** A plain (unconditional, source-cited) window with this rate, and a date inside it. */
function servableWindowWithRate(bps: number): { country: string; taxClassId: string; date: string } | undefined {
  for (const f of SEEDS) {
    for (const r of f.rates) {
      if (r.rate_bps === bps && !r.conditional && r.review_status === 'source_cited') return { country: f.country, taxClassId: r.tax_class_id, date: r.valid_from };
    }
  }
  return undefined;
}

const CONDITIONAL = (() => {
  for (const f of SEEDS) for (const r of f.rates) if (r.conditional) return { country: f.country, taxClassId: r.tax_class_id, date: r.valid_from };
  throw new Error('no conditional seed row');
})();

const ABSENT = (() => {
  for (const f of SEEDS) for (const id of CLASS_IDS) if (!f.rates.some((r) => r.tax_class_id === id)) return { country: f.country, taxClassId: id };
  throw new Error('every (country, class) has a row');
})();

/** Independent half-up oracle: quotient plus one when the remainder is at least half the divisor. */
function oracle(amount: bigint, bps: bigint, includes: boolean) {
  const n = amount * bps;
  const d = includes ? 10000n + bps : 10000n;
  const q = n / d;
  const vat = 2n * (n % d) >= d ? q + 1n : q;
  return includes ? { net: amount - vat, vat, gross: amount } : { net: amount, vat, gross: amount + vat };
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const DIGEST_RE = /^sha256:[0-9a-f]{64}$/;

const body = (over: Record<string, unknown> = {}) => ({
  country: 'DE',
  currency: 'EUR',
  tax_class_id: 'standard',
  gross_amount_minor: 10000,
  price_includes_vat: false,
  transaction_date: '2024-06-01',
  ...over,
});

describe.skipIf(!backends.ok)('POST /v1/vat/calculate (REST, PostgreSQL)', () => {
  let h: Harness;
  let full: string;
  let errKey: string;

  const calc = (key: string, payload: unknown, headers: Record<string, string> = {}) =>
    h.inject({ method: 'POST', url: '/v1/vat/calculate', headers: { 'x-api-key': key, 'content-type': 'application/json', ...headers }, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) });

  const countStored = async (key: string) => {
    const r = await h.inject({ method: 'GET', url: '/v1/transactions?limit=500', headers: { 'x-api-key': key } });
    expect(r.statusCode).toBe(200);
    return (r.json().items as unknown[]).length;
  };

  /** Sends a request that must be rejected with `status`/`code`, and checks that nothing got stored. */
  async function rejects(payload: unknown, status: number, code: string, headers: Record<string, string> = {}) {
    const before = await countStored(errKey);
    const res = await calc(errKey, payload, headers);
    expect({ status: res.statusCode, error: res.json().error }).toEqual({ status, error: code });
    expect(typeof res.json().detail).toBe('string');
    expect(await countStored(errKey)).toBe(before);
    return res.json();
  }

  beforeAll(async () => {
    h = await startHarness();
    full = (await h.key('calc-acme', 'full')).key;
    errKey = (await h.key('calc-errors', 'full')).key;
    // one stored row so that "unchanged" is not trivially "still empty"
    expect((await calc(errKey, body())).statusCode).toBe(200);
  });
  afterAll(async () => h?.close());

  describe('success shape', () => {
    it('returns every field of the v1 calculation result with the registered provenance', async () => {
      const before = Date.now();
      const res = await calc(full, body());
      const after = Date.now();
      expect(res.statusCode).toBe(200);
      const r = res.json();
      expect(Object.keys(r).sort()).toEqual(
        ['calculation_id', 'calculation_provenance', 'country', 'currency', 'gross_amount_minor', 'net_amount_minor', 'rate_provenance', 'transaction_date', 'vat_amount_minor', 'vat_rate_bps'].sort(),
      );
      expect(r).toMatchObject({
        country: 'DE',
        currency: 'EUR',
        vat_rate_bps: 1900,
        net_amount_minor: 10000,
        vat_amount_minor: 1900,
        gross_amount_minor: 11900,
        transaction_date: '2024-06-01T00:00:00.000Z',
      });
      expect(r.calculation_id).toMatch(UUID_RE);
      // A UUID version 7 (docs/calculation.md): its first 48 bits are the milliseconds it was made at.
      expect(r.calculation_id[14]).toBe('7');
      const madeAt = parseInt(r.calculation_id.replace(/-/g, '').slice(0, 12), 16);
      expect(madeAt).toBeGreaterThanOrEqual(before);
      expect(madeAt).toBeLessThanOrEqual(after);

      const rp = r.rate_provenance;
      expect(rp.schema_version).toBe('rate-evidence/v1');
      expect(['verified', 'legacy_unverifiable']).toContain(rp.evidence_status);
      expect(typeof rp.source).toBe('string');
      expect(rp.source.length).toBeGreaterThan(0);
      expect(rp.effective_at).toBe('2024-06-01T00:00:00.000Z');
      expect(Array.isArray(rp.source_evidence)).toBe(true);
      // the cited sources are exactly those of the seed row in force (DE standard from 2021-01-01)
      const de = SEEDS.find((f) => f.country === 'DE')!;
      const row = de.rates.find((x) => x.tax_class_id === 'standard' && x.valid_from <= '2024-06-01' && (x.valid_to === null || '2024-06-01' < x.valid_to))!;
      expect(rp.source_evidence.map((s: { source_id: string }) => s.source_id)).toEqual(row.source_ids);
      for (const s of rp.source_evidence) {
        const seed = de.sources.find((x) => x.id === s.source_id)!;
        expect(s).toMatchObject({ title: seed.title, url: seed.url, as_of: seed.as_of });
      }
      if (rp.evidence_status === 'verified') {
        expect(rp.rate_release_digest).toMatch(DIGEST_RE);
        expect(rp.rate_row_digest).toMatch(DIGEST_RE);
        expect(rp.snapshot_references.length).toBeGreaterThan(0);
      }

      expect(r.calculation_provenance).toEqual({
        schema_version: 'calculation-evidence/v1',
        calculation_version: 'vat-calculator-half-up/v1',
        execution_digest: EXECUTION_DIGEST,
        algorithm_manifest_version: 'vat-algorithm-manifest/v1',
        algorithm_manifest_digest: ALGORITHM_MANIFEST_DIGEST,
        ownership: 'tenant_owned',
        evidence_status: 'captured',
        replay_status: 'available',
      });
      expect(EXECUTION_DIGEST).toMatch(DIGEST_RE);
      expect(ALGORITHM_MANIFEST_DIGEST).toMatch(DIGEST_RE);
    });

    it('calculation_id is the id of the stored transaction', async () => {
      const r = (await calc(full, body({ gross_amount_minor: 777 }))).json();
      const detail = await h.inject({ method: 'GET', url: `/v1/transactions/${r.calculation_id}`, headers: { 'x-api-key': full } });
      expect(detail.statusCode).toBe(200);
      expect(detail.json()).toMatchObject({ id: r.calculation_id, net_amount_minor: 777, vat_amount_minor: 148, gross_amount_minor: 925, vat_rate_bps: 1900, country: 'DE' });
      const list = await h.inject({ method: 'GET', url: '/v1/transactions?limit=1', headers: { 'x-api-key': full } });
      expect(list.json().items[0].id).toBe(r.calculation_id);
    });

    it('a legacy key gets an unowned, unstored result with calculation_id null', async () => {
      const legacy = await h.key('calc-legacy', 'full', true);
      const r = await calc(legacy.key, body());
      expect(r.statusCode).toBe(200);
      expect(r.json().calculation_id).toBeNull();
      expect(r.json().calculation_provenance).toMatchObject({ ownership: 'unowned_compatibility', replay_status: 'ineligible' });
      expect(r.json().vat_amount_minor).toBe(1900);
      const rows = await h.inject({ method: 'GET', url: '/v1/transactions', headers: { 'x-api-key': legacy.key } });
      expect(rows.statusCode).toBe(403);
    });

    it('a read-only key cannot calculate', async () => {
      const ro = await h.key('calc-acme', 'read-only');
      const r = await calc(ro.key, body());
      expect(r.statusCode).toBe(403);
    });
  });

  describe('amounts (vat-calculator-half-up/v1)', () => {
    const cases: [string, number, boolean, { net: number; vat: number; gross: number }][] = [
      ['net 10000 at 19 %', 10000, false, { net: 10000, vat: 1900, gross: 11900 }],
      ['gross 11900 at 19 %', 11900, true, { net: 10000, vat: 1900, gross: 11900 }],
      ['tie 50 * 0.19 = 9.5 rounds up', 50, false, { net: 50, vat: 10, gross: 60 }],
      ['tie 150 * 0.19 = 28.5 rounds up', 150, false, { net: 150, vat: 29, gross: 179 }],
      ['49 * 0.19 = 9.31 rounds down', 49, false, { net: 49, vat: 9, gross: 58 }],
      ['gross 16 incl: 2.5546 -> 3', 16, true, { net: 13, vat: 3, gross: 16 }],
      ['gross 1 incl: 0.16 -> 0', 1, true, { net: 1, vat: 0, gross: 1 }],
      ['zero amount', 0, true, { net: 0, vat: 0, gross: 0 }],
      ['max amount excl', 1e15, false, { net: 1e15, vat: 19e13, gross: 119e13 }],
    ];
    it.each(cases)('DE 1900: %s', async (_name, amount, includes, want) => {
      const r = (await calc(full, body({ gross_amount_minor: amount, price_includes_vat: includes }))).json();
      expect({ net: r.net_amount_minor, vat: r.vat_amount_minor, gross: r.gross_amount_minor }).toEqual(want);
      const o = oracle(BigInt(amount), 1900n, includes);
      expect({ net: BigInt(r.net_amount_minor), vat: BigInt(r.vat_amount_minor), gross: BigInt(r.gross_amount_minor) }).toEqual(o);
    });

    it('exact halves round up when VAT is extracted (AT 2000: gross 3 -> vat 0.5 -> 1; gross 9 -> 1.5 -> 2)', async () => {
      const a = (await calc(full, body({ country: 'AT', gross_amount_minor: 3, price_includes_vat: true }))).json();
      expect([a.vat_rate_bps, a.net_amount_minor, a.vat_amount_minor, a.gross_amount_minor]).toEqual([2000, 2, 1, 3]);
      const b = (await calc(full, body({ country: 'AT', gross_amount_minor: 9, price_includes_vat: true }))).json();
      expect([b.net_amount_minor, b.vat_amount_minor, b.gross_amount_minor]).toEqual([7, 2, 9]);
    });
  });

  describe('frozen fixtures of the algorithm manifest through the API', () => {
    const runnable = ALGORITHM_MANIFEST.frozen_fixtures
      .map((f) => ({ f, at: servableWindowWithRate(f.rate_bps) }))
      .filter((x): x is { f: (typeof ALGORITHM_MANIFEST.frozen_fixtures)[number]; at: NonNullable<ReturnType<typeof servableWindowWithRate>> } => x.at !== undefined);

    it('covers at least the 1900, 2000, 2100 and 2550 bps fixtures', () => {
      const bps = new Set(runnable.map((x) => x.f.rate_bps));
      for (const b of [1900, 2000, 2100, 2550]) expect(bps.has(b)).toBe(true);
      expect(runnable.length).toBeGreaterThanOrEqual(20);
    });

    it.each(runnable.map((x) => [x.f.id, x] as const))('%s', async (_id, { f, at }) => {
      const res = await calc(full, {
        country: at.country,
        currency: 'EUR',
        tax_class_id: at.taxClassId,
        gross_amount_minor: f.amount_minor,
        price_includes_vat: f.price_includes_vat,
        transaction_date: at.date,
      });
      expect(res.statusCode).toBe(200);
      const r = res.json();
      expect(r.vat_rate_bps).toBe(f.rate_bps);
      expect({ net_minor: r.net_amount_minor, vat_minor: r.vat_amount_minor, gross_minor: r.gross_amount_minor }).toEqual(f.expected);
    });
  });

  describe('transaction_date', () => {
    it('a date-only value resolves to midnight UTC', async () => {
      const r = (await calc(full, body({ transaction_date: '2021-03-04' }))).json();
      expect(r.transaction_date).toBe('2021-03-04T00:00:00.000Z');
      expect(r.rate_provenance.effective_at).toBe('2021-03-04T00:00:00.000Z');
    });

    it('an RFC 3339 value with an offset is normalised to UTC', async () => {
      const r = (await calc(full, body({ transaction_date: '2024-06-01T01:30:00.123456+02:00' }))).json();
      expect(r.transaction_date).toBe('2024-05-31T23:30:00.123Z');
    });

    it('the rate window is chosen by the UTC date, not the local date (DE 16 % ended 2021-01-01)', async () => {
      // local 2021-01-01 00:30 in Berlin is 2020-12-31 23:30 UTC, still inside the 16 % window
      const r = (await calc(full, body({ transaction_date: '2021-01-01T00:30:00+01:00' }))).json();
      expect(r.transaction_date).toBe('2020-12-31T23:30:00.000Z');
      expect(r.vat_rate_bps).toBe(1600);
      const z = (await calc(full, body({ transaction_date: '2021-01-01T00:00:00Z' }))).json();
      expect(z.vat_rate_bps).toBe(1900);
    });

    it('defaults to the current time', async () => {
      const before = Date.now();
      const res = await calc(full, { country: 'DE', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 100, price_includes_vat: false });
      const after = Date.now();
      expect(res.statusCode).toBe(200);
      const t = Date.parse(res.json().transaction_date);
      expect(res.json().transaction_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(t).toBeGreaterThanOrEqual(before - 1000);
      expect(t).toBeLessThanOrEqual(after + 1000);
    });
  });

  describe('validation errors store nothing', () => {
    it('400 missing_price_includes_vat when omitted or null', async () => {
      const { price_includes_vat: _drop, ...without } = body();
      await rejects(without, 400, 'missing_price_includes_vat');
      await rejects(body({ price_includes_vat: null }), 400, 'missing_price_includes_vat');
    });

    it('400 invalid_price_includes_vat for a non-boolean', async () => {
      await rejects(body({ price_includes_vat: 'true' }), 400, 'invalid_price_includes_vat');
      await rejects(body({ price_includes_vat: 1 }), 400, 'invalid_price_includes_vat');
    });

    it.each(['XX', 'de', 'EL', 'US', 'DEU', ''])('400 invalid_country for %j', async (country) => {
      await rejects(body({ country }), 400, 'invalid_country');
    });

    it.each(['XXX', 'XTS', 'XAU', 'eur', 'EU', 'EURO', 'ABC'])('400 invalid_currency for %j', async (currency) => {
      await rejects(body({ currency }), 400, 'invalid_currency');
    });

    it('400 invalid_currency for a currency no longer valid on the transaction date (HRK in 2023)', async () => {
      await rejects(body({ country: 'HR', currency: 'HRK', transaction_date: '2023-01-01' }), 400, 'invalid_currency');
      expect((await calc(full, body({ country: 'HR', currency: 'HRK', transaction_date: '2022-12-31' }))).statusCode).toBe(200);
    });

    it('400 unknown_tax_class', async () => {
      await rejects(body({ tax_class_id: 'no_such_class' }), 400, 'unknown_tax_class');
    });

    it.each([
      ['negative', '-1'],
      ['fraction', '1.5'],
      ['above 10^15', '1e16'],
      ['10^15 + 1', '1000000000000001'],
      ['string', '"100"'],
      ['2^63', '9223372036854775808'],
      ['null', 'null'],
    ])('400 invalid_amount: %s', async (_name, literal) => {
      const raw = JSON.stringify(body()).replace('"gross_amount_minor":10000', `"gross_amount_minor":${literal}`);
      expect(raw).toContain(`"gross_amount_minor":${literal}`);
      await rejects(raw, 400, 'invalid_amount');
    });

    it.each(['2023-02-29', 'garbage', '2024-13-01', '2024-06-01T25:00:00Z', '2024-06-01 10:00:00Z', '2024-06-01T10:00:00'])('400 invalid_transaction_date for %j', async (d) => {
      await rejects(body({ transaction_date: d }), 400, 'invalid_transaction_date');
    });

    it('400 invalid_source_id for a space or 101 characters', async () => {
      await rejects(body(), 400, 'invalid_source_id', { 'x-source-id': 'has space' });
      await rejects(body(), 400, 'invalid_source_id', { 'x-source-id': 'a'.repeat(101) });
      await rejects(body(), 400, 'invalid_source_id', { 'x-source-id': 'shop.de' });
    });

    it('accepts a 100-character source id made of the allowed characters', async () => {
      const res = await calc(full, body(), { 'x-source-id': `A-z_0/${'b'.repeat(94)}` });
      expect(res.statusCode).toBe(200);
    });

    it('400 invalid_idempotency_key for 256 characters or non-ASCII', async () => {
      await rejects(body(), 400, 'invalid_idempotency_key', { 'idempotency-key': 'k'.repeat(256) });
      await rejects(body(), 400, 'invalid_idempotency_key', { 'idempotency-key': 'clé-ü' });
      await rejects(body(), 400, 'invalid_idempotency_key', { 'idempotency-key': 'two words' });
    });

    it('400 transaction_date_required_for_idempotency', async () => {
      const { transaction_date: _d, ...noDate } = body();
      await rejects(noDate, 400, 'transaction_date_required_for_idempotency', { 'idempotency-key': 'needs-a-date' });
    });

    it('400 unknown_field', async () => {
      await rejects(body({ vat_rate_bps: 0 }), 400, 'unknown_field');
      await rejects(body({ calculation_version: 'vat-calculator-half-up/v0' }), 400, 'unknown_field');
    });

    it('400 invalid_json for a body that is not JSON', async () => {
      await rejects('{"country":', 400, 'invalid_json');
    });
  });

  describe('422 with guidance to v2', () => {
    it('for a conditional rate row', async () => {
      const b = await rejects(body({ country: CONDITIONAL.country, tax_class_id: CONDITIONAL.taxClassId, transaction_date: CONDITIONAL.date }), 422, 'conditional_rate');
      expect(b.guidance).toBe('/v2/vat/calculate');
      expect(b.detail).toContain('/v2/vat/calculate');
    });

    it('for a (country, class) without any rate row', async () => {
      const b = await rejects(body({ country: ABSENT.country, tax_class_id: ABSENT.taxClassId }), 422, 'rate_unavailable');
      expect(b.guidance).toBe('/v2/vat/calculate');
    });

    it('for a date before the rate coverage', async () => {
      const b = await rejects(body({ transaction_date: '2010-01-01' }), 422, 'rate_unavailable');
      expect(b.guidance).toBe('/v2/vat/calculate');
    });
  });
});
