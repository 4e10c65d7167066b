import { api, ok, type Schemas } from '../api/client';
import { formatMinor, isoDate, shiftQuarter } from '../format';
import { href, Link } from '../router';
import { Loaded, PageTitle, Pager, Table, useLoad } from '../ui';

type Prep = Schemas['FilingPrep'];

/** The three IOSS months of a quarter (from the filing-prep workspace) with nil-return candidates and exclusions. */
export function IossPage(props: { params: URLSearchParams }) {
  const period = props.params.get('period') ?? '';
  const month = props.params.get('month');
  if (month) return <IossEvents params={props.params} />;
  const [state] = useLoad(() => ok<Prep>(api.GET('/v1/reports/filing-prep', { params: { query: { period } } })), period);
  return (
    <>
      <PageTitle>IOSS months of {period}</PageTitle>
      <nav class="period-nav" aria-label="Quarters">
        <Link to={href('ioss', { period: shiftQuarter(period, -1) })}>← {shiftQuarter(period, -1)}</Link>
        <Link to={href('ioss', { period: shiftQuarter(period, 1) })}>{shiftQuarter(period, 1)} →</Link>
      </nav>
      <Loaded state={state} what="the IOSS months">
        {(p) => (
          <Table caption={`IOSS months of ${period}`} head={['Month', 'Due', 'Status', 'Events', 'Taxable amount', 'Payable', 'Exclusions']} numeric={[3, 4, 5]}>
            {p.ioss.months.map((m) => {
              const nil = m.status !== 'not_covered' && m.source_event_counts.included === 0;
              return (
                <tr>
                  <th scope="row">
                    <Link to={href('ioss', { month: m.period_key })}>{m.period_key}</Link>
                  </th>
                  <td>{isoDate(m.due_date)}</td>
                  <td>
                    <span class={`badge ${m.status}`}>{m.status.replace(/_/g, ' ')}</span> {nil && <span class="badge nil_return_due">nil return candidate</span>}
                  </td>
                  <td class="num">
                    {m.source_event_counts.included} / {m.source_event_counts.total}
                  </td>
                  <td class="num">{formatMinor(m.totals.taxable_amount_minor, m.return_currency)}</td>
                  <td class="num">{formatMinor(m.totals.payable_vat_minor, m.return_currency)}</td>
                  <td>
                    {m.warnings.length === 0
                      ? '—'
                      : m.warnings.map((w) => (
                          <div>
                            <Link to={href('ioss', { month: m.period_key, reason: w.code, disposition: 'excluded' })}>
                              {w.code} ({w.count})
                            </Link>
                          </div>
                        ))}
                  </td>
                </tr>
              );
            })}
          </Table>
        )}
      </Loaded>
    </>
  );
}

type IossEventPage = Schemas['IossEventPage'];

function IossEvents(props: { params: URLSearchParams }) {
  const p = props.params;
  const month = p.get('month')!;
  const filters = { month, reason: p.get('reason') ?? undefined, disposition: (p.get('disposition') ?? undefined) as 'included' | 'excluded' | undefined };
  const cursor = p.get('cursor') ?? undefined;
  const [state] = useLoad(() => ok<IossEventPage>(api.GET('/v1/reports/ioss-monthly/events', { params: { query: { ...filters, cursor, limit: '50' } } })), p.toString());
  return (
    <>
      <PageTitle>IOSS events of {month}</PageTitle>
      <Loaded state={state} what="the events">
        {(r) => (
          <>
            <Table caption={`IOSS events of ${month}`} head={['Event', 'Occurred', 'Member State', 'Net', 'VAT', 'Disposition', 'Exclusion']} numeric={[3, 4]}>
              {r.items.map((e) => (
                <tr>
                  <td>
                    <code>{e.event_id}</code>
                  </td>
                  <td>{isoDate(e.occurred_at)}</td>
                  <td>{e.member_state_of_consumption}</td>
                  <td class="num">{formatMinor(e.net_amount_minor, e.currency)}</td>
                  <td class="num">{formatMinor(e.vat_amount_minor, e.currency)}</td>
                  <td>{e.disposition}</td>
                  <td>{e.warning_code ?? '—'}</td>
                </tr>
              ))}
            </Table>
            {r.items.length === 0 && <p>No events match.</p>}
            <Pager next={r.next_cursor} hasCursor={cursor !== undefined} link={(c) => href('ioss', { ...filters, cursor: c })} />
          </>
        )}
      </Loaded>
    </>
  );
}
