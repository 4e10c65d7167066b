import { api, ok } from '../api/client';
import { isoDate } from '../format';
import { href, navigate } from '../router';
import { Action, Loaded, PageTitle, Pager, Table, useLoad } from '../ui';

type Revision = { assignment_id: string; revision: number; state: string; scheme: string; display_code: string; product_reference: string; variant_reference: string | null; valid_from: string; valid_to: string | null; catalog_version: string };

export function ProductCodesPage(props: { params: URLSearchParams; canWrite: boolean }) {
  const integration = props.params.get('integration_id') ?? '';
  const cursor = props.params.get('cursor') ?? undefined;
  return (
    <>
      <PageTitle>Product-code assignments</PageTitle>
      <form
        class="inline"
        onSubmit={(e) => {
          e.preventDefault();
          const v = ((e.currentTarget as HTMLFormElement).elements.namedItem('integration_id') as HTMLInputElement).value.trim();
          navigate(href('product-codes', { integration_id: v }));
        }}
      >
        <label for="integration_id">Integration id</label>
        <input id="integration_id" name="integration_id" value={integration} inputMode="numeric" pattern="[0-9]+" required />
        <button type="submit">Show</button>
      </form>
      {/^\d+$/.test(integration) ? <Assignments integration={integration} cursor={cursor} canWrite={props.canWrite} /> : <p>Enter the id of one of the account's integrations.</p>}
    </>
  );
}

function Assignments(props: { integration: string; cursor: string | undefined; canWrite: boolean }) {
  const path = { integration_id: props.integration };
  const [state, reload] = useLoad(() => ok<{ items: Revision[]; next_cursor: string | null }>(api.GET('/v1/integrations/{integration_id}/product-code-assignments', { params: { path, query: { cursor: props.cursor } } })), `${props.integration}:${props.cursor}`);
  return (
    <Loaded state={state} what="the assignments">
      {(r) => (
        <>
          <Table caption={`Assignments of integration ${props.integration}`} head={['Product', 'Code', 'Valid', 'State', 'Catalog', ...(props.canWrite ? ['Actions'] : [])]}>
            {r.items.map((a) => (
              <tr>
                <td>
                  {a.product_reference}
                  {a.variant_reference ? ` / ${a.variant_reference}` : ''}
                </td>
                <td>
                  {a.scheme.toUpperCase()} {a.display_code}
                </td>
                <td>
                  {isoDate(a.valid_from)} – {a.valid_to ? isoDate(a.valid_to) : 'open'}
                </td>
                <td>
                  <span class={`badge ${a.state}`}>{a.state}</span> (revision {a.revision})
                </td>
                <td>{a.catalog_version}</td>
                {props.canWrite && (
                  <td class="actions">
                    {a.state === 'submitted' && <Action label="Validate" run={() => ok(api.POST('/v1/integrations/{integration_id}/product-code-assignments/{assignment_id}/validate', { params: { path: { ...path, assignment_id: a.assignment_id } } }))} done={reload} />}
                    {a.state !== 'archived' && <Action label="Archive" run={() => ok(api.POST('/v1/integrations/{integration_id}/product-code-assignments/{assignment_id}/archive', { params: { path: { ...path, assignment_id: a.assignment_id } } }))} done={reload} />}
                  </td>
                )}
              </tr>
            ))}
          </Table>
          {r.items.length === 0 && <p>No assignments.</p>}
          <Pager next={r.next_cursor} hasCursor={props.cursor !== undefined} link={(c) => href('product-codes', { integration_id: props.integration, cursor: c })} />
        </>
      )}
    </Loaded>
  );
}
