import { describe, expect, it } from 'vitest';
import type { LockedPeriodRecord } from '../src/repositories/union-oss-locks';
import { lateWindowsFor, unionOssQuarter } from '../src/union-oss-report';

const lock = (periodKey: string, ledgerPosition: bigint) => [periodKey, { periodKey, ledgerPosition } as LockedPeriodRecord] as const;

describe('late events: which quarter reports an event recorded after its own quarter was locked', () => {
  it('no lock before the quarter: nothing late', () => {
    expect(lateWindowsFor('2026-Q1', new Map(), null)).toEqual([]);
    expect(lateWindowsFor('2026-Q1', new Map([lock('2025-Q3', 5n)]), null)).toEqual([]);
  });

  it('the quarter after a locked one takes its events past the lock position', () => {
    expect(lateWindowsFor('2026-Q1', new Map([lock('2025-Q4', 10n)]), null)).toEqual([{ start: '2025-10-01', endExclusive: '2026-01-01', afterSequence: 10n, upToSequence: null }]);
    // while 2026-Q1 is being locked at head 25, only what the lock's position covers
    expect(lateWindowsFor('2026-Q1', new Map([lock('2025-Q4', 10n)]), 25n)).toEqual([{ start: '2025-10-01', endExclusive: '2026-01-01', afterSequence: 10n, upToSequence: 25n }]);
  });

  it('over a run of locked quarters each contributes what is past every lock in between; a locked quarter stops at its own position', () => {
    const locks = new Map([lock('2025-Q2', 7n), lock('2025-Q3', 4n), lock('2025-Q4', 20n), lock('2026-Q1', 30n)]);
    expect(lateWindowsFor('2026-Q1', locks, 30n)).toEqual([
      { start: '2025-10-01', endExclusive: '2026-01-01', afterSequence: 20n, upToSequence: 30n },
      { start: '2025-07-01', endExclusive: '2025-10-01', afterSequence: 20n, upToSequence: 30n },
      { start: '2025-04-01', endExclusive: '2025-07-01', afterSequence: 20n, upToSequence: 30n },
    ]);
    // 2025-Q4 reports 2025-Q3's events past position 4 and 2025-Q2's past max(7, 4) = 7, up to its own 20
    expect(lateWindowsFor('2025-Q4', locks, 20n)).toEqual([
      { start: '2025-07-01', endExclusive: '2025-10-01', afterSequence: 4n, upToSequence: 20n },
      { start: '2025-04-01', endExclusive: '2025-07-01', afterSequence: 7n, upToSequence: 20n },
    ]);
  });

  it('an unlocked quarter in between absorbs the earlier late events', () => {
    expect(lateWindowsFor('2026-Q1', new Map([lock('2025-Q3', 3n)]), null)).toEqual([]);
    expect(lateWindowsFor('2025-Q4', new Map([lock('2025-Q3', 3n)]), null)).toEqual([{ start: '2025-07-01', endExclusive: '2025-10-01', afterSequence: 3n, upToSequence: null }]);
  });

  it('quarters before the scheme, after 9999-Q3 (due in year 10000), malformed keys and years outside 1900-9999 are invalid_period', () => {
    for (const p of ['2021-Q2', '2020-Q4', '2026-Q5', '2026Q1', '', '99999-Q1', ' 2026-Q1', '9999-Q4']) expect(() => unionOssQuarter(p), p).toThrow(/period must be/);
    expect(unionOssQuarter('2021-Q3')).toEqual({ key: '2021-Q3', start: '2021-07-01', end: '2021-09-30' });
    expect(unionOssQuarter('9999-Q3')).toEqual({ key: '9999-Q3', start: '9999-07-01', end: '9999-09-30' });
  });
});
