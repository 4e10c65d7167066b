import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coverageOf, overlappingRows, parseQuarter, unionOssRegistrationFor, windowsOverlap, type RegistrationWindow } from './coverage';

let next = 1n;
const row = (effectiveFrom: string, effectiveTo: string | null, status = 'active', schemeType = 'union_oss'): RegistrationWindow => ({ id: next++, schemeType, effectiveFrom, effectiveTo, status });

describe('windows (both ends inclusive, no end = open-ended)', () => {
  it('touching on one day overlaps; the day after does not', () => {
    expect(windowsOverlap({ effectiveFrom: '2024-01-01', effectiveTo: '2024-03-31' }, { effectiveFrom: '2024-03-31', effectiveTo: null })).toBe(true);
    expect(windowsOverlap({ effectiveFrom: '2024-01-01', effectiveTo: '2024-03-31' }, { effectiveFrom: '2024-04-01', effectiveTo: null })).toBe(false);
    expect(windowsOverlap({ effectiveFrom: '2024-01-01', effectiveTo: null }, { effectiveFrom: '2030-01-01', effectiveTo: null })).toBe(true);
    expect(windowsOverlap({ effectiveFrom: '2024-01-01', effectiveTo: '2024-01-01' }, { effectiveFrom: '2024-01-01', effectiveTo: '2024-01-01' })).toBe(true);
  });

  it('overlap is symmetric and agrees with a day-by-day check', () => {
    const day = fc.integer({ min: 0, max: 40 }).map((d) => new Date(Date.UTC(2024, 0, 1 + d)).toISOString().slice(0, 10));
    const win = fc.tuple(day, fc.option(day)).map(([a, b]) => ({ effectiveFrom: b && b < a ? b : a, effectiveTo: b && b < a ? a : b }));
    fc.assert(
      fc.property(win, win, (a, b) => {
        const days = (w: typeof a) => new Set(Array.from({ length: 60 }, (_, i) => new Date(Date.UTC(2024, 0, 1 + i)).toISOString().slice(0, 10)).filter((d) => d >= w.effectiveFrom && (w.effectiveTo === null || d <= w.effectiveTo)));
        const da = days(a);
        const shared = [...days(b)].some((d) => da.has(d));
        expect(windowsOverlap(a, b)).toBe(shared);
        expect(windowsOverlap(b, a)).toBe(shared);
      }),
    );
  });

  it('only unresolved rows of the same scheme meet; an excluded row meets nothing', () => {
    const a = row('2024-01-01', null);
    const others = [row('2024-06-01', null, 'excluded'), row('2024-06-01', null, 'active', 'ioss'), row('2024-06-01', null, 'pending'), row('2023-01-01', '2023-12-31', 'ended')];
    expect(overlappingRows(a, others).map((r) => r.id)).toEqual([others[2]!.id]);
    expect(overlappingRows({ ...a, status: 'excluded' }, others)).toEqual([]);
  });
});

describe('coverage status', () => {
  it('counted, pending, excluded, and cleanup_required for active and ended rows in an unresolved overlap', () => {
    const a = row('2024-01-01', null);
    const b = row('2024-01-01', '2024-06-30', 'ended');
    const p = row('2025-01-01', null, 'pending', 'ioss');
    const x = row('2024-01-01', null, 'excluded');
    const clean = row('2021-07-01', '2023-12-31', 'ended');
    const all = [a, b, p, x, clean];
    expect(coverageOf(a, all)).toEqual({ status: 'cleanup_required', counts: false, conflictingIds: [b.id] });
    expect(coverageOf(b, all)).toEqual({ status: 'cleanup_required', counts: false, conflictingIds: [a.id] });
    expect(coverageOf(p, all)).toEqual({ status: 'pending', counts: false, conflictingIds: [] });
    expect(coverageOf(x, all)).toEqual({ status: 'excluded', counts: false, conflictingIds: [] });
    expect(coverageOf(clean, all)).toEqual({ status: 'counted', counts: true, conflictingIds: [] });
  });

  it('a pending duplicate makes the active row cleanup_required; excluding it resolves that', () => {
    const a = row('2024-01-01', null);
    const p = row('2024-03-01', null, 'pending');
    expect(coverageOf(a, [a, p]).status).toBe('cleanup_required');
    expect(coverageOf(a, [a, { ...p, status: 'excluded' }]).status).toBe('counted');
  });
});

describe('quarters', () => {
  it('parses YYYY-Qn to its first and last day', () => {
    expect(parseQuarter('2024-Q1')).toEqual({ key: '2024-Q1', start: '2024-01-01', end: '2024-03-31' });
    expect(parseQuarter('2024-Q2')).toEqual({ key: '2024-Q2', start: '2024-04-01', end: '2024-06-30' });
    expect(parseQuarter('2024-Q3')).toEqual({ key: '2024-Q3', start: '2024-07-01', end: '2024-09-30' });
    expect(parseQuarter('2024-Q4')).toEqual({ key: '2024-Q4', start: '2024-10-01', end: '2024-12-31' });
    for (const bad of ['2024-Q0', '2024-Q5', '2024Q1', '24-Q1', '2024-q1', '1899-Q4', '', ' 2024-Q1', '2024-Q1 ']) expect(parseQuarter(bad), bad).toBeUndefined();
  });
});

describe('Union OSS eligibility for a quarter (spec rule 7)', () => {
  const q = parseQuarter('2024-Q2')!;

  it('exactly one active or ended union_oss row overlapping the quarter is eligible, even if it covers part of it', () => {
    const a = row('2024-05-15', null);
    expect(unionOssRegistrationFor([a, row('2024-01-01', null, 'active', 'ioss')], q)).toEqual({ ok: true, registration: a });
    const e = row('2023-01-01', '2024-04-01', 'ended');
    expect(unionOssRegistrationFor([e], q)).toEqual({ ok: true, registration: e });
  });

  it('no row, or only pending or excluded rows: registration_required (naming the pending ones)', () => {
    expect(unionOssRegistrationFor([], q)).toMatchObject({ ok: false, reason: 'registration_required', blockingIds: [] });
    expect(unionOssRegistrationFor([row('2024-07-01', null)], q)).toMatchObject({ ok: false, reason: 'registration_required' });
    const p = row('2024-01-01', null, 'pending');
    const x = row('2024-01-01', null, 'excluded');
    const r = unionOssRegistrationFor([p, x], q);
    expect(r).toMatchObject({ ok: false, reason: 'registration_required', blockingIds: [p.id] });
    expect(!r.ok && r.detail).toContain(`pending registration ${p.id}`);
  });

  it('two rows each covering part of the quarter: registration_conflict naming both', () => {
    const a = row('2023-01-01', '2024-05-10', 'ended');
    const b = row('2024-05-11', null);
    expect(unionOssRegistrationFor([b, a], q)).toMatchObject({ ok: false, reason: 'registration_conflict', blockingIds: [a.id, b.id] });
  });

  it('a row in conflict cleanup never satisfies eligibility, even for a quarter only it covers', () => {
    const a = row('2024-01-01', null);
    const dup = row('2023-01-01', '2023-12-31', 'ended');
    const overlapping = row('2023-06-01', '2024-01-15', 'pending');
    const r = unionOssRegistrationFor([a, dup, overlapping], q);
    expect(r).toMatchObject({ ok: false, reason: 'registration_conflict', blockingIds: [a.id, overlapping.id] });
  });
});
