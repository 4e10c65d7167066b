import { useRef, useState } from 'preact/hooks';
import { api, ApiError, ok, type Schemas } from '../api/client';
import { formatBps, formatMinor, isoDate, isoDateTime, shiftQuarter } from '../format';
import { href, Link, navigate } from '../router';
import { ErrorBox, Loaded, PageTitle, Pager, Table, useLoad } from '../ui';

type Summary = Schemas['UnionOssSummary'];
type Locked = Schemas['LockedPeriod'];

const PERIOD = /^\d{4}-Q[1-4]$/;

export function QuarterPage(props: { params: URLSearchParams; canWrite: boolean }) {
  const period = props.params.get('period') ?? '';
  const [summary, reloadSummary] = useLoad(() => ok<Summary>(api.GET('/v1/reports/oss-quarterly-summary', { params: { query: { period } } })), period);
  const [locked, reloadLocked] = useLoad(
    () => ok<{ items: Locked[] }>(api.GET('/v1/reports/locked-return-periods/union-oss', { params: { query: { period } } })).then((r) => r.items.find((i) => i.period_key === period) ?? null),
    period,
  );
  const reload = () => {
    reloadSummary();
    reloadLocked();
  };
  return (
    <>
      <PageTitle>Union OSS return {period}</PageTitle>
      <nav class="period-nav" aria-label="Quarters">
        <Link to={href('quarter', { period: shiftQuarter(period, -1) })}>← {shiftQuarter(period, -1)}</Link>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const v = ((e.currentTarget as HTMLFormElement).elements.namedItem('period') as HTMLInputElement).value.trim();
            if (PERIOD.test(v)) navigate(href('quarter', { period: v }));
          }}
        >
          <label for="period">Quarter</label>
          <input id="period" name="period" value={period} pattern="\d{4}-Q[1-4]" size={8} />
          <button type="submit">Open</button>
        </form>
        <Link to={href('quarter', { period: shiftQuarter(period, 1) })}>{shiftQuarter(period, 1)} →</Link>
      </nav>
      <Loaded state={summary} what="the return">
        {(s) => (
          <>
            <LockPanel summary={s} locked={locked.status === 'ok' ? locked.data : undefined} lockedError={locked.status === 'error' ? locked.error : undefined} canWrite={props.canWrite} done={reload} />
            <ReturnView s={s} />
          </>
        )}
      </Loaded>
    </>
  );
}

function ReturnView({ s }: { s: Summary }) {
  const money = (minor: number) => formatMinor(minor, s.return_currency);
  return (
    <>
      <p>
        {isoDate(s.period_start)} to {isoDate(s.period_end)} · Member State of identification {s.member_state_identification} · registration {s.registration_id} · ledger position {s.ledger_position} · return currency {s.return_currency} · status{' '}
        <span class={`badge ${s.period_status}`}>{s.period_status}</span>
      </p>
      <dl class="totals">
        <div>
          <dt>Taxable amount</dt>
          <dd>{money(s.totals.taxable_amount_minor)}</dd>
        </div>
        <div>
          <dt>VAT of the quarter</dt>
          <dd>{money(s.totals.current_vat_minor)}</dd>
        </div>
        <div>
          <dt>Corrections</dt>
          <dd>{money(s.totals.correction_vat_minor)}</dd>
        </div>
        <div>
          <dt>Payable</dt>
          <dd>{money(s.totals.payable_vat_minor)}</dd>
        </div>
      </dl>
      <p>
        {s.total_source_event_count} events: {s.included_source_event_count} included, {s.excluded_source_event_count} excluded —{' '}
        <Link to={href('quarter/events', { period: s.period_key })}>see every event</Link>
      </p>
      <h2>Warnings</h2>
      {s.warnings.length === 0 ? (
        <p>No warnings.</p>
      ) : (
        <ul class="warnings">
          {s.warnings.map((w) => (
            <li class={w.review}>
              <Link to={href('quarter/events', { period: s.period_key, reason: w.code, disposition: 'excluded' })}>
                {w.code} <span class="count">{w.count} {w.count === 1 ? 'event' : 'events'}</span>
              </Link>{' '}
              — reason {w.reason}, <span class="badge">{w.review.replace(/_/g, ' ')}</span>
            </li>
          ))}
        </ul>
      )}
      <Table caption="Balance per Member State of consumption" head={['Member State', 'VAT of the quarter', 'Corrections', 'Balance', 'Payable']} numeric={[1, 2, 3, 4]}>
        {s.balances.map((b) => (
          <tr>
            <th scope="row">{b.member_state_of_consumption}</th>
            <td class="num">{money(b.current_vat_minor)}</td>
            <td class="num">{money(b.correction_vat_minor)}</td>
            <td class="num">{money(b.balance_minor)}</td>
            <td class="num">{money(b.payable_vat_minor)}</td>
          </tr>
        ))}
      </Table>
      <Table caption="Supplies by section and rate" head={['Section', 'Member State', 'From', 'Kind', 'Rate', 'Taxable amount', 'VAT', 'Events']} numeric={[4, 5, 6, 7]}>
        {s.rows.map((r) => (
          <tr>
            <td>{r.section}</td>
            <td>{r.member_state_of_consumption}</td>
            <td>{r.origin_member_state ?? s.member_state_identification}</td>
            <td>{r.supply_kind}</td>
            <td class="num">
              {formatBps(r.vat_rate_bps)} {r.rate_type.toLowerCase()}
            </td>
            <td class="num">{money(r.taxable_amount_minor)}</td>
            <td class="num">{money(r.vat_amount_minor)}</td>
            <td class="num">{r.source_event_count}</td>
          </tr>
        ))}
      </Table>
      <Table caption="Corrections by original period" head={['Original period', 'Member State', 'VAT', 'Events']} numeric={[2, 3]}>
        {s.corrections.map((c) => (
          <tr>
            <td>
              <Link to={href('quarter', { period: c.original_period })}>{c.original_period}</Link>
            </td>
            <td>{c.member_state_of_consumption}</td>
            <td class="num">{money(c.vat_amount_minor)}</td>
            <td class="num">{c.source_event_count}</td>
          </tr>
        ))}
      </Table>
    </>
  );
}

function LockPanel(props: { summary: Summary; locked: Locked | null | undefined; lockedError?: ApiError; canWrite: boolean; done: () => void }) {
  const { summary: s, locked } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<ApiError | undefined>();
  const [busy, setBusy] = useState(false);
  const run = async (call: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await call();
      props.done();
    } catch (e) {
      setError(e as ApiError);
    } finally {
      setBusy(false);
    }
  };
  if (props.lockedError) return <ErrorBox error={props.lockedError} />;
  if (locked === undefined) return <p class="loading" role="status">Loading the lock state…</p>;
  return (
    <section class="lock" aria-labelledby="lock-title">
      <h2 id="lock-title">Lock and filing</h2>
      {locked === null ? (
        <p>Not locked: the figures below are a preview and change with new events.</p>
      ) : (
        <p>
          Locked {isoDateTime(locked.locked_at)} · <span class={`badge ${locked.filing_status}`}>{locked.filing_status.replace(/_/g, ' ')}</span>
          {locked.overdue && <span class="badge overdue">overdue</span>} {locked.filed_at && <>· filed {isoDateTime(locked.filed_at)}</>}
          {filingReference(locked) && <> · reference {filingReference(locked)}</>}
          <br />
          {locked.filing_status_detail}
        </p>
      )}
      {error && <ErrorBox error={error} />}
      {props.canWrite && locked === null && (
        <>
          <button type="button" disabled={busy} onClick={() => dialog.current?.showModal()}>
            Lock {s.period_key}…
          </button>
          <dialog ref={dialog} aria-labelledby="lock-confirm-title">
            <h2 id="lock-confirm-title">Lock {s.period_key}?</h2>
            <p>
              This seals the Union OSS return {s.period_key} of {s.member_state_identification} (registration {s.registration_id}) at ledger position {s.ledger_position}: {s.included_source_event_count} included and{' '}
              {s.excluded_source_event_count} excluded events, {s.balances.length} Member States, payable {formatMinor(s.totals.payable_vat_minor, s.return_currency)}. The stored artifacts (JSON, CSV and the others the
              service writes) never change afterwards; later events for this quarter become corrections.
            </p>
            <form method="dialog" class="buttons">
              <button type="submit" value="cancel">
                Cancel
              </button>
              <button
                type="button"
                class="danger"
                onClick={() => {
                  dialog.current?.close();
                  void run(() => ok(api.POST('/v1/reports/locked-return-periods/union-oss', { params: { query: { period: s.period_key } } })));
                }}
              >
                Lock and seal {s.period_key}
              </button>
            </form>
          </dialog>
        </>
      )}
      {props.canWrite && locked !== null && !locked.filed_at && <FiledForm period={s.period_key} busy={busy} run={run} />}
      {locked && (locked.exports ?? []).length > 0 && (
        <>
          <h3>Stored artifacts</h3>
          <ul class="downloads">
            {(locked.exports ?? []).map((x) => (
              <li>
                <a href={x.download_path} download={x.filename}>
                  Download {x.filename}
                </a>{' '}
                <span class="meta">
                  {x.format.toUpperCase()} · {x.byte_size} bytes · SHA-256 <code>{x.sha256.slice(0, 16)}…</code>
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function filingReference(l: Locked): string | null | undefined {
  return l.filing_record?.submission_reference;
}

/** Mark filed, with the submission reference and date the filing record keeps (issue 21's optional body). */
function FiledForm(props: { period: string; busy: boolean; run: (call: () => Promise<unknown>) => Promise<void> }) {
  return (
    <form
      class="filed"
      onSubmit={(e) => {
        e.preventDefault();
        const f = e.currentTarget as HTMLFormElement;
        const value = (name: string) => (f.elements.namedItem(name) as HTMLInputElement).value.trim();
        const record = { submission_reference: value('submission_reference'), filed_on: value('filed_on'), note: value('note') };
        const given = Object.fromEntries(Object.entries(record).filter(([, v]) => v !== ''));
        void props.run(() =>
          ok(
            api.POST('/v1/reports/locked-return-periods/union-oss/filed', {
              params: { query: { period: props.period } },
              // No field filled: `{}`, which records the filing without a reference (as no body does).
              body: given,
            }),
          ),
        );
      }}
    >
      <fieldset>
        <legend>Mark {props.period} filed</legend>
        <label for="submission_reference">Submission reference</label>
        <input id="submission_reference" name="submission_reference" maxLength={200} />
        <label for="filed_on">Filed on</label>
        <input id="filed_on" name="filed_on" type="date" />
        <label for="note">Note</label>
        <input id="note" name="note" maxLength={1000} />
        <button type="submit" disabled={props.busy}>
          Mark filed
        </button>
      </fieldset>
    </form>
  );
}

type EventPage = Schemas['UnionOssEventPage'];

/** The drill-down: the events behind a quarter's figures or one of its warnings. */
export function EventsPage(props: { params: URLSearchParams }) {
  const p = props.params;
  const period = p.get('period') ?? '';
  const filters = { period, reason: p.get('reason') ?? undefined, disposition: (p.get('disposition') ?? undefined) as 'included' | 'excluded' | undefined, member_state: p.get('member_state') ?? undefined };
  const cursor = p.get('cursor') ?? undefined;
  const [state] = useLoad(
    () => ok<EventPage>(api.GET('/v1/reports/oss-quarterly-summary/events', { params: { query: { ...filters, cursor, limit: '50' } } })),
    p.toString(),
  );
  const link = (c: string | undefined) => href('quarter/events', { ...filters, cursor: c });
  return (
    <>
      <PageTitle>
        Events of {period}
        {filters.reason ? ` — ${filters.reason}` : ''}
      </PageTitle>
      <p>
        <Link to={href('quarter', { period })}>← Back to the return {period}</Link>
      </p>
      <Loaded state={state} what="the events">
        {(r) => (
          <>
            <p>
              {r.source === 'preview' ? 'Preview at the current ledger position.' : 'What the lock sealed.'} {filters.disposition && `Only ${filters.disposition} events.`}
            </p>
            <Table caption={`Events of ${period}`} head={['Event', 'Occurred', 'Type', 'Member State', 'Kind', 'Customer', 'Net', 'VAT', 'Disposition', 'Warning', 'Reason']} numeric={[6, 7]}>
              {r.items.map((e) => (
                <tr>
                  <td>
                    <code>{e.event_id}</code>
                  </td>
                  <td>{isoDate(e.occurred_at)}</td>
                  <td>{e.event_type}</td>
                  <td>{e.member_state_of_consumption}</td>
                  <td>{e.supply_kind}</td>
                  <td>{e.customer_type}</td>
                  <td class="num">{formatMinor(e.net_amount_minor, e.currency)}</td>
                  <td class="num">{formatMinor(e.vat_amount_minor, e.currency)}</td>
                  <td>{e.disposition}</td>
                  <td>{e.warning_code ?? '—'}</td>
                  <td>
                    {e.reason ?? '—'}
                    {e.review ? ` (${e.review.replace(/_/g, ' ')})` : ''}
                  </td>
                </tr>
              ))}
            </Table>
            {r.items.length === 0 && <p>No events match.</p>}
            <Pager next={r.next_cursor} hasCursor={cursor !== undefined} link={link} />
          </>
        )}
      </Loaded>
    </>
  );
}
