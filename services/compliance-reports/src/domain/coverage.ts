/**
 * Overlap and filing coverage of registrations. A window runs from `effectiveFrom` to
 * `effectiveTo` (both inclusive; no end = open-ended). Only rows of the same scheme meet, and an
 * `excluded` row meets nothing.
 */
export type RegistrationWindow = {
  id: bigint;
  schemeType: string;
  effectiveFrom: string;
  effectiveTo?: string | null;
  status: string;
};

type CoverageStatus = 'counted' | 'pending' | 'excluded' | 'cleanup_required';
export type Coverage = { status: CoverageStatus; counts: boolean; conflictingIds: bigint[] };

const END_OF_TIME = '9999-12-31';

type Window = { effectiveFrom: string; effectiveTo?: string | null };

/** Whether two date windows share at least one day (inclusive bounds). */
export function windowsOverlap(a: Window, b: Window): boolean {
  return a.effectiveFrom <= (b.effectiveTo ?? END_OF_TIME) && b.effectiveFrom <= (a.effectiveTo ?? END_OF_TIME);
}

/**
 * The rows a (would-be) row collides with: other unresolved (not `excluded`) rows of its scheme
 * whose window overlaps. The write rule refuses a non-excluded row with any; the coverage rule
 * marks such rows `cleanup_required`.
 */
export function overlappingRows(row: Omit<RegistrationWindow, 'id'> & { id?: bigint }, others: readonly RegistrationWindow[]): RegistrationWindow[] {
  if (row.status === 'excluded') return [];
  return others
    .filter((o) => o.id !== row.id && o.schemeType === row.schemeType && o.status !== 'excluded' && windowsOverlap(row, o))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Whether a row counts toward filing coverage, and why not: `excluded` and `pending` rows never
 * count; an `active` or `ended` row that overlaps another unresolved row of its scheme is
 * `cleanup_required` until one of them is excluded or ended before the other begins.
 */
export function coverageOf(row: RegistrationWindow, rowsOfAccount: readonly RegistrationWindow[]): Coverage {
  if (row.status === 'excluded') return { status: 'excluded', counts: false, conflictingIds: [] };
  if (row.status === 'pending') return { status: 'pending', counts: false, conflictingIds: [] };
  const conflicts = overlappingRows(row, rowsOfAccount).map((r) => r.id);
  if (conflicts.length > 0) return { status: 'cleanup_required', counts: false, conflictingIds: conflicts };
  return { status: 'counted', counts: true, conflictingIds: [] };
}

export type Quarter = { key: string; start: string; end: string };

/** `YYYY-Qn` (years 1900 to 9999) to its first and last day, or undefined. */
export function parseQuarter(key: string): Quarter | undefined {
  const m = /^(\d{4})-Q([1-4])$/.exec(key);
  if (!m) return undefined;
  const year = Number(m[1]);
  if (year < 1900) return undefined;
  const q = Number(m[2]);
  const first = `${String((q - 1) * 3 + 1).padStart(2, '0')}`;
  const last = [null, '03-31', '06-30', '09-30', '12-31'][q]!;
  return { key, start: `${m[1]}-${first}-01`, end: `${m[1]}-${last}` };
}

type QuarterEligibility<R extends RegistrationWindow> =
  | { ok: true; registration: R }
  | { ok: false; reason: 'registration_required'; detail: string; blockingIds: bigint[] }
  | { ok: false; reason: 'registration_conflict'; detail: string; blockingIds: bigint[] };

const ids = (rows: readonly { id: bigint }[]) => [...new Set(rows.map((r) => r.id))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * Spec rule 7: a quarter is eligible for a Union OSS return when exactly one `union_oss` row with
 * status `active` or `ended` overlaps it and that row counts toward coverage (is not in conflict
 * cleanup). Pending and excluded rows never satisfy it.
 */
export function unionOssRegistrationFor<R extends RegistrationWindow>(rowsOfAccount: readonly R[], quarter: Quarter): QuarterEligibility<R> {
  const window = { effectiveFrom: quarter.start, effectiveTo: quarter.end };
  const inQuarter = rowsOfAccount.filter((r) => r.schemeType === 'union_oss' && windowsOverlap(r, window));
  const filing = inQuarter.filter((r) => r.status === 'active' || r.status === 'ended');
  if (filing.length === 0) {
    const pending = inQuarter.filter((r) => r.status === 'pending');
    const why = pending.length ? `; pending registration ${ids(pending).join(', ')} does not count until it is active` : '';
    return { ok: false, reason: 'registration_required', detail: `No active or ended union_oss registration covers ${quarter.key}${why}.`, blockingIds: ids(pending) };
  }
  const blocked = filing.flatMap((r) => {
    const c = coverageOf(r, rowsOfAccount);
    return c.status === 'cleanup_required' ? [r.id, ...c.conflictingIds] : [];
  });
  if (blocked.length > 0) {
    const list = ids(blocked.map((id) => ({ id })));
    return { ok: false, reason: 'registration_conflict', detail: `union_oss registrations ${list.join(', ')} overlap and need cleanup (end or exclude the duplicate) before ${quarter.key} can be reported.`, blockingIds: list };
  }
  if (filing.length > 1) {
    const list = ids(filing);
    return { ok: false, reason: 'registration_conflict', detail: `${filing.length} union_oss registrations (${list.join(', ')}) each cover part of ${quarter.key}; a return needs exactly one.`, blockingIds: list };
  }
  return { ok: true, registration: filing[0]! };
}
