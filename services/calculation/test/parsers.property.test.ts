import { create } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalculateRequestSchema, type CalculateRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { digestOf } from '@vat/platform/canonical-json';
import { reasonOf } from '@vat/platform/rpc-errors';
import { requireBackends } from '../../../test/support/env';
import { startHarness, type Harness } from '../../../test/support/harness';
import { canonicalize } from '../src/domain/canonical-request';
import type { CanonicalRequest } from '../src/evidence';

const EU27 = ['AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK'];
const MAX = 10n ** 15n;
const REASONS = new Set(['invalid_country', 'invalid_amount', 'invalid_idempotency_key', 'transaction_date_required_for_idempotency', 'invalid_source_id', 'invalid_transaction_date', 'invalid_currency']);
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

// ---- generators ------------------------------------------------------------------------------------
const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const instant = fc.date({ min: new Date('1900-01-02T00:00:00Z'), max: new Date('9999-12-30T00:00:00Z'), noInvalidDate: true });
const offsetMinutes = fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 });

/** An RFC 3339 rendering of `d` in a random offset with 0..9 fractional digits (digits beyond ms are random). */
const rfc3339 = fc.tuple(instant, offsetMinutes, fc.integer({ min: 0, max: 9 }), fc.stringMatching(/^[0-9]{6}$/), fc.boolean()).map(([d, off, frac, extra, useZ]) => {
  const local = new Date(d.getTime() + off * 60_000);
  const ms = pad(local.getUTCMilliseconds(), 3) + extra;
  const offset = off === 0 && useZ ? 'Z' : `${off < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)}`;
  const text = `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}${frac ? `.${ms.slice(0, frac)}` : ''}${offset}`;
  // expected: the instant with the fraction truncated to what was written (never rounded)
  const keptMs = frac >= 3 ? local.getUTCMilliseconds() : frac === 0 ? 0 : Number(ms.slice(0, frac).padEnd(3, '0'));
  const expected = new Date(d.getTime() - local.getUTCMilliseconds() + keptMs).toISOString();
  return { text, expected };
});

const dateText = fc.oneof(
  rfc3339.map((x) => x.text),
  instant.map((d) => d.toISOString().slice(0, 10)),
  fc.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
  fc.stringMatching(/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,12})?([Zz]|[+-]\d{2}:\d{2})?$/),
  fc.string({ maxLength: 45 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
);

const fuzzed = fc.record({
  country: fc.oneof(fc.constantFrom(...EU27), fc.constantFrom('EL', 'XX', 'de', 'GB', 'US', '', 'DEU'), fc.string({ maxLength: 4 })),
  currency: fc.oneof(fc.constantFrom('EUR', 'USD', 'JPY', 'HRK', 'BGN', 'SEK', 'XXX', 'XAU', 'XTS', 'eur', 'ABC', ''), fc.stringMatching(/^[A-Z]{3}$/), fc.string({ maxLength: 4 })),
  taxClassId: fc.oneof(fc.constantFrom('standard', 'books'), fc.string({ maxLength: 8 })),
  amountMinor: fc.oneof(fc.bigInt({ min: 0n, max: MAX }), fc.constantFrom(-1n, 0n, MAX, MAX + 1n, 2n ** 63n, -(2n ** 63n)), fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n })),
  priceIncludesVat: fc.boolean(),
  transactionDate: fc.option(dateText, { nil: undefined }),
  idempotencyKey: fc.option(fc.oneof(fc.stringMatching(/^[\x21-\x7e]{1,255}$/), fc.string({ maxLength: 300 }), fc.constant(''), fc.constant('k'.repeat(256))), { nil: undefined }),
  sourceId: fc.option(fc.oneof(fc.stringMatching(/^[A-Za-z0-9_\-/]{1,100}$/), fc.string({ maxLength: 120 }), fc.constant('')), { nil: undefined }),
});

/** Mostly well-formed requests, each field occasionally replaced by a fuzzed one. */
const wellFormed = fc.record({
  country: fc.constantFrom(...EU27),
  currency: fc.constantFrom('EUR', 'USD', 'JPY', 'SEK', 'PLN', 'CHF'),
  taxClassId: fc.constantFrom('standard', 'books', 'food'),
  amountMinor: fc.bigInt({ min: 0n, max: MAX }),
  priceIncludesVat: fc.boolean(),
  transactionDate: fc.option(
    fc.oneof(
      rfc3339.filter((x) => x.expected >= '1999-01-01' && x.expected < '9999').map((x) => x.text),
      fc.date({ min: new Date('1999-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
    ),
    { nil: undefined },
  ),
  idempotencyKey: fc.constant(undefined),
  sourceId: fc.option(fc.stringMatching(/^[A-Za-z0-9_\-/]{1,100}$/), { nil: undefined }),
}).chain((r) =>
  fc.record({
    keyed: fc.boolean(),
    key: fc.stringMatching(/^[\x21-\x7e]{1,255}$/),
    mutate: fc.option(fuzzed, { nil: undefined, freq: 3 }),
    field: fc.constantFrom('country', 'currency', 'amountMinor', 'transactionDate', 'idempotencyKey', 'sourceId') as fc.Arbitrary<keyof typeof r>,
  }).map(({ keyed, key, mutate, field }) => {
    const out = { ...r, idempotencyKey: keyed && r.transactionDate !== undefined ? key : undefined };
    return mutate ? { ...out, [field]: mutate[field] } : out;
  }),
);

const requestLike = fc.oneof(wellFormed, fuzzed);

const toRequest = (r: Omit<CalculateRequest, '$typeName'>) => create(CalculateRequestSchema, r);

/** Runs canonicalize; a ConnectError with a known reason is a rejection, anything else fails the property. */
function run(req: CalculateRequest, now: Date): { ok: true; value: CanonicalRequest } | { ok: false; reason: string } {
  try {
    return { ok: true, value: canonicalize(req, now) };
  } catch (err) {
    if (!(err instanceof ConnectError)) throw new Error(`canonicalize threw a non-ConnectError: ${String(err)}`);
    expect(err.code).toBe(Code.InvalidArgument);
    const reason = reasonOf(err);
    expect(REASONS.has(reason ?? '')).toBe(true);
    return { ok: false, reason: reason! };
  }
}

describe('canonicalize (property-based)', () => {
  const NOW = new Date('2025-03-04T05:06:07.089Z');

  it('never throws anything but an InvalidArgument ConnectError with a registered reason', () => {
    fc.assert(
      fc.property(requestLike, (r) => {
        run(toRequest(r), NOW);
      }),
      { numRuns: 3000 },
    );
  });

  it('accepted requests come out canonical', () => {
    let accepted = 0;
    fc.assert(
      fc.property(requestLike, (r) => {
        const out = run(toRequest(r), NOW);
        if (!out.ok) return;
        accepted++;
        const c = out.value;
        expect(Object.keys(c).sort()).toEqual(['amount_minor', 'country', 'currency', 'price_includes_vat', 'schema', 'source_id', 'tax_class_id', 'transaction_date']);
        expect(c.schema).toBe('vat-calculate-request/v1');
        expect(EU27).toContain(c.country);
        expect(c.currency).toMatch(/^[A-Z]{3}$/);
        expect(c.amount_minor).toMatch(/^(0|[1-9]\d*)$/);
        expect(BigInt(c.amount_minor)).toBe(r.amountMinor);
        expect(r.amountMinor >= 0n && r.amountMinor <= MAX).toBe(true);
        expect(c.price_includes_vat).toBe(r.priceIncludesVat);
        expect(c.tax_class_id).toBe(r.taxClassId);
        expect(c.source_id).toBe(r.sourceId ?? null);
        if (r.sourceId !== undefined) expect(r.sourceId).toMatch(/^[A-Za-z0-9_\-/]{1,100}$/);
        if (r.idempotencyKey !== undefined) {
          expect(r.idempotencyKey).toMatch(/^[\x21-\x7e]{1,255}$/);
          expect(r.transactionDate).toBeDefined();
        }
        expect(c.transaction_date).toMatch(ISO_MS);
        expect(new Date(c.transaction_date).toISOString()).toBe(c.transaction_date);
        const year = Number(c.transaction_date.slice(0, 4));
        expect(year >= 1900 && year <= 9999).toBe(true);
        if (r.transactionDate === undefined) expect(c.transaction_date).toBe(NOW.toISOString());
      }),
      { numRuns: 3000 },
    );
    // the generators must reach the accepting branch often enough for the property to mean something
    expect(accepted).toBeGreaterThan(600);
  });

  it('is idempotent: feeding the canonical form back gives the same canonical form (at any other time)', () => {
    fc.assert(
      fc.property(requestLike, instant, (r, later) => {
        const out = run(toRequest(r), NOW);
        if (!out.ok) return;
        const c = out.value;
        const again = run(
          toRequest({
            country: c.country,
            currency: c.currency,
            taxClassId: c.tax_class_id,
            amountMinor: BigInt(c.amount_minor),
            priceIncludesVat: c.price_includes_vat,
            transactionDate: c.transaction_date,
            idempotencyKey: r.idempotencyKey,
            sourceId: c.source_id ?? undefined,
          }),
          later,
        );
        expect(again).toEqual({ ok: true, value: c });
        expect(digestOf(again.ok ? again.value : null)).toBe(digestOf(c));
      }),
      { numRuns: 2000 },
    );
  });

  it('every RFC 3339 rendering of an instant resolves to that instant in UTC, fraction truncated to milliseconds', () => {
    fc.assert(
      fc.property(rfc3339, ({ text, expected }) => {
        const out = run(toRequest({ country: 'DE', currency: 'EUR', taxClassId: 'standard', amountMinor: 1n, priceIncludesVat: false, transactionDate: text }), NOW);
        const y = Number(expected.slice(0, 4));
        if (y < 1900 || y > 9999) return; // outside the accepted UTC year range
        // EUR exists from 1999-01-01: earlier instants parse but the currency is refused for that date
        if (expected < '1999-01-01') expect(out).toEqual({ ok: false, reason: 'invalid_currency' });
        else expect(out).toEqual({ ok: true, value: expect.objectContaining({ transaction_date: expected }) });
      }),
      { numRuns: 3000 },
    );
  });

  it('a date-only value is midnight UTC; an impossible calendar date is rejected', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1900, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), (y, m, d) => {
        const text = `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
        const real = new Date(Date.UTC(y, m - 1, d));
        const exists = real.getUTCFullYear() === y && real.getUTCMonth() === m - 1 && real.getUTCDate() === d;
        const out = run(toRequest({ country: 'DE', currency: 'EUR', taxClassId: 'standard', amountMinor: 1n, priceIncludesVat: false, transactionDate: text }), NOW);
        if (exists && y < 1999) expect(out).toEqual({ ok: false, reason: 'invalid_currency' });
        else if (exists) expect(out).toEqual({ ok: true, value: expect.objectContaining({ transaction_date: `${text}T00:00:00.000Z` }) });
        else expect(out).toEqual({ ok: false, reason: 'invalid_transaction_date' });
      }),
      { numRuns: 3000 },
    );
  });

  it('amounts outside 0..10^15 are rejected with invalid_amount', () => {
    fc.assert(
      fc.property(fc.oneof(fc.bigInt({ max: -1n }), fc.bigInt({ min: MAX + 1n })), (amount) => {
        const out = run(toRequest({ country: 'DE', currency: 'EUR', taxClassId: 'standard', amountMinor: amount, priceIncludesVat: true, transactionDate: '2024-01-01' }), NOW);
        expect(out).toEqual({ ok: false, reason: 'invalid_amount' });
      }),
      { numRuns: 1000 },
    );
  });
});

// ---- arithmetic invariants through the API ------------------------------------------------------------
const backends = await requireBackends(['postgres']);

/** Independent half-up oracle. */
function oracle(amount: bigint, bps: bigint, includes: boolean) {
  const n = amount * bps;
  const d = includes ? 10000n + bps : 10000n;
  const vat = n / d + (2n * (n % d) >= d ? 1n : 0n);
  return includes ? { net: amount - vat, vat, gross: amount } : { net: amount, vat, gross: amount + vat };
}

describe.skipIf(!backends.ok)('calculation arithmetic through the API (property-based)', () => {
  let h: Harness;
  let key: string;
  // (country, class, date) with plain source-cited rates: 0, 550, 1000, 1600, 1900, 2550, 2700 bps
  const RATES = [
    { country: 'CZ', tax_class_id: 'books', date: '2024-06-01', bps: 0 },
    { country: 'FR', tax_class_id: 'food', date: '2024-06-01', bps: 550 },
    { country: 'AT', tax_class_id: 'pharma', date: '2024-06-01', bps: 1000 },
    { country: 'DE', tax_class_id: 'standard', date: '2020-10-01', bps: 1600 },
    { country: 'DE', tax_class_id: 'standard', date: '2024-06-01', bps: 1900 },
    { country: 'FI', tax_class_id: 'standard', date: '2025-01-01', bps: 2550 },
    { country: 'HU', tax_class_id: 'standard', date: '2024-06-01', bps: 2700 },
  ];
  const amount = fc.oneof(fc.bigInt({ min: 0n, max: 1000n }), fc.bigInt({ min: 0n, max: 10n ** 9n }), fc.bigInt({ min: 0n, max: MAX }), fc.constantFrom(0n, 1n, MAX));
  const calc = async (rate: (typeof RATES)[number], a: bigint, includes: boolean) => {
    const r = await h.inject({
      method: 'POST',
      url: '/v1/vat/calculate',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      payload: `{"country":"${rate.country}","currency":"EUR","tax_class_id":"${rate.tax_class_id}","gross_amount_minor":${a},"price_includes_vat":${includes},"transaction_date":"${rate.date}"}`,
    });
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as { vat_rate_bps: number; net_amount_minor: number; vat_amount_minor: number; gross_amount_minor: number };
  };

  beforeAll(async () => {
    h = await startHarness();
    key = (await h.key('prop-arith', 'full')).key;
  });
  afterAll(async () => h?.close());

  it('gross = net + vat, none negative, the input amount is kept, and the result matches an independent oracle', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...RATES), amount, fc.boolean(), async (rate, a, includes) => {
        const r = await calc(rate, a, includes);
        expect(r.vat_rate_bps).toBe(rate.bps);
        for (const v of [r.net_amount_minor, r.vat_amount_minor, r.gross_amount_minor]) {
          expect(Number.isSafeInteger(v)).toBe(true);
          expect(v).toBeGreaterThanOrEqual(0);
        }
        const [net, vat, gross] = [BigInt(r.net_amount_minor), BigInt(r.vat_amount_minor), BigInt(r.gross_amount_minor)];
        expect(gross).toBe(net + vat);
        expect(includes ? gross : net).toBe(a);
        expect({ net, vat, gross }).toEqual(oracle(a, BigInt(rate.bps), includes));
      }),
      { numRuns: 150 },
    );
  });

  it('exclude-then-include round trip returns the same net and VAT (manifest round_trip rule)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...RATES), fc.bigInt({ min: 0n, max: 7n * 10n ** 14n }), async (rate, a) => {
        const excl = await calc(rate, a, false);
        fc.pre(BigInt(excl.gross_amount_minor) <= MAX);
        const incl = await calc(rate, BigInt(excl.gross_amount_minor), true);
        expect([incl.net_amount_minor, incl.vat_amount_minor]).toEqual([excl.net_amount_minor, excl.vat_amount_minor]);
      }),
      { numRuns: 60 },
    );
  });
});
