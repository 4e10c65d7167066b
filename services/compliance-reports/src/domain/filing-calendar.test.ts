import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { filingCalendar, iossDueDate, periodsBetween, statusOf, type CalendarLock } from './filing-calendar';
import { checkFilingRecord } from './filing-record';

const lock = (periodKey: string, status: 'locked' | 'filed', events = 1n): CalendarLock => ({ periodKey, status, totalSourceEventCount: events, filedAt: status === 'filed' ? new Date('2025-07-20T10:00:00Z') : null, submissionReference: null, filedOn: null });

describe('filing calendar', () => {
  it('due dates: the last day of the month after the period (Arts. 369f, 369v)', () => {
    expect(periodsBetween('union_oss', '2025-01-01', '2025-12-31').map((p) => [p.key, p.dueDate])).toEqual([
      ['2025-Q1', '2025-04-30'],
      ['2025-Q2', '2025-07-31'],
      ['2025-Q3', '2025-10-31'],
      ['2025-Q4', '2026-01-31'],
    ]);
    // January's IOSS return is due on the last day of February (28 in 2025, 29 in 2024); December's in January.
    expect([iossDueDate('2025-01'), iossDueDate('2024-01'), iossDueDate('2025-12')]).toEqual(['2025-02-28', '2024-02-29', '2026-01-31']);
    // Nothing before the schemes began (2021-07-01).
    expect(periodsBetween('union_oss', '2020-01-01', '2021-09-30').map((p) => p.key)).toEqual(['2021-Q3']);
    expect(periodsBetween('ioss', '2021-05-15', '2021-08-01').map((p) => p.key)).toEqual(['2021-07', '2021-08']);
  });

  it('statuses around the end and the due date of 2025-Q2 (ends 2025-06-30, due 2025-07-31)', () => {
    const q = { end: '2025-06-30', dueDate: '2025-07-31' };
    expect(statusOf(q, undefined, 3, '2025-06-30')).toEqual({ status: 'not_due', overdue: false });
    expect(statusOf(q, undefined, 3, '2025-07-01')).toEqual({ status: 'due', overdue: false });
    expect(statusOf(q, undefined, 3, '2025-07-31')).toEqual({ status: 'due', overdue: false });
    expect(statusOf(q, undefined, 3, '2025-08-01')).toEqual({ status: 'overdue', overdue: true });
    expect(statusOf(q, undefined, 0, '2025-07-15')).toEqual({ status: 'nil_return_due', overdue: false });
    expect(statusOf(q, undefined, 0, '2025-08-01')).toEqual({ status: 'nil_return_due', overdue: true });
    expect(statusOf(q, lock('2025-Q2', 'locked'), 1, '2025-07-15')).toEqual({ status: 'locked', overdue: false });
    expect(statusOf(q, lock('2025-Q2', 'locked'), 1, '2025-08-01')).toEqual({ status: 'overdue', overdue: true });
    expect(statusOf(q, lock('2025-Q2', 'filed'), 1, '2030-01-01')).toEqual({ status: 'filed', overdue: false });
  });

  it('only periods an active or ended registration of the scheme covers; event counts by scheme', () => {
    const entries = filingCalendar({
      registrations: [
        { id: 2n, schemeType: 'union_oss', effectiveFrom: '2025-05-10', effectiveTo: null, status: 'active' },
        { id: 3n, schemeType: 'ioss', effectiveFrom: '2025-08-01', effectiveTo: '2025-08-31', status: 'ended' },
        { id: 4n, schemeType: 'ioss', effectiveFrom: '2025-01-01', effectiveTo: null, status: 'pending' },
      ],
      locks: [lock('2025-Q2', 'filed', 5n)],
      eventCounts: new Map([['union_oss|2025-Q3', 2], ['ioss|2025-08', 1]]),
      from: '2025-01-01',
      to: '2025-10-15',
      today: '2025-10-15',
    });
    expect(entries.map((e) => [e.scheme, e.periodKey, e.status, e.overdue, e.sourceEventCount, e.registrationIds])).toEqual([
      ['union_oss', '2025-Q2', 'filed', false, 5, [2n]],
      ['union_oss', '2025-Q3', 'due', false, 2, [2n]],
      ['ioss', '2025-08', 'overdue', true, 1, [3n]],
      ['union_oss', '2025-Q4', 'not_due', false, 0, [2n]],
    ]);
  });

  it('every period is overdue exactly when today is after its due date and it is not filed', () => {
    const day = fc.date({ min: new Date('2021-07-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    fc.assert(
      fc.property(day, day, fc.nat(3), fc.constantFrom(undefined, 'locked', 'filed'), (a, b, events, state) => {
        const [from, today] = a < b ? [a, b] : [b, a];
        for (const p of periodsBetween('union_oss', from, today)) {
          const s = statusOf(p, state ? lock(p.key, state as 'locked' | 'filed') : undefined, events, today);
          expect(s.overdue).toBe(p.end < today && state !== 'filed' && today > p.dueDate);
          if (p.end >= today) expect(s.status).toBe('not_due');
        }
      }),
    );
  });
});

describe('filing record', () => {
  const check = (input: Parameters<typeof checkFilingRecord>[0]) => checkFilingRecord(input, '2025-06-30', '2025-08-10');
  it('accepts a day from the day after the quarter to today', () => {
    expect(check({ filedOn: '2025-07-01', submissionReference: 'BOP-1', note: 'ok' })).toEqual({ ok: true, record: { submissionReference: 'BOP-1', filedOn: '2025-07-01', note: 'ok' } });
    expect(check({ filedOn: '2025-08-10' })).toMatchObject({ ok: true });
    expect(check({})).toEqual({ ok: true, record: { submissionReference: null, filedOn: null, note: null } });
  });
  it('refuses what a filing record cannot be', () => {
    expect(check({ filedOn: '2025-06-30' })).toMatchObject({ ok: false, error: { code: 'invalid_filed_on' } });
    expect(check({ filedOn: '2025-08-11' })).toMatchObject({ ok: false, error: { code: 'invalid_filed_on' } });
    expect(check({ filedOn: '2025-02-29' })).toMatchObject({ ok: false, error: { code: 'invalid_filed_on' } });
    expect(check({ submissionReference: ' BOP-1' })).toMatchObject({ ok: false, error: { code: 'invalid_submission_reference' } });
    expect(check({ submissionReference: 'a\tb' })).toMatchObject({ ok: false, error: { code: 'invalid_submission_reference' } });
    expect(check({ note: 'x'.repeat(1001) })).toMatchObject({ ok: false, error: { code: 'invalid_note' } });
  });
});
