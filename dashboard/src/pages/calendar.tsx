import { api, ApiError, ok } from '../api/client';
import { isoDate } from '../format';
import { href, Link } from '../router';
import { Loaded, PageTitle, Table, useLoad } from '../ui';

/** One period of `GET /v1/reports/filing-calendar` (issue 21): a Union OSS quarter or an IOSS month. */
type CalendarPeriod = { scheme_type: string; period_key: string; period_start?: string; period_end?: string; due_date: string; status: string; registration_id?: number | null };

const STATUS_TEXT: Record<string, string> = { not_due: 'not due', due: 'due', overdue: 'overdue', locked: 'locked', filed: 'filed', nil_return_due: 'nil return due' };

/** Calls the calendar through the generic client: the route arrives with issue 21 (its types with the regenerated schema). */
async function loadCalendar(from: string, to: string): Promise<{ items: CalendarPeriod[] } | 'unavailable'> {
  try {
    const get = api.GET as unknown as (path: string, init: { params: { query: Record<string, string> } }) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
    return await ok<{ items: CalendarPeriod[] }>(get('/v1/reports/filing-calendar', { params: { query: { from, to } } }));
  } catch (e) {
    if (e instanceof ApiError && e.status === 404 && e.code === 'not_found') return 'unavailable';
    throw e;
  }
}

export function CalendarPage(props: { params: URLSearchParams }) {
  const year = new Date().getUTCFullYear();
  const from = props.params.get('from') ?? `${year - 1}-01-01`;
  const to = props.params.get('to') ?? `${year}-12-31`;
  const [state] = useLoad(() => loadCalendar(from, to), `${from}:${to}`);
  return (
    <>
      <PageTitle>Filing calendar</PageTitle>
      <p>
        Periods due from {from} to {to}. <Link to={href('notifications')}>Notifications</Link>
      </p>
      <Loaded state={state} what="the filing calendar">
        {(c) =>
          c === 'unavailable' ? (
            <div class="notice" role="status">
              This server does not offer the filing calendar yet (<code>GET /v1/reports/filing-calendar</code> answered 404). Open a <Link to={href('quarter')}>quarter</Link> or the{' '}
              <Link to={href('ioss')}>IOSS months</Link> to see their status.
            </div>
          ) : (
            <CalendarTable items={c.items} />
          )
        }
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
            <span class={`badge ${p.status}`}>{STATUS_TEXT[p.status] ?? p.status}</span>
          </td>
        </tr>
      ))}
    </Table>
  );
}

