import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api/client';
import { Link } from './router';

export type Load<T> = { status: 'loading' } | { status: 'error'; error: ApiError } | { status: 'ok'; data: T };

/** Loads on mount and whenever `key` changes; `reload` runs it again (after an action). */
export function useLoad<T>(load: () => Promise<T>, key: string): [Load<T>, () => void] {
  const [state, setState] = useState<Load<T>>({ status: 'loading' });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState({ status: 'loading' });
    load().then(
      (data) => live && setState({ status: 'ok', data }),
      (error: unknown) => live && setState({ status: 'error', error: error instanceof ApiError ? error : new ApiError(0, 'client_error', String(error), {}) }),
    );
    return () => {
      live = false;
    };
  }, [key, tick]);
  return [state, useCallback(() => setTick((t) => t + 1), [])];
}

/** Loading and error states shared by every page. */
export function Loaded<T>(props: { state: Load<T>; what: string; children: (data: T) => ComponentChildren }) {
  if (props.state.status === 'loading') return <p class="loading" role="status">Loading {props.what}…</p>;
  if (props.state.status === 'error') return <ErrorBox error={props.state.error} />;
  return <>{props.children(props.state.data)}</>;
}

export function ErrorBox(props: { error: ApiError }) {
  return (
    <div class="error" role="alert">
      <strong>{props.error.detail}</strong> <code>{props.error.code}</code>
    </div>
  );
}

/** The page heading; focused after each navigation so keyboard and screen-reader users start at the content. */
export function PageTitle(props: { children: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h1 tabIndex={-1} ref={ref}>
      {props.children}
    </h1>
  );
}

/** Next / first page links of a keyset-paged list; the cursor lives in the URL. */
export function Pager(props: { next: string | null | undefined; hasCursor: boolean; link: (cursor: string | undefined) => string }) {
  if (!props.next && !props.hasCursor) return null;
  return (
    <nav class="pager" aria-label="Pages">
      {props.hasCursor && <Link to={props.link(undefined)}>First page</Link>}
      {props.next && <Link to={props.link(props.next)}>Next page</Link>}
    </nav>
  );
}

/** A button that runs an API call, shows its progress and reports its error next to it. */
export function Action(props: { label: string; run: () => Promise<unknown>; done?: () => void; class?: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>();
  return (
    <span class="action">
      <button
        type="button"
        class={props.class}
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setError(undefined);
          try {
            await props.run();
            props.done?.();
          } catch (e) {
            setError(e instanceof ApiError ? e : new ApiError(0, 'client_error', String(e), {}));
          } finally {
            setBusy(false);
          }
        }}
      >
        {busy ? `${props.label}…` : props.label}
      </button>
      {error && <ErrorBox error={error} />}
    </span>
  );
}

/** A table that scrolls sideways on a narrow screen instead of widening the page. */
export function Table(props: { caption: string; head: string[]; children: ComponentChildren; numeric?: number[] }) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label={props.caption}>
      <table>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            {props.head.map((h, i) => (
              <th scope="col" class={props.numeric?.includes(i) ? 'num' : undefined}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}
