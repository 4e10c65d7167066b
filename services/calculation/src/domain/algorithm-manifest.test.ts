import { describe, expect, it } from 'vitest';
import { canonicalJson, digestOf } from '@vat/platform/canonical-json';
import {
  ALGORITHM_MANIFEST,
  ALGORITHM_MANIFEST_DIGEST,
  ALGORITHM_MANIFEST_VERSION,
  CALCULATION_CONTRACT,
  EXECUTION_DIGEST,
  type FrozenFixture,
} from './algorithm-manifest';
import { CALCULATION_VERSION, calculateVat, type VatInput, type VatResult } from './calculator';

interface FixtureFailure {
  readonly id: string;
  readonly expected: FrozenFixture['expected'];
  /** The calculator's result, or null when it threw. */
  readonly actual: { net_minor: number; vat_minor: number; gross_minor: number } | null;
  readonly error?: string;
}

/** Runs every frozen fixture through `calc` (default: the registered calculator). */
function verifyFrozenFixtures(
  calc: (input: VatInput) => VatResult = calculateVat,
): { ok: boolean; failures: FixtureFailure[] } {
  const failures: FixtureFailure[] = [];
  for (const f of ALGORITHM_MANIFEST.frozen_fixtures) {
    try {
      const r = calc({
        amountMinor: BigInt(f.amount_minor),
        rateBps: f.rate_bps,
        priceIncludesVat: f.price_includes_vat,
      });
      const actual = { net_minor: Number(r.netMinor), vat_minor: Number(r.vatMinor), gross_minor: Number(r.grossMinor) };
      if (
        r.netMinor !== BigInt(f.expected.net_minor) ||
        r.vatMinor !== BigInt(f.expected.vat_minor) ||
        r.grossMinor !== BigInt(f.expected.gross_minor)
      ) {
        failures.push({ id: f.id, expected: f.expected, actual });
      }
    } catch (err) {
      failures.push({ id: f.id, expected: f.expected, actual: null, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return { ok: failures.length === 0, failures };
}

/*
 * Pinned digests. If one of these assertions fails, the calculation contract or the algorithm
 * manifest changed. That is only legitimate together with a NEW version string
 * (calculation_version and/or manifest_version): stored evidence refers to these digests.
 */
const PINNED_EXECUTION_DIGEST = 'sha256:3e30b49737fb335a607b80998adcfc3962f54df11e09381a414e1c8cf6c31c94';
const PINNED_ALGORITHM_MANIFEST_DIGEST = 'sha256:67761057b5a07f7fc8b26fda05d28fe4da93a79410fd62575efe82524dcec84a';

describe('calculation contract and algorithm manifest', () => {
  it('carries the registered version identifiers', () => {
    expect(CALCULATION_CONTRACT.calculation_version).toBe('vat-calculator-half-up/v1');
    expect(ALGORITHM_MANIFEST.calculation_version).toBe(CALCULATION_VERSION);
    expect(ALGORITHM_MANIFEST_VERSION).toBe('vat-algorithm-manifest/v1');
    expect(ALGORITHM_MANIFEST.manifest_version).toBe(ALGORITHM_MANIFEST_VERSION);
    expect(ALGORITHM_MANIFEST.execution_digest).toBe(EXECUTION_DIGEST);
  });

  it('digests recompute from the objects', () => {
    expect(digestOf(CALCULATION_CONTRACT)).toBe(EXECUTION_DIGEST);
    expect(digestOf(ALGORITHM_MANIFEST)).toBe(ALGORITHM_MANIFEST_DIGEST);
    // and survive a JSON round trip (the objects are pure JSON data)
    expect(digestOf(JSON.parse(JSON.stringify(ALGORITHM_MANIFEST)))).toBe(ALGORITHM_MANIFEST_DIGEST);
    expect(digestOf(JSON.parse(canonicalJson(CALCULATION_CONTRACT)))).toBe(EXECUTION_DIGEST);
  });

  it('digests equal the pinned values (a change requires a new version)', () => {
    expect(EXECUTION_DIGEST).toBe(PINNED_EXECUTION_DIGEST);
    expect(ALGORITHM_MANIFEST_DIGEST).toBe(PINNED_ALGORITHM_MANIFEST_DIGEST);
  });

  it('objects are deeply frozen', () => {
    expect(Object.isFrozen(CALCULATION_CONTRACT)).toBe(true);
    expect(Object.isFrozen(CALCULATION_CONTRACT.formulas.price_includes_vat)).toBe(true);
    expect(Object.isFrozen(ALGORITHM_MANIFEST.frozen_fixtures)).toBe(true);
    expect(Object.isFrozen(ALGORITHM_MANIFEST.frozen_fixtures[0]!.expected)).toBe(true);
    expect(() => {
      (ALGORITHM_MANIFEST.frozen_fixtures as unknown as unknown[]).push({});
    }).toThrow(TypeError);
    expect(digestOf(ALGORITHM_MANIFEST)).toBe(ALGORITHM_MANIFEST_DIGEST);
  });

  describe('frozen fixtures', () => {
    const fixtures = ALGORITHM_MANIFEST.frozen_fixtures;

    it('are numerous, uniquely named, safe integers and self-consistent', () => {
      expect(fixtures.length).toBeGreaterThanOrEqual(40);
      expect(new Set(fixtures.map((f) => f.id)).size).toBe(fixtures.length);
      for (const f of fixtures) {
        const { net_minor, vat_minor, gross_minor } = f.expected;
        for (const n of [f.amount_minor, f.rate_bps, net_minor, vat_minor, gross_minor]) {
          expect(Number.isSafeInteger(n) && n >= 0, f.id).toBe(true);
        }
        expect(gross_minor, f.id).toBe(net_minor + vat_minor);
        expect(f.price_includes_vat ? gross_minor : net_minor, f.id).toBe(f.amount_minor);
      }
    });

    it('cover the required cases', () => {
      const has = (p: (f: (typeof fixtures)[number]) => boolean) => fixtures.some(p);
      const isTie = (f: (typeof fixtures)[number]) => {
        const d = BigInt(f.price_includes_vat ? 10000 + f.rate_bps : 10000);
        const n = BigInt(f.amount_minor) * BigInt(f.rate_bps);
        return (2n * n) % (2n * d) === d; // fractional part exactly 1/2
      };
      expect(fixtures.filter(isTie).length).toBeGreaterThanOrEqual(5);
      expect(has((f) => isTie(f) && f.price_includes_vat)).toBe(true);
      expect(has((f) => isTie(f) && !f.price_includes_vat)).toBe(true);
      expect(has((f) => f.amount_minor === 0)).toBe(true);
      expect(has((f) => f.amount_minor === 1)).toBe(true);
      expect(has((f) => f.amount_minor === 1e15 && f.price_includes_vat)).toBe(true);
      expect(has((f) => f.amount_minor === 1e15 && !f.price_includes_vat)).toBe(true);
      for (const bps of [0, 550, 2550, 2700, 10000]) expect(has((f) => f.rate_bps === bps), String(bps)).toBe(true);
      // the same amount and rate with include vs exclude giving different vat
      expect(
        has((a) =>
          fixtures.some(
            (b) =>
              a.amount_minor === b.amount_minor &&
              a.rate_bps === b.rate_bps &&
              a.price_includes_vat !== b.price_includes_vat &&
              a.expected.vat_minor !== b.expected.vat_minor,
          ),
        ),
      ).toBe(true);
    });

    it.each(fixtures.map((f) => [f.id, f] as const))('%s', (_id, f) => {
      const r = calculateVat({
        amountMinor: BigInt(f.amount_minor),
        rateBps: f.rate_bps,
        priceIncludesVat: f.price_includes_vat,
      });
      expect({ net_minor: Number(r.netMinor), vat_minor: Number(r.vatMinor), gross_minor: Number(r.grossMinor) }).toEqual(
        f.expected,
      );
    });

    it('verifyFrozenFixtures passes for the registered calculator', () => {
      expect(verifyFrozenFixtures()).toEqual({ ok: true, failures: [] });
    });

    it('verifyFrozenFixtures reports a calculator that rounds half down or throws', () => {
      const halfDown = (i: VatInput) => {
        const bps = BigInt(i.rateBps);
        const d = i.priceIncludesVat ? 10000n + bps : 10000n;
        const vat = (2n * i.amountMinor * bps + d - 1n) / (2n * d);
        return i.priceIncludesVat
          ? { netMinor: i.amountMinor - vat, vatMinor: vat, grossMinor: i.amountMinor }
          : { netMinor: i.amountMinor, vatMinor: vat, grossMinor: i.amountMinor + vat };
      };
      const res = verifyFrozenFixtures(halfDown);
      expect(res.ok).toBe(false);
      expect(res.failures.map((f) => f.id)).toContain('rate_2550_excl_tie');
      expect(res.failures.find((f) => f.id === 'rate_2550_excl_tie')?.actual?.vat_minor).toBe(25);

      const throwing = verifyFrozenFixtures(() => {
        throw new Error('boom');
      });
      expect(throwing.failures).toHaveLength(fixtures.length);
      expect(throwing.failures[0]).toMatchObject({ actual: null, error: 'boom' });
    });
  });
});
