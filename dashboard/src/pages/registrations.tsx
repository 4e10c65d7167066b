import { useState } from 'preact/hooks';
import { api, ApiError, ok } from '../api/client';
import { isoDate } from '../format';
import { Action, ErrorBox, Loaded, PageTitle, Table, useLoad } from '../ui';

type Registration = {
  id: number;
  scheme_type: string;
  member_state_identification: string;
  vat_registration_number_masked: string | null;
  ioss_intermediary_name: string | null;
  effective_from: string;
  effective_to: string | null;
  status: string;
  coverage_status: string;
  conflicting_registration_ids: number[];
};

const FIELDS = ['scheme_type', 'member_state_identification', 'vat_registration_number', 'ioss_intermediary_name', 'ioss_intermediary_number', 'effective_from', 'effective_to', 'status'] as const;
type Field = (typeof FIELDS)[number];

/** The form field a refusal concerns: `invalid_<field>` names it; an overlap concerns the dates. */
export function fieldOfError(e: ApiError): Field | undefined {
  const named = FIELDS.find((f) => e.code === `invalid_${f}` || e.code === `missing_${f}` || e.body.field === f);
  if (named) return named;
  if (e.code === 'registration_overlap' || e.code === 'invalid_effective_window' || e.code === 'effective_to_before_effective_from') return 'effective_from';
  if (/vat_registration_number|ioss_number/.test(e.code)) return 'vat_registration_number';
  return undefined;
}

const COVERAGE_TEXT: Record<string, string> = {
  counted: 'counted',
  cleanup_required: 'cleanup required',
  excluded: 'excluded (never counts)',
  pending: 'pending (does not count yet)',
};

export function RegistrationsPage(props: { canWrite: boolean }) {
  const [state, reload] = useLoad(() => ok<{ items: Registration[] }>(api.GET('/v1/tax-registrations')), 'registrations');
  const today = new Date().toISOString().slice(0, 10);
  return (
    <>
      <PageTitle>Registrations</PageTitle>
      <Loaded state={state} what="the registrations">
        {(r) => (
          <Table caption="OSS and IOSS registrations" head={['Id', 'Scheme', 'Identification', 'Number', 'From', 'To', 'Status', 'Coverage', ...(props.canWrite ? ['Actions'] : [])]}>
            {r.items.map((g) => (
              <tr class={g.coverage_status === 'cleanup_required' ? 'cleanup' : undefined}>
                <td>{g.id}</td>
                <td>{g.scheme_type}</td>
                <td>{g.member_state_identification}</td>
                <td>
                  <code>{g.vat_registration_number_masked ?? '—'}</code>
                </td>
                <td>{isoDate(g.effective_from)}</td>
                <td>{g.effective_to ? isoDate(g.effective_to) : 'open-ended'}</td>
                <td>{g.status}</td>
                <td>
                  <span class={`badge ${g.coverage_status}`}>{COVERAGE_TEXT[g.coverage_status] ?? g.coverage_status}</span>
                  {g.conflicting_registration_ids.length > 0 && <> — overlaps {g.conflicting_registration_ids.join(', ')}</>}
                </td>
                {props.canWrite && (
                  <td class="actions">
                    {g.status !== 'ended' && g.status !== 'excluded' && (
                      <Action label={`End ${g.id} today`} run={() => ok(api.PATCH('/v1/tax-registrations/{id}', { params: { path: { id: String(g.id) } }, body: { effective_to: g.effective_to && g.effective_to < today ? g.effective_to : today, status: 'ended' } }))} done={reload} />
                    )}
                    {g.status !== 'excluded' && <Action label={`Exclude ${g.id}`} run={() => ok(api.PATCH('/v1/tax-registrations/{id}', { params: { path: { id: String(g.id) } }, body: { status: 'excluded' } }))} done={reload} />}
                  </td>
                )}
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
      {props.canWrite && <CreateRegistration done={reload} />}
    </>
  );
}

function CreateRegistration(props: { done: () => void }) {
  const [error, setError] = useState<ApiError | undefined>();
  const [busy, setBusy] = useState(false);
  const field = error ? fieldOfError(error) : undefined;
  const input = (name: Field, label: string, attrs: Record<string, unknown> = {}) => (
    <div class="field">
      <label for={`reg_${name}`}>{label}</label>
      <input id={`reg_${name}`} name={name} aria-invalid={field === name ? 'true' : undefined} aria-describedby={field === name ? 'reg_error' : undefined} {...attrs} />
      {field === name && error && (
        <p class="field-error" id="reg_error">
          {error.detail} <code>{error.code}</code>
        </p>
      )}
    </div>
  );
  return (
    <form
      class="create"
      onSubmit={async (e) => {
        e.preventDefault();
        const f = e.currentTarget as HTMLFormElement;
        const data = Object.fromEntries([...new FormData(f).entries()].map(([k, v]) => [k, String(v).trim()]).filter(([, v]) => v !== ''));
        setBusy(true);
        setError(undefined);
        try {
          await ok(api.POST('/v1/tax-registrations', { body: data as never }));
          f.reset();
          props.done();
        } catch (err) {
          setError(err as ApiError);
        } finally {
          setBusy(false);
        }
      }}
    >
      <fieldset>
        <legend>New registration</legend>
        <div class="field">
          <label for="reg_scheme_type">Scheme</label>
          <select id="reg_scheme_type" name="scheme_type">
            <option value="union_oss">Union OSS</option>
            <option value="non_union_oss">Non-Union OSS</option>
            <option value="ioss">IOSS</option>
          </select>
        </div>
        {input('member_state_identification', 'Member State of identification', { required: true, maxLength: 2, placeholder: 'DE' })}
        {input('vat_registration_number', 'VAT or IOSS number', { required: true, autocomplete: 'off' })}
        {input('effective_from', 'Effective from', { type: 'date', required: true })}
        {input('effective_to', 'Effective to (inclusive)', { type: 'date' })}
        <div class="field">
          <label for="reg_status">Status</label>
          <select id="reg_status" name="status">
            <option value="active">active</option>
            <option value="pending">pending</option>
          </select>
        </div>
        {error && field === undefined && <ErrorBox error={error} />}
        <button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create registration'}
        </button>
      </fieldset>
    </form>
  );
}
