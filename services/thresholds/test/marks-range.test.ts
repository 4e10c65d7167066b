import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RawFacts } from '../src/article59c/facts';
import { rangeOf } from '../src/repositories/article59c';

const raw = (sequence: bigint) => ({ sequence, eventId: `e${sequence}` }) as unknown as RawFacts;

describe('the marks walk reads its range from the batch only when the batch holds all of it', () => {
  it('examples: the whole range, a gap, events beyond the range, an event applied by an earlier batch', () => {
    expect(rangeOf([raw(3n), raw(1n), raw(2n)], 0n, 3n)?.map((r) => r.sequence).sort()).toEqual([1n, 2n, 3n]);
    expect(rangeOf([raw(1n), raw(3n)], 0n, 3n)).toBeUndefined();
    expect(rangeOf([raw(5n), raw(6n), raw(9n)], 4n, 6n)?.map((r) => r.sequence)).toEqual([5n, 6n]);
    // 5 came in an earlier batch (applied ahead of a missing 4): read from the projection.
    expect(rangeOf([raw(4n), raw(6n)], 3n, 6n)).toBeUndefined();
  });

  it('property: answers exactly the events from+1..to, each once, or undefined when one of them is not in the batch', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { maxLength: 40 }), fc.nat({ max: 40 }), fc.nat({ max: 40 }), (seqs, a, b) => {
        const [from, to] = [BigInt(Math.min(a, b)), BigInt(Math.max(a, b))];
        const batch = seqs.map((s) => raw(BigInt(s)));
        const got = rangeOf(batch, from, to);
        const want = new Set(Array.from({ length: Number(to - from) }, (_, i) => from + 1n + BigInt(i)));
        if ([...want].every((s) => seqs.includes(Number(s)))) expect(new Set(got!.map((r) => r.sequence))).toEqual(want);
        else expect(got).toBeUndefined();
        if (got) expect(got.length).toBe(want.size);
      }),
    );
  });
});
