import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import './styles.css';
import { api, ApiError, ok, setCsrfToken } from './api/client';
import { CalendarPage } from './pages/calendar';
import { CorrectionsPage } from './pages/corrections';
import { IossPage } from './pages/ioss';
import { NotificationsPage } from './pages/notifications';
import { ProductCodesPage } from './pages/product-codes';
import { EventsPage, QuarterPage } from './pages/quarter';
import { RegistrationsPage } from './pages/registrations';
import { ThresholdPage } from './pages/threshold';
import { lastEndedQuarter } from './format';
import { href, Link, useRoute } from './router';
import { ErrorBox } from './ui';

export type Session = { account_id: number; scope: 'full' | 'read-only'; csrf_token: string; expires_at: string; idle_expires_at: string };

const NAV: { page: string; label: string }[] = [
  { page: 'calendar', label: 'Filing calendar' },
  { page: 'quarter', label: 'Quarter' },
  { page: 'registrations', label: 'Registrations' },
  { page: 'ioss', label: 'IOSS months' },
  { page: 'article-59c', label: 'Article 59c' },
  { page: 'corrections', label: 'Correction reviews' },
  { page: 'product-codes', label: 'Product codes' },
  { page: 'notifications', label: 'Notifications' },
];

function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  useEffect(() => {
    ok<Session>(api.GET('/v1/sessions/current')).then(
      (s) => {
        setCsrfToken(s.csrf_token);
        setSession(s);
      },
      () => setSession(null),
    );
    const ended = () => {
      setCsrfToken(undefined);
      setSession(null);
    };
    window.addEventListener('session-ended', ended);
    return () => window.removeEventListener('session-ended', ended);
  }, []);
  if (session === undefined) return <p class="loading" role="status">Loading…</p>;
  if (session === null)
    return (
      <SignIn
        onSignedIn={(s) => {
          setCsrfToken(s.csrf_token);
          setSession(s);
        }}
      />
    );
  return <Shell session={session} onSignedOut={() => setSession(null)} />;
}

function SignIn(props: { onSignedIn: (s: Session) => void }) {
  const [error, setError] = useState<ApiError | undefined>();
  const [busy, setBusy] = useState(false);
  return (
    <main id="main" class="signin">
      <h1>EU VAT dashboard</h1>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          const form = e.currentTarget as HTMLFormElement;
          const input = form.elements.namedItem('api_key') as HTMLInputElement;
          setBusy(true);
          setError(undefined);
          try {
            const s = await ok<Session>(api.POST('/v1/sessions', { body: { api_key: input.value.trim() } }));
            input.value = '';
            props.onSignedIn(s);
          } catch (err) {
            setError(err as ApiError);
          } finally {
            setBusy(false);
          }
        }}
      >
        <label for="api_key">API key</label>
        <input id="api_key" name="api_key" type="password" autocomplete="off" required aria-describedby="api_key_help" aria-invalid={error ? 'true' : undefined} />
        <p id="api_key_help" class="help">
          Signing in exchanges the key (scope full or read-only) for a session; the browser keeps only the session cookie, never the key.
        </p>
        {error && <ErrorBox error={error} />}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}

function Shell(props: { session: Session; onSignedOut: () => void }) {
  const route = useRoute();
  const canWrite = props.session.scope === 'full';
  const section = route.page.split('/')[0] || 'quarter';
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header>
        <span class="brand">EU VAT dashboard</span>
        <span class="who">
          account {props.session.account_id} · {canWrite ? 'full access' : 'read-only'}
        </span>
        <button
          type="button"
          onClick={async () => {
            await ok(api.DELETE('/v1/sessions/current')).catch(() => undefined);
            setCsrfToken(undefined);
            props.onSignedOut();
          }}
        >
          Sign out
        </button>
      </header>
      <nav class="main-nav" aria-label="Pages">
        <ul>
          {NAV.map((n) => (
            <li>
              <Link to={href(n.page)} aria-current={section === n.page ? 'page' : undefined}>
                {n.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main">
        <Page page={route.page} params={route.params} canWrite={canWrite} />
      </main>
    </>
  );
}

/** A page's URL with its defaults written in (the quarter that last ended), so what is shown is what is bookmarked. */
function withDefaults(page: string, params: URLSearchParams): { page: string; params: URLSearchParams } {
  const target = page === '' ? 'quarter' : page;
  const wantsPeriod = target === 'quarter' || (target === 'ioss' && !params.has('month'));
  if (page !== '' && !(wantsPeriod && !/^\d{4}-Q[1-4]$/.test(params.get('period') ?? ''))) return { page, params };
  const next = new URLSearchParams(params);
  if (wantsPeriod) next.set('period', lastEndedQuarter());
  history.replaceState(null, '', href(target, Object.fromEntries(next)));
  return { page: target, params: next };
}

function Page(props: { page: string; params: URLSearchParams; canWrite: boolean }) {
  const { page, params } = withDefaults(props.page, props.params);
  const canWrite = props.canWrite;
  const key = `${page}?${params.toString()}`;
  switch (page) {
    case 'quarter':
      return <QuarterPage key={key} params={params} canWrite={canWrite} />;
    case 'quarter/events':
      return <EventsPage key={key} params={params} />;
    case 'registrations':
      return <RegistrationsPage key={key} canWrite={canWrite} />;
    case 'ioss':
      return <IossPage key={key} params={params} />;
    case 'article-59c':
      return <ThresholdPage key={key} />;
    case 'corrections':
      return <CorrectionsPage key={key} params={params} canWrite={canWrite} />;
    case 'product-codes':
      return <ProductCodesPage key={key} params={params} canWrite={canWrite} />;
    case 'calendar':
      return <CalendarPage key={key} params={params} />;
    case 'notifications':
      return <NotificationsPage key={key} params={params} canWrite={canWrite} />;
    default:
      return (
        <>
          <h1>Page not found</h1>
          <p>
            No dashboard page <code>{page}</code>. <Link to={href('quarter')}>Go to the quarter</Link>.
          </p>
        </>
      );
  }
}

render(<App />, document.getElementById('app')!);
