import { ConnectError } from '@connectrpc/connect';
import { EUR, type RateOrEur } from '@vat/platform/fx';
import { principalHeaders, type Principal } from '@vat/platform/principal';
import { Code, invalidArgument, rpcError } from '@vat/platform/rpc-errors';
import { stopwatch } from '@vat/platform/stopwatch';
import { projectionPosition } from '@vat/platform/supply-projection';
import type { ComplianceReportsDeps } from './context';
import { parseQuarter, unionOssRegistrationFor, type Quarter } from './domain/coverage';
import type { RateUsed, ReturnContext } from './domain/union-oss-documents';
import { EU_MEMBER_STATES } from '@vat/platform/countries';
import { eventDispositionOf, FIRST_UNION_OSS_PERIOD, LAST_UNION_OSS_PERIOD, returnCurrencyOf, StandardRateUnavailable, UnionOssReturnBuilder, type FactGroup, type ReturnInputs, type SourceDefaults } from './domain/union-oss-return';
import { sealScope, type FactScope, type LateWindow, type RateInForceWindow, type StandardRateWindow } from './repositories/union-oss-facts';
import type { SealedBasis, SealedDisposition } from './repositories/union-oss-sealed-events';
import type { LockedPeriodRecord } from './repositories/union-oss-locks';

/** A `YYYY-Qn` Union OSS quarter (2021-Q3, when the scheme began, to 9999-Q3, the last one due within 9999), or 400 `invalid_period`. */
export function unionOssQuarter(periodKey: string): Quarter {
  const q = parseQuarter(periodKey);
  if (!q || periodKey < FIRST_UNION_OSS_PERIOD || periodKey > LAST_UNION_OSS_PERIOD) {
    throw invalidArgument('invalid_period', `period must be YYYY-Qn (Q1 to Q4) from ${FIRST_UNION_OSS_PERIOD}, when the Union OSS scheme began, to ${LAST_UNION_OSS_PERIOD}, the last quarter whose return is due within year 9999.`);
  }
  return q;
}

/**
 * A quarter can be locked (and filed) only once its last day has passed (UTC): the return covers the
 * whole period (Art. 369f of Directive 2006/112/EC) and is submitted after it ends; 409 `period_not_ended`.
 */
export function requireEndedQuarter(periodKey: string, now: Date): Quarter {
  const q = unionOssQuarter(periodKey);
  const today = now.toISOString().slice(0, 10);
  if (q.end >= today) {
    throw rpcError(Code.Aborted, 'period_not_ended', `${periodKey} ends on ${q.end}: a quarter can be locked or filed only after its last day has passed (from ${dayAfter(q.end)}, UTC).`, { period_end: q.end });
  }
  return q;
}

const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const previousPeriod = (p: string) => {
  const y = Number(p.slice(0, 4));
  const q = Number(p.slice(6));
  return q === 1 ? `${y - 1}-Q4` : `${y}-Q${q - 1}`;
};

/**
 * Events of earlier locked quarters recorded after their lock belong to the first later quarter
 * that was not locked yet when they were recorded: walking back over the unbroken run of locked
 * quarters before `period`, each contributes the events past every lock in between, up to the
 * position the return is built at (`upTo`: its own lock's, or the head a lock is taking; null = all).
 */
export function lateWindowsFor(period: string, locks: ReadonlyMap<string, LockedPeriodRecord>, upTo: bigint | null): LateWindow[] {
  const windows: LateWindow[] = [];
  let after = -1n;
  for (let p = previousPeriod(period); p >= FIRST_UNION_OSS_PERIOD; p = previousPeriod(p)) {
    const lock = locks.get(p);
    if (!lock) break;
    if (lock.ledgerPosition > after) after = lock.ledgerPosition;
    const q = parseQuarter(p)!;
    windows.push({ start: q.start, endExclusive: dayAfter(q.end), afterSequence: after, upToSequence: upTo });
  }
  return windows;
}

/** What the return was built from: the scope read and the settings and rates that placed each event. */
export type ReturnBasis = { scope: FactScope; settings: Pick<ReturnInputs, 'periodKey' | 'memberStateIdentification' | 'sourceDefaults' | 'returnCurrency' | 'exchangeRate'> };

type Built = { context: ReturnContext; locks: Map<string, LockedPeriodRecord>; basis: ReturnBasis; sealed?: SealedBasis };

/**
 * The quarter's return as of a ledger position: the lock's for a locked quarter, else `position`
 * (a lock passes the ledger head it checked) or whatever the projection holds now.
 */
export async function buildReturn(deps: ComplianceReportsDeps, caller: Principal, periodKey: string, opts: { position?: bigint; seal?: boolean } = {}): Promise<Built> {
  const quarter = unionOssQuarter(periodKey);
  const { accountId } = caller;
  const elapsed = stopwatch();
  const phases: Record<string, number> = {};
  const eligibility = unionOssRegistrationFor(await deps.registrations.list(accountId), quarter);
  if (!eligibility.ok) throw rpcError(Code.FailedPrecondition, eligibility.reason, eligibility.detail, { blocking_registration_ids: eligibility.blockingIds.join(',') });
  const registration = eligibility.registration;
  const locks = new Map((await deps.unionOssLocks.list(accountId)).map((l) => [l.periodKey, l]));
  const own = locks.get(periodKey);
  const upTo = own?.ledgerPosition ?? opts.position ?? null;
  const position = upTo ?? (await projectionPosition(deps.pool, 'compliance_reports', accountId));
  const msi = registration.memberStateIdentification;
  const returnCurrency = returnCurrencyOf(msi, periodKey);
  const [standardRateWindows, sourceDefaults, ratesInForce] = await Promise.all([standardRates(deps), sourceDefaultsOf(deps, accountId), ratesInForceOf(deps)]);
  phases.inputs_ms = elapsed().ms;
  const builder = new UnionOssReturnBuilder({ periodKey, memberStateIdentification: msi, returnCurrency, sourceDefaults });
  const scope = { accountId, standardRates: standardRateWindows, ratesInForce, start: quarter.start, endExclusive: dayAfter(quarter.end), upToSequence: upTo, late: lateWindowsFor(periodKey, locks, upTo), returnCurrency, vatEvidenceDays: deps.config.vies.reuseDays };
  // A lock seals one disposition per distinct key (hundreds), not a copy of every event.
  const keyed = opts.seal ? new Map<string, { group: FactGroup; count: number }>() : undefined;
  try {
    await deps.unionOssFacts.forEachGroup(scope, (groups, keys) => {
      groups.forEach((g, i) => {
        builder.add(g);
        if (!keyed) return;
        const k = keyed.get(keys[i]!);
        if (k) k.count += g.count;
        else keyed.set(keys[i]!, { group: g, count: g.count });
      });
    });
  } catch (err) {
    if (err instanceof StandardRateUnavailable) throw rpcError(Code.FailedPrecondition, 'vat_rate_unavailable', err.message);
    throw err;
  }
  phases.facts_ms = elapsed().ms;
  const fx = await exchangeRates(deps, builder.neededRates());
  const exchangeRate = (currency: string, period: string) => fx.rates.get(`${currency}|${period}`);
  const ret = builder.finish(exchangeRate);
  deps.log.debug({ periodKey, ...phases, ...elapsed(), events: ret.totalSourceEventCount }, 'Union OSS return built');
  const settings = { periodKey, memberStateIdentification: msi, sourceDefaults, returnCurrency, exchangeRate };
  return {
    sealed: keyed && { scope: sealScope(scope), dispositions: [...keyed].map(([key, { group, count }]) => sealedDisposition(key, count, eventDispositionOf(group, settings))) },
    context: {
      ret,
      registrationId: registration.id,
      periodStart: quarter.start,
      periodEnd: quarter.end,
      ledgerPosition: position,
      generatedAt: deps.now().toISOString(),
      periodStatus: own?.status ?? 'open',
      ratesUsed: fx.used,
      filingRecord: own?.status === 'filed' ? { submissionReference: own.submissionReference, filedOn: own.filedOn, note: own.filingNote, filedAt: own.filedAt!.toISOString() } : null,
    },
    locks,
    basis: { scope, settings },
  };
}

function sealedDisposition(key: string, count: number, d: ReturnType<typeof eventDispositionOf>): SealedDisposition {
  return d.disposition === 'included'
    ? { key, count, disposition: 'included', warningCode: null, reason: null, review: null }
    : { key, count, disposition: 'excluded', warningCode: d.code, reason: d.reason, review: d.review };
}

/** Every Member State's standard-rate history (calculation's `standard` class; windows are half-open), from the projected release. */
async function standardRates(deps: ComplianceReportsDeps): Promise<StandardRateWindow[]> {
  const release = await deps.reference.requireRateRelease();
  const order = new Map<string, number>(EU_MEMBER_STATES.map((c, i) => [c, i]));
  return release.windows
    .filter((w) => w.taxClassId === 'standard' && w.rateType === 'standard' && order.has(w.country))
    .sort((a, b) => order.get(a.country)! - order.get(b.country)! || (a.validFrom < b.validFrom ? -1 : a.validFrom > b.validFrom ? 1 : 0))
    .map((w) => ({ country: w.country, validFrom: w.validFrom, validTo: w.validTo ?? null, rateBps: w.rateBps }));
}

/** Every rate in force in the Member States and their regions with rates of their own, from the projected release. */
async function ratesInForceOf(deps: ComplianceReportsDeps): Promise<RateInForceWindow[]> {
  const release = await deps.reference.requireRateRelease();
  return release.ratesInForce.map((r) => ({ country: r.country, region: r.region ?? null, rateBps: r.rateBps, rateType: r.rateType, validFrom: r.validFrom, validTo: r.validTo ?? null }));
}

/** Art. 366(2) rates (the last day of each period, or the next publication day) of what the return converts. */
async function exchangeRates(deps: ComplianceReportsDeps, needed: readonly { currency: string; period: string }[]) {
  const rates = new Map<string, RateOrEur>();
  const used: RateUsed[] = [];
  const queries = needed.filter((n) => n.currency !== EUR).map((n) => ({ ...n, date: parseQuarter(n.period)!.end }));
  for (const n of needed) if (n.currency === EUR) rates.set(`${EUR}|${n.period}`, EUR);
  const hits = await deps.reference.ratesOnOrNextPublication(queries);
  hits.forEach((hit, j) => {
    const q = queries[j]!;
    if (!hit) return;
    rates.set(`${q.currency}|${q.period}`, hit.rate);
    used.push({ currency: q.currency, periodKey: q.period, requestedDate: q.date, rateDate: hit.rateDate, rate: hit.rate.decimal });
  });
  used.sort((a, b) => (a.periodKey + a.currency < b.periodKey + b.currency ? -1 : 1));
  return { rates, used };
}

/** Source-profile origins (applied only where an event lacks its own), from the projection of calculation's `SourceProfileChanged`. */
async function sourceDefaultsOf(deps: ComplianceReportsDeps, accountId: bigint): Promise<Map<string, SourceDefaults>> {
  return deps.profileDefaults.of(accountId);
}

/**
 * Fences a Union OSS quarter in the ledger before it is locked (`FenceReturnPeriod`): no classification
 * decision is appended for its events afterwards. Answers the head and the quarter's decision count.
 */
export async function fencePeriod(deps: ComplianceReportsDeps, caller: Principal, periodKey: string): Promise<{ sequence: bigint; periodDecisionCount: bigint }> {
  try {
    const res = await deps.clients.ledger.fenceReturnPeriod({ periodKey }, { headers: principalHeaders(caller) });
    return { sequence: res.sequence, periodDecisionCount: res.periodDecisionCount };
  } catch (err) {
    if (err instanceof ConnectError) throw rpcError(Code.Unavailable, 'ledger_unavailable', 'The ledger could not be reached to fence the quarter; retry.');
    throw err;
  }
}
