import { api, ok } from '../api/client';
import { formatMinor, isoDate } from '../format';
import { Loaded, PageTitle, Table, useLoad } from '../ui';

type Crossing = { event_id: string; occurred_at: string; cumulative_minor: number; threshold_minor: number; currency: string };
type Check = { currency: string; threshold_minor: number; current_minor: number; remaining_minor: number; percentage_used: number; current_comparison: string; current_year_crossing: Crossing | null; cutoff_at: string | null; primary_treatment_driver: string };
type Status = {
  checks: Check[];
  current_year: number;
  current_year_blocking_event_count: number;
  current_year_coverage: { reason: string; disposition: string; evidence_quality: string; materiality: string; currency: string; event_count: number; net_minor: number }[];
  article_59c_applicability_status: string;
  threshold_evidence_status: string;
  filing_readiness: string;
  issues: string[];
  disclaimer: string;
};

export function ThresholdPage() {
  const [state] = useLoad(() => ok<Status>(api.GET('/v1/compliance/threshold-status')), 'threshold');
  return (
    <>
      <PageTitle>Article 59c threshold</PageTitle>
      <Loaded state={state} what="the threshold status">
        {(s) => {
          const blocking = s.current_year_coverage.filter((c) => c.disposition !== 'counted' && c.disposition !== 'excluded');
          return (
            <>
              <p>
                {s.current_year} · applicability <span class="badge">{s.article_59c_applicability_status.replace(/_/g, ' ')}</span> · evidence {s.threshold_evidence_status} · filing readiness {s.filing_readiness.replace(/_/g, ' ')}
              </p>
              {s.checks.map((c) => (
                <section>
                  <h2>
                    {formatMinor(c.current_minor, c.currency)} of {formatMinor(c.threshold_minor, c.currency)} ({c.percentage_used} %)
                  </h2>
                  <ThresholdChart year={s.current_year} check={c} />
                  <p>
                    {c.current_year_crossing
                      ? `Crossed on ${isoDate(c.current_year_crossing.occurred_at)} by event ${c.current_year_crossing.event_id} (cumulative ${formatMinor(c.current_year_crossing.cumulative_minor, c.currency)}).`
                      : `Not crossed; ${formatMinor(c.remaining_minor, c.currency)} remain.`}{' '}
                    Treatment: {c.primary_treatment_driver.replace(/_/g, ' ')}.
                  </p>
                </section>
              ))}
              <h2>Blocking reasons</h2>
              {s.issues.length === 0 && blocking.length === 0 && s.current_year_blocking_event_count === 0 ? (
                <p>Nothing blocks the status.</p>
              ) : (
                <ul>
                  {s.issues.map((i) => (
                    <li>{i}</li>
                  ))}
                  {blocking.map((b) => (
                    <li>
                      {b.reason}: {b.event_count} events ({b.disposition}, evidence {b.evidence_quality})
                    </li>
                  ))}
                </ul>
              )}
              <Table caption={`Events of ${s.current_year} by coverage`} head={['Reason', 'Disposition', 'Evidence', 'Events', 'Net']} numeric={[3, 4]}>
                {s.current_year_coverage.map((c) => (
                  <tr>
                    <td>{c.reason}</td>
                    <td>{c.disposition}</td>
                    <td>{c.evidence_quality}</td>
                    <td class="num">{c.event_count}</td>
                    <td class="num">{formatMinor(c.net_minor, c.currency)}</td>
                  </tr>
                ))}
              </Table>
              <p class="help">{s.disclaimer}</p>
            </>
          );
        }}
      </Loaded>
    </>
  );
}

const W = 320;
const H = 160;

/**
 * The year's cumulative amount against the threshold, from the points the API states: 1 January (zero),
 * the crossing (its event's cumulative amount, marked) and the cutoff (the current amount).
 */
function ThresholdChart({ year, check }: { year: number; check: Check }) {
  const start = Date.UTC(year, 0, 1);
  const end = Date.UTC(year + 1, 0, 1);
  const cutoff = check.cutoff_at ? Date.parse(check.cutoff_at) : Date.now();
  const points: { t: number; v: number }[] = [{ t: start, v: 0 }];
  const crossing = check.current_year_crossing;
  if (crossing) points.push({ t: Date.parse(crossing.occurred_at), v: crossing.cumulative_minor });
  points.push({ t: Math.min(cutoff, end), v: check.current_minor });
  const top = Math.max(check.threshold_minor, check.current_minor) * 1.15 || 1;
  const x = (t: number) => ((t - start) / (end - start)) * W;
  const y = (v: number) => H - (v / top) * H;
  const label = `Cumulative ${formatMinor(check.current_minor, check.currency)} against the threshold ${formatMinor(check.threshold_minor, check.currency)}${crossing ? `, crossed on ${isoDate(crossing.occurred_at)}` : ', not crossed'}`;
  return (
    <figure class="chart">
      <svg viewBox={`-4 -4 ${W + 8} ${H + 24}`} role="img" aria-label={label}>
        <line class="axis" x1={0} y1={H} x2={W} y2={H} />
        <line class="threshold" x1={0} y1={y(check.threshold_minor)} x2={W} y2={y(check.threshold_minor)} />
        <text class="threshold-label" x={4} y={y(check.threshold_minor) - 4}>
          threshold {formatMinor(check.threshold_minor, check.currency)}
        </text>
        <polyline class="cumulative" points={points.map((p) => `${x(p.t).toFixed(1)},${y(p.v).toFixed(1)}`).join(' ')} />
        {crossing && <circle class="crossing" cx={x(Date.parse(crossing.occurred_at))} cy={y(crossing.cumulative_minor)} r={5} />}
        <text x={0} y={H + 16}>
          {year}-01-01
        </text>
        <text x={W} y={H + 16} text-anchor="end">
          {year}-12-31
        </text>
      </svg>
      <figcaption>{label}.</figcaption>
    </figure>
  );
}
