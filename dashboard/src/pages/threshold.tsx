import { api, ok, okExact } from '../api/client';
import { formatMinor, isoDate } from '../format';
import { Loaded, PageTitle, Table, useLoad } from '../ui';

type Crossing = { event_id: string; occurred_at: string; cumulative_minor: number; threshold_minor: number; currency: string };
type Minor = number | bigint;
type Check = { establishment_country: string; currency: string; threshold_minor: number; current_minor: number; remaining_minor: number; percentage_used: number; current_comparison: string; current_year_crossing: Crossing | null; cutoff_at: string | null; primary_treatment_driver: string };
type Point = { date: string; day_minor: Minor; cumulative_minor: Minor; event_count: Minor };
/** The year's cumulative counted amount by tax-point day of one establishment State (exact integers: bigint beyond 2^53). */
type Series = { establishment_country: string; currency: string; threshold_minor: Minor; points: Point[]; crossing: { event_id: string; occurred_at: string; cumulative_minor: Minor } | null };
type SeriesAnswer = { year: number; cutoff_date: string; series: Series[] };
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
  const [state] = useLoad(
    () => Promise.all([ok<Status>(api.GET('/v1/compliance/threshold-status')), okExact<SeriesAnswer>(api.GET('/v1/compliance/threshold-status/series', { parseAs: 'text' }))]),
    'threshold',
  );
  return (
    <>
      <PageTitle>Article 59c threshold</PageTitle>
      <Loaded state={state} what="the threshold status">
        {([s, daily]) => {
          const seriesOf = (country: string) => daily.series.find((x) => x.establishment_country === country);
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
                  <ThresholdChart year={daily.year} cutoff={daily.cutoff_date} currency={c.currency} threshold={c.threshold_minor} series={seriesOf(c.establishment_country)} />
                  <p>
                    {c.current_year_crossing
                      ? `Crossed on ${isoDate(c.current_year_crossing.occurred_at)} by event ${c.current_year_crossing.event_id} (cumulative ${formatMinor(c.current_year_crossing.cumulative_minor, c.currency)}).`
                      : `Not crossed; ${formatMinor(c.remaining_minor, c.currency)} remain.`}{' '}
                    Treatment: {c.primary_treatment_driver.replace(/_/g, ' ')}.
                  </p>
                </section>
              ))}
              {s.checks.length === 0 &&
                daily.series.map((x) => (
                  <section>
                    <h2>
                      Counted so far for {x.establishment_country}: {formatMinor(x.points.at(-1)?.cumulative_minor ?? 0, x.currency)} (no comparison while the evidence is {s.threshold_evidence_status})
                    </h2>
                    <ThresholdChart year={daily.year} cutoff={daily.cutoff_date} currency={x.currency} threshold={x.threshold_minor} series={x} />
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
const DAY = 86_400_000;

/**
 * The year's cumulative counted amount by tax-point day (a step at each day with a change, from the API's
 * series) against the threshold line, the crossing marked. Positions are drawn from numbers; every figure
 * shown as text is the API's exact integer. The same points are listed in a table for screen readers and
 * keyboard users.
 */
function ThresholdChart(props: { year: number; cutoff: string; currency: string; threshold: Minor; series: Series | undefined }) {
  const { year, currency } = props;
  const points = props.series?.points ?? [];
  const crossing = props.series?.crossing ?? null;
  const start = Date.UTC(year, 0, 1);
  const end = Date.UTC(year + 1, 0, 1);
  const threshold = Number(props.threshold);
  const values = [0, threshold, ...points.map((p) => Number(p.cumulative_minor)), ...(crossing ? [Number(crossing.cumulative_minor)] : [])];
  const top = Math.max(...values) * 1.15 || 1;
  const bottom = Math.min(...values);
  const x = (t: number) => (((Math.min(Math.max(t, start), end) - start) / (end - start)) * W).toFixed(1);
  const y = (v: Minor) => (H - ((Number(v) - bottom) / (top - bottom)) * H).toFixed(1);
  const dayOf = (date: string) => Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
  // A step line: flat between days, up or down on the day of a change, flat again to the end of the cutoff day.
  let path = `M${x(start)},${y(0)}`;
  for (const p of points) path += ` H${x(dayOf(p.date))} V${y(p.cumulative_minor)}`;
  path += ` H${x(dayOf(props.cutoff) + DAY)}`;
  const last = points.at(-1)?.cumulative_minor ?? 0;
  const crossedOn = crossing ? isoDate(crossing.occurred_at) : undefined;
  const label = `Cumulative ${formatMinor(last, currency)} against the threshold ${formatMinor(props.threshold, currency)}${crossing ? `, crossed on ${crossedOn} (cumulative ${formatMinor(crossing.cumulative_minor, currency)})` : ', not crossed'}; ${points.length} days with a change up to ${props.cutoff}`;
  return (
    <figure class="chart">
      <svg viewBox={`-4 -4 ${W + 8} ${H + 24}`} role="img" aria-label={label}>
        <line class="axis" x1={0} y1={y(0)} x2={W} y2={y(0)} />
        <line class="threshold" x1={0} y1={y(props.threshold)} x2={W} y2={y(props.threshold)} />
        <text class="threshold-label" x={4} y={Number(y(props.threshold)) - 4}>
          threshold {formatMinor(props.threshold, currency)}
        </text>
        <path class="cumulative" d={path} />
        {points.map((p) => (
          <circle class="point" cx={x(dayOf(p.date))} cy={y(p.cumulative_minor)} r={2.5} />
        ))}
        {crossing && (
          <>
            <line class="crossing-day" x1={x(dayOf(crossing.occurred_at))} y1={0} x2={x(dayOf(crossing.occurred_at))} y2={H} />
            <circle class="crossing" cx={x(dayOf(crossing.occurred_at))} cy={y(crossing.cumulative_minor)} r={5} />
          </>
        )}
        <text x={0} y={H + 16}>
          {year}-01-01
        </text>
        <text x={W} y={H + 16} text-anchor="end">
          {year}-12-31
        </text>
      </svg>
      <figcaption>{label}.</figcaption>
      <details class="chart-data">
        <summary>The chart as a table ({points.length} days)</summary>
        <Table caption={`Cumulative counted amount of ${year} by tax-point day`} head={['Date', 'Change', 'Cumulative', 'Events', 'Note']} numeric={[1, 2, 3]}>
          {points.map((p) => (
            <tr>
              <td>{p.date}</td>
              <td class="num">{formatMinor(p.day_minor, currency)}</td>
              <td class="num">{formatMinor(p.cumulative_minor, currency)}</td>
              <td class="num">{String(p.event_count)}</td>
              <td>{crossing && crossedOn === p.date ? `threshold crossed by event ${crossing.event_id}` : ''}</td>
            </tr>
          ))}
        </Table>
      </details>
    </figure>
  );
}
