import { api, ok, type Schemas } from '../api/client';
import { isoDate } from '../format';
import { href, Link } from '../router';
import { Loaded, PageTitle, Table, useLoad } from '../ui';

/** One period of `GET /v1/reports/filing-calendar` (issue 21): a Union OSS quarter or an IOSS month. */
type CalendarPeriod = Schemas['FilingCalendar']['periods'][number];

const STATUS_TEXT: Record<CalendarPeriod['status'], string> = { not_due: 'not due', due: 'due', overdue: 'overdue', locked: 'locked', filed: 'filed', nil_return_due: 'nil return due' };

export function CalendarPage(props: { params: URLSearchParams }) {
  const year = new Date().getUTCFullYear();
  const from = props.params.get('from') ?? `${year - 1}-01-01`;
  const to = props.params.get('to') ?? `${year}-12-31`;
  const [state] = useLoad(() => ok<Schemas['FilingCalendar']>(api.GET('/v1/reports/filing-calendar', { params: { query: { from, to } } })), `${from}:${to}`);
  return (
    <>
      <PageTitle>Filing calendar</PageTitle>
      <p>
        Periods due from {from} to {to}. <Link to={href('notifications')}>Notifications</Link>
      </p>
      <Loaded state={state} what="the filing calendar">
        {(c) => <CalendarTable items={c.periods} />}
      </Loaded>
    </>
  );
}

function CalendarTable(props: { items: CalendarPeriod[] }) {
  if (props.items.length === 0) return <p>No period of a registration falls in this range.</p>;
  return (
    <Table caption="Returns and their due dates" head={['Period', 'Scheme', 'Due', 'Status']}>
      {props.items.map((p) => (
        <tr class={p.status === 'overdue' || p.status === 'nil_return_due' ? 'attention' : undefined}>
          <th scope="row">
            {p.scheme_type === 'union_oss' ? <Link to={href('quarter', { period: p.period_key })}>{p.period_key}</Link> : p.scheme_type === 'ioss' ? <Link to={href('ioss', { month: p.period_key })}>{p.period_key}</Link> : p.period_key}
          </th>
          <td>{p.scheme_type.replace(/_/g, ' ')}</td>
          <td>{isoDate(p.due_date)}</td>
          <td>
            <span class={`badge ${p.status}`}>{STATUS_TEXT[p.status]}</span>
          </td>
        </tr>
      ))}
    </Table>
  );
}

