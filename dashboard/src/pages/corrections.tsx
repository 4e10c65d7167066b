import { api, ok } from '../api/client';
import { isoDate } from '../format';
import { href, Link } from '../router';
import { Action, Loaded, PageTitle, Pager, Table, useLoad } from '../ui';

type Correction = { id: string; event_id: string; order_reference: string | null; product_reference: string | null; occurred_at: string; reason: string; proposed: unknown; status: string; resolution: { action: string; note: string; resolved_at: string } | null };

export function CorrectionsPage(props: { params: URLSearchParams; canWrite: boolean }) {
  const status = (props.params.get('status') ?? 'open') as 'open' | 'applied' | 'dismissed';
  const cursor = props.params.get('cursor') ?? undefined;
  const [state, reload] = useLoad(() => ok<{ items: Correction[]; next_cursor: string | null }>(api.GET('/v1/classification/correction-reviews', { params: { query: { status, cursor } } })), props.params.toString());
  return (
    <>
      <PageTitle>Correction reviews</PageTitle>
      <nav class="tabs" aria-label="Status">
        {(['open', 'applied', 'dismissed'] as const).map((s) => (
          <Link to={href('corrections', { status: s })} aria-current={s === status ? 'page' : undefined}>
            {s}
          </Link>
        ))}
      </nav>
      <Loaded state={state} what="the correction reviews">
        {(r) => (
          <>
            <Table caption={`Correction reviews (${status})`} head={['Event', 'Occurred', 'Order', 'Product', 'Reason', 'Proposed', props.canWrite && status === 'open' ? 'Resolve' : 'Resolution']}>
              {r.items.map((c) => (
                <tr>
                  <td>
                    <code>{c.event_id}</code>
                  </td>
                  <td>{isoDate(c.occurred_at)}</td>
                  <td>{c.order_reference ?? '—'}</td>
                  <td>{c.product_reference ?? '—'}</td>
                  <td>{c.reason.replace(/_/g, ' ')}</td>
                  <td>
                    <code>{JSON.stringify(c.proposed)}</code>
                  </td>
                  <td class="actions">
                    {c.resolution ? (
                      `${c.resolution.action} ${isoDate(c.resolution.resolved_at)}: ${c.resolution.note}`
                    ) : props.canWrite ? (
                      <>
                        <Action label="Apply" run={() => ok(api.POST('/v1/classification/correction-reviews/{id}/resolve', { params: { path: { id: c.id } }, body: { action: 'apply', note: 'Applied from the dashboard' } }))} done={reload} />
                        <Action label="Dismiss" run={() => ok(api.POST('/v1/classification/correction-reviews/{id}/resolve', { params: { path: { id: c.id } }, body: { action: 'dismiss', note: 'Dismissed from the dashboard' } }))} done={reload} />
                      </>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </Table>
            {r.items.length === 0 && <p>No {status} correction reviews.</p>}
            <Pager next={r.next_cursor} hasCursor={cursor !== undefined} link={(c) => href('corrections', { status, cursor: c })} />
          </>
        )}
      </Loaded>
    </>
  );
}
