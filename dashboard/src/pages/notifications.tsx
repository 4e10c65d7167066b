import { api, ok } from '../api/client';
import { formatMinor, isoDateTime } from '../format';
import { href } from '../router';
import { Action, Loaded, PageTitle, Pager, Table, useLoad } from '../ui';

/** Article 59c kinds carry the event and amounts; return_period_overdue carries the scheme, quarter and due date instead. */
type Notification = {
  id: number;
  kind: string;
  year?: number;
  event_id?: string;
  cumulative_minor?: number;
  threshold_minor?: number;
  currency?: string;
  occurred_at?: string;
  scheme_type?: string;
  period_key?: string;
  due_date?: string;
  created_at: string;
  read: boolean;
  read_at: string | null;
};

const amount = (minor: number | undefined, currency: string | undefined) => (minor === undefined || currency === undefined ? '—' : formatMinor(minor, currency));

export function NotificationsPage(props: { params: URLSearchParams; canWrite: boolean }) {
  const cursor = props.params.get('cursor') ?? undefined;
  const [state, reload] = useLoad(() => ok<{ items: Notification[]; next_cursor: string | null }>(api.GET('/v1/compliance/notifications', { params: { query: { cursor } } })), props.params.toString());
  return (
    <>
      <PageTitle>Notifications</PageTitle>
      <Loaded state={state} what="the notifications">
        {(r) => (
          <>
            <Table caption="Notifications, oldest first" head={['Raised', 'Kind', 'Year', 'Event', 'Cumulative', 'Threshold', 'Read']} numeric={[4, 5]}>
              {r.items.map((n) => (
                <tr class={n.read ? undefined : 'unread'}>
                  <td>{isoDateTime(n.created_at)}</td>
                  <td>{n.kind.replace(/_/g, ' ')}</td>
                  <td>{n.year ?? n.period_key?.slice(0, 4) ?? '—'}</td>
                  <td>
                    {n.event_id !== undefined ? (
                      <code>{n.event_id}</code>
                    ) : (
                      `${(n.scheme_type ?? '').replace(/_/g, ' ')} ${n.period_key ?? ''}${n.due_date ? `, due ${n.due_date}` : ''}`.trim() || '—'
                    )}
                  </td>
                  <td class="num">{amount(n.cumulative_minor, n.currency)}</td>
                  <td class="num">{amount(n.threshold_minor, n.currency)}</td>
                  <td>{n.read ? isoDateTime(n.read_at) : props.canWrite ? <Action label="Mark read" run={() => ok(api.POST('/v1/compliance/notifications/{id}/read', { params: { path: { id: String(n.id) } } }))} done={reload} /> : 'unread'}</td>
                </tr>
              ))}
            </Table>
            {r.items.length === 0 && <p>No notifications.</p>}
            <Pager next={r.next_cursor} hasCursor={cursor !== undefined} link={(c) => href('notifications', { cursor: c })} />
          </>
        )}
      </Loaded>
    </>
  );
}
