import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { iso } from '../src/article59c/facts';

/** What `iso` computed before its shortcut for canonical strings. */
const slow = (t: string | Date) => (t instanceof Date ? t : new Date(t)).toISOString();
const outcome = (f: () => string) => {
  try {
    return f();
  } catch (err) {
    return `threw ${(err as Error).name}`;
  }
};

describe('iso (thresholds facts)', () => {
  it('property: the same string (or the same error) as parsing and formatting, for canonical, near-canonical and other inputs', () => {
    const pad = (n: number, w: number) => String(n).padStart(w, '0');
    // Canonical-looking strings with any field out of range too (month 13, day 31 of a short month, hour 24, second 60).
    const shaped = fc
      .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), fc.integer({ min: 0, max: 24 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 999 }))
      .map(([y, mo, d, h, mi, s, ms]) => `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}.${pad(ms, 3)}Z`);
    const dates = fc.date({ min: new Date(Date.UTC(1, 0, 1)), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true });
    const other = fc.oneof(fc.constantFrom('2026-03-01', '2026-03-01T10:00:00Z', '2026-03-01T10:00:00.000+01:00', '2026-02-29T00:00:00.000Z', '2024-02-29T23:59:59.999Z', '', 'x'), fc.string());
    fc.assert(
      fc.property(fc.oneof(shaped, dates.map((d) => d.toISOString()), dates, other), (t) => {
        expect(outcome(() => iso(t))).toBe(outcome(() => slow(t)));
      }),
      { numRuns: 5000 },
    );
  });
});
